import type { ChildProcess } from "node:child_process";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubRequestRecord, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { peakInFlight } from "../../../testkit/testing/stub-in-flight";
import { waitFor, WorkerProcesses } from "../../../testkit/testing/worker-processes";
import { createEndpoint } from "../endpoints/endpoints";

import { pgBossQueue, startBoss } from "./queue";
import { cancelRun, createRun } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

// Three real worker processes (scripts/worker.ts) on one endpoint. The rate window is shortened to
// 5 s and the lease to 3 s through their documented settings, so the test runs in seconds.
const LEASE_MS = 3000;
const WINDOW_MS = 5000;
const workers = new WorkerProcesses();
const stubs: StubServer[] = [];
let boss: PgBoss;
let children: ChildProcess[] = [];

beforeAll(async () => {
  boss = await startBoss(process.env.DATABASE_URL!, { supervise: false });
  const started = [0, 1, 2].map(() =>
    workers.start({
      ENDPOINT_LEASE_SECONDS: String(LEASE_MS / 1000),
      ENDPOINT_RATE_WINDOW_SECONDS: String(WINDOW_MS / 1000),
    }),
  );
  children = started.map((s) => s.child);
  await Promise.all(started.map((s) => s.ready));
}, 120_000);
afterAll(async () => {
  await workers.killAll();
  await boss.stop({ graceful: false }).catch(() => {});
  for (const stub of stubs) await stub.close();
});

async function stubLlm(latencyMs: number) {
  const stub = await startStubLlm({ latencyMs });
  stubs.push(stub);
  return stub;
}

/** A run of `videoCount` videos × 2 key frames (10 calls each) on a fresh endpoint of the stub. */
async function startRun(
  stub: StubServer,
  limits: { maxConcurrency: number; requestsPerMinute: number | null },
  videoCount: number,
) {
  const owner = await makeUser();
  const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 2 });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    timeoutSeconds: 30,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
    ...limits,
  });
  const run = await createRun(
    { prisma, queue: pgBossQueue(boss), pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId: endpoint.id,
    },
  );
  return { owner, run, endpoint, calls: videoCount * (2 + 2 + 1 + 1 + 2 + 2) };
}

const runStatus = async (runId: string) => (await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).status;

/** How many requests the stub had in flight at time t (a request's interval is [at, endedAt)). */
function inFlightAt(requests: StubRequestRecord[], t: number): number {
  return requests.filter((r) => r.at <= t && (r.endedAt === null || r.endedAt > t)).length;
}

describe("endpoint limits shared by three worker processes", () => {
  it("never exceed the endpoint's max concurrency or its requests per window", { timeout: 120_000 }, async () => {
    const stub = await stubLlm(300);
    const { run, calls } = await startRun(stub, { maxConcurrency: 3, requestsPerMinute: 20 }, 4);
    await waitFor(async () => (await runStatus(run.id)) === "done", 90_000, "the run to finish");

    const requests = stub.requests;
    expect(requests).toHaveLength(calls);
    expect(requests.every((r) => r.status === 200)).toBe(true);
    // Each worker could have 4 videos' calls in flight: 3 workers would send up to 12 at once, and
    // 60 per window, were the limits per process.
    expect(peakInFlight(requests)).toBeLessThanOrEqual(3);
    // The stub stamps a request some time after its rate slot was taken: usually a few ms, but on a
    // busy machine (a worker's first calls, this process's event loop held up) up to 700 ms was seen
    // here. Windows 1.5 s shorter than the limit's absorb that; per-process limits would put up to
    // 60 in them.
    const jitterMs = 1500;
    const starts = requests.map((r) => r.at).sort((a, b) => a - b);
    const busiest = Math.max(...starts.map((t) => starts.filter((s) => s >= t && s < t + WINDOW_MS - jitterMs).length));
    expect(busiest).toBeLessThanOrEqual(20);
    // 40 calls at 20 per window cannot all start within one window.
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(WINDOW_MS - jitterMs);
    expect(await prisma.stepResult.count({ where: { runId: run.id, status: { not: "done" } } })).toBe(0);
  });

  it(
    "a 429 with retry-after seen by one worker holds back every worker's next requests",
    { timeout: 120_000 },
    async () => {
      const stub = await stubLlm(300);
      const { run } = await startRun(stub, { maxConcurrency: 3, requestsPerMinute: null }, 4);
      await waitFor(async () => stub.requests.length >= 6, 60_000, "the workers to be busy");
      stub.addFault({ fault: { kind: "status", status: 429, retryAfter: 4 } });
      const limited = await waitFor(
        async () => stub.requests.find((r) => r.status === 429 && r.endedAt !== null),
        30_000,
        "the 429",
      );
      await waitFor(async () => (await runStatus(run.id)) === "done", 90_000, "the run to finish");

      // Requests already past their limiter when the 429 was answered may still arrive a little later
      // (stamped up to 700 ms late on a busy machine, see above), and a worker without a rate limit
      // looks at the pause every 200 ms; after that, nobody sends anything until the 4 s are over.
      // Without the shared pause the other workers would send about 20 in that time.
      const during = stub.requests.filter((r) => r.at > limited.endedAt! + 1200 && r.at < limited.endedAt! + 4000 - 50);
      expect(during.map((r) => r.at - limited.endedAt!)).toEqual([]);
      expect(stub.requests.filter((r) => r.at >= limited.endedAt! + 4000 - 50).length).toBeGreaterThan(0);
      expect(await prisma.stepResult.count({ where: { runId: run.id, status: { not: "done" } } })).toBe(0);
    },
  );

  it("a killed worker's slots go to the others within the lease time", { timeout: 120_000 }, async () => {
    const stub = await stubLlm(1500);
    const { run, owner, endpoint } = await startRun(stub, { maxConcurrency: 3, requestsPerMinute: null }, 6);
    const endpointId = endpoint.id;
    // Wait until one worker holds slots, and kill it without any chance to release them.
    const holder = await waitFor(
      async () => {
        const leases = await prisma.endpointSlotLease.findMany({ where: { endpointId, kind: "concurrency" } });
        const pids = leases.map((l) => Number(l.holder.split(":")[1]));
        return children.find((c) => c.exitCode === null && pids.includes(c.pid!)) ?? null;
      },
      60_000,
      "a worker holding a slot",
    );
    await workers.kill(holder);
    const killedAt = Date.now();
    const deadPid = `:${holder.pid}:`;
    const deadLeases = await prisma.endpointSlotLease.findMany({
      where: { endpointId, kind: "concurrency", holder: { contains: deadPid } },
    });
    expect(deadLeases.length).toBeGreaterThan(0);
    // Renewed at most a lease ago, so they end within one lease of the kill.
    for (const lease of deadLeases) expect(lease.expiresAt.getTime()).toBeLessThanOrEqual(killedAt + LEASE_MS + 100);

    // The two live workers have more than 3 calls to make: all 3 slots are in use again, which takes the dead
    // worker's slots, and so happens only once its leases have ended (never more than 3 in flight meanwhile).
    const refilled = await waitFor(
      async () => {
        const now = Date.now();
        return inFlightAt(stub.requests, now) === 3 && stub.requests.some((r) => r.at > killedAt) ? now : null;
      },
      60_000,
      "3 requests in flight again",
    );
    expect(refilled).toBeGreaterThanOrEqual(Math.min(...deadLeases.map((lease) => lease.expiresAt.getTime())));
    expect(peakInFlight(stub.requests)).toBeLessThanOrEqual(3);
    expect(
      await prisma.endpointSlotLease.count({
        where: { endpointId, holder: { contains: deadPid }, expiresAt: { gt: new Date() } },
      }),
    ).toBe(0);
    await cancelRun(prisma, await accessOfRun(prisma, owner, run.id, "runs.manage"), run.id);
  });
});
