import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { peakInFlight } from "../../../testkit/testing/stub-in-flight";
import { waitFor } from "../../../testkit/testing/worker-processes";
import { createEndpoint } from "./endpoints";
import { LlmError, openAiCompatibleClient } from "../calls/llm-client";
import { SharedLimits, sharedLimitSettings, type SharedLimitSettings } from "./shared-endpoint-limiter";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
const processes: SharedLimits[] = [];
beforeAll(async () => {
  stub = await startStubLlm({ latencyMs: 100 });
});
afterAll(async () => {
  for (const p of processes) p.stop();
  await stub.close();
});
beforeEach(() => stub.reset());

/** A limits registry standing in for one worker process (each has its own holder names and renewal). */
function workerProcess(settings: SharedLimitSettings = { leaseMs: 3000, rateWindowMs: 60_000 }) {
  const limits = new SharedLimits(prisma, settings);
  processes.push(limits);
  return limits;
}

async function endpoint(limits: { maxConcurrency: number; requestsPerMinute: number | null }) {
  const owner = await makeUser();
  const project = await createProject(prisma, owner, { name: "Shared limits" });
  const created = await createEndpoint(prisma, await projectAccess(prisma, owner, project.id, "endpoints.manage"), {
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
  return { id: created.id, ...limits };
}

const client = () => openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null });
const request = (text = "hello") => ({ model: "stub-vision", text, images: [] });

describe("SharedEndpointLimiter", () => {
  it("keeps two processes together within the endpoint's max concurrency", async () => {
    const target = await endpoint({ maxConcurrency: 3, requestsPerMinute: null });
    const [a, b] = [workerProcess().limiterFor(target), workerProcess().limiterFor(target)];
    const llm = client();
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).run(() => llm.complete(request(), { timeoutMs: 5000 }))),
    );
    expect(stub.requests).toHaveLength(16);
    expect(peakInFlight(stub.requests)).toBe(3);
    // Every slot went back to the table once the calls ended (a finished call's slot is parked 1 s at most).
    await new Promise((r) => setTimeout(r, 1300));
    expect(await prisma.endpointSlotLease.count({ where: { endpointId: target.id, kind: "concurrency" } })).toBe(0);
  });

  it("keeps two processes together within the requests per window", async () => {
    const target = await endpoint({ maxConcurrency: 10, requestsPerMinute: 4 });
    const settings = { leaseMs: 3000, rateWindowMs: 2000 };
    const [a, b] = [workerProcess(settings).limiterFor(target), workerProcess(settings).limiterFor(target)];
    const llm = client();
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).run(() => llm.complete(request(), { timeoutMs: 5000 }))),
    );
    // 10 starts at 4 per 2 s: the 9th cannot start before 4 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    // The stub stamps a request some time after its rate slot was taken, on a busy machine (load 30 on
    // 2 cores) over 100 ms: windows 700 ms shorter than the limit's absorb that. Limits per process
    // would put 8 starts in the first of them.
    const starts = stub.requests.map((r) => r.at).sort((x, y) => x - y);
    for (const t of starts) expect(starts.filter((s) => s >= t && s < t + 2000 - 700).length).toBeLessThanOrEqual(4);
  });

  it("pauses the other process after a 429 with retry-after-ms, but not for other endpoints", async () => {
    const target = await endpoint({ maxConcurrency: 4, requestsPerMinute: null });
    const unrelated = await endpoint({ maxConcurrency: 4, requestsPerMinute: null });
    const first = workerProcess();
    const second = workerProcess();
    const llm = client();
    stub.addFault({ fault: { kind: "status", status: 429, retryAfterMs: 1500 } });
    const limited = await first
      .limiterFor(target)
      .run(() => llm.complete(request(), { timeoutMs: 5000 }))
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(LlmError);
    expect((limited as LlmError).retryAfterMs).toBe(1500);
    const limitedAt = stub.requests[0]!.endedAt!;

    // The other process finds the endpoint paused and the unrelated one not; asked together, the unrelated call
    // reaches the endpoint first, the paused endpoint's only once its pause is over.
    expect(await second.limiterFor(unrelated).pauseRemainingMs()).toBe(0);
    expect(await second.limiterFor(target).pauseRemainingMs()).toBeGreaterThan(0);
    await Promise.all([
      second.limiterFor(target).run(() => llm.complete(request("after the pause"), { timeoutMs: 5000 })),
      second.limiterFor(unrelated).run(() => llm.complete(request("other endpoint"), { timeoutMs: 5000 })),
    ]);
    expect(stub.requests.map((r) => r.text).slice(1)).toEqual(["other endpoint", "after the pause"]);
    const resumed = stub.requests.find((r) => r.text === "after the pause")!;
    expect(resumed.at - limitedAt).toBeGreaterThanOrEqual(1500 - 50);
  });

  it("frees the slots of a process that stopped renewing within the lease time", async () => {
    const target = await endpoint({ maxConcurrency: 2, requestsPerMinute: null });
    const dying = workerProcess({ leaseMs: 1000, rateWindowMs: 60_000 });
    const llm = client();
    // Two slow calls: the process holds both slots, then "dies" (stops renewing; it never releases in time).
    stub.addFault({ fault: { kind: "latency", ms: 5000 }, times: 2 });
    const slow = Array.from({ length: 2 }, () =>
      dying.limiterFor(target).run(() => llm.complete(request(), { timeoutMs: 20_000 })),
    );
    await waitFor(
      async () =>
        (await prisma.endpointSlotLease.count({ where: { endpointId: target.id, kind: "concurrency" } })) === 2,
      5000,
      "both slots taken",
    );
    // While it renews, its slots outlive the 1 s lease.
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      await prisma.endpointSlotLease.count({
        where: { endpointId: target.id, kind: "concurrency", expiresAt: { gt: new Date() } },
      }),
    ).toBe(2);
    dying.stop();
    await workerProcess({ leaseMs: 1000, rateWindowMs: 60_000 })
      .limiterFor(target)
      .run(() => llm.complete(request("survivor"), { timeoutMs: 5000 }));
    // The survivor's call went out on an expired slot while the dead process's calls were still in flight (they
    // answer after 5 s): it did not wait for a slot to be given back.
    expect(stub.requests.filter((r) => r.text !== "survivor").map((r) => r.endedAt)).toEqual([null, null]);
    await Promise.all(slow);
  });

  it(
    "keeps a lone busy worker's slots through their turns' ends while no other process waits",
    { timeout: 30_000 },
    async () => {
      const target = await endpoint({ maxConcurrency: 16, requestsPerMinute: null });
      const limiter = workerProcess({ leaseMs: 3000, rateWindowMs: 60_000, turnMs: 1000 }).limiterFor(target);
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      // 32 callers want the 16 slots for 8 s: every slot is taken at the start, and its turns (0.5–1.5 s
      // here, 2.5–7.5 s by default) end many times over.
      const deadline = Date.now() + 8000;
      let calls = 0;
      const callers = Promise.all(
        Array.from({ length: 32 }, async () => {
          while (Date.now() < deadline)
            await limiter.run(async () => {
              calls++;
              await sleep(20);
            });
        }),
      );
      const held: number[] = [];
      await sleep(1000);
      while (Date.now() < deadline - 200) {
        held.push(await prisma.endpointSlotLease.count({ where: { endpointId: target.id, kind: "concurrency" } }));
        await sleep(25);
      }
      await callers;
      expect(held.length).toBeGreaterThan(50);
      // Nobody else wants them, so no slot goes back to the table (where it would sit idle for a poll interval).
      expect(Math.min(...held)).toBe(16);
      // 16 slots × 8 s / 20 ms is 6,400 calls at most; the machine is shared, so a generous floor.
      expect(calls).toBeGreaterThan(2000);
    },
  );

  it(
    "gives a busy process's slots to another process that waits, as their turns end, within the limit",
    { timeout: 30_000 },
    async () => {
      const target = await endpoint({ maxConcurrency: 4, requestsPerMinute: null });
      const settings = { leaseMs: 3000, rateWindowMs: 60_000, turnMs: 1000 };
      const [busy, late] = [workerProcess(settings).limiterFor(target), workerProcess(settings).limiterFor(target)];
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      let inFlight = 0;
      let peak = 0;
      const task = (done: () => void) => async () => {
        peak = Math.max(peak, ++inFlight);
        await sleep(20);
        inFlight--;
        done();
      };
      const deadline = Date.now() + 6000;
      const busyCalls: number[] = [];
      const busyCallers = Promise.all(
        Array.from({ length: 8 }, async () => {
          while (Date.now() < deadline) await busy.run(task(() => busyCalls.push(Date.now())));
        }),
      );
      await sleep(800);
      // The busy process holds all 4 slots; the late one waits for them.
      expect(await prisma.endpointSlotLease.count({ where: { endpointId: target.id, kind: "concurrency" } })).toBe(4);
      const lateCalls: number[] = [];
      const lateCallers = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (Date.now() < deadline) await late.run(task(() => lateCalls.push(Date.now())));
        }),
      );
      await Promise.all([busyCallers, lateCallers]);
      expect(peak).toBeLessThanOrEqual(4);
      // As the busy process's turns end, the late process has calls going while the busy one still calls (it
      // did not wait for the busy one to stop), and keeps a share to the end.
      expect(lateCalls.length).toBeGreaterThan(0);
      expect(busyCalls.filter((t) => t > lateCalls[0]!).length).toBeGreaterThan(0);
      expect(lateCalls.filter((t) => t > deadline - 2000).length).toBeGreaterThan(0);
    },
  );

  it(
    "starts calls while a slow look at the pause runs if the endpoint was found unpaused within a second, and waits for the look after that",
    { timeout: 30_000 },
    async () => {
      const target = await endpoint({ maxConcurrency: 4, requestsPerMinute: null });
      // The limiter's clock is the test's: `now` moves only when the test says.
      let now = 0;
      const clock = {
        now: () => now,
        sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 10))),
        random: () => 0.5,
      };
      // The pause is looked at through this client, whose looks answer when the test lets them (a busy database).
      let looks = 0;
      let answered = 0;
      const waitingLooks: (() => void)[] = [];
      const answerLook = async () => {
        while (waitingLooks.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        waitingLooks.shift()!();
        while (answered < looks) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      const slowPauseLooks = new Proxy(prisma, {
        get(client, property) {
          if (property === "$queryRaw") {
            return async (strings: TemplateStringsArray, ...values: unknown[]) => {
              if (!strings.join("").includes("endpoint_pause")) return client.$queryRaw(strings, ...values);
              looks += 1;
              await new Promise<void>((resolve) => waitingLooks.push(resolve));
              const result = await client.$queryRaw(strings, ...values);
              answered += 1;
              return result;
            };
          }
          const value = Reflect.get(client, property);
          return typeof value === "function" ? value.bind(client) : value;
        },
      });
      const limits = new SharedLimits(slowPauseLooks, { leaseMs: 3000, rateWindowMs: 60_000 }, () => {}, clock);
      processes.push(limits);
      const limiter = limits.limiterFor(target);
      /** A call; `answeredAtStart` says how many looks had answered when it started (null: not started yet). */
      const call = () => {
        const started: { answeredAtStart: number | null } = { answeredAtStart: null };
        const done = limiter.run(async () => void (started.answeredAtStart = answered));
        return { started, done };
      };
      const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

      // No look has answered yet: the first call waits for one, and starts once it answers (at 600 ms).
      const first = call();
      await settle();
      expect(first.started.answeredAtStart).toBeNull();
      now = 600;
      await answerLook();
      await first.done;
      expect(first.started.answeredAtStart).toBe(1);
      // 300 ms on the last look is stale (over 200 ms old) but found the endpoint unpaused under a second ago:
      // the call starts before the new look it sets off answers.
      now = 900;
      const second = call();
      await second.done;
      expect(second.started.answeredAtStart).toBe(1);
      expect(looks).toBe(2);
      // That look answers at 1,500 ms; at 1,800 ms a call again starts while the next look runs.
      now = 1500;
      await answerLook();
      now = 1800;
      const third = call();
      await third.done;
      expect(third.started.answeredAtStart).toBe(2);
      expect(looks).toBe(3);
      // Over a second after the last answer, with the slow look still running, a call waits for it.
      now = 2700;
      const fourth = call();
      await settle();
      expect(fourth.started.answeredAtStart).toBeNull();
      expect(looks).toBe(3);
      await answerLook();
      await fourth.done;
      expect(fourth.started.answeredAtStart).toBe(3);
    },
  );

  it("reads its lease and window from the environment, and refuses nonsense", () => {
    expect(sharedLimitSettings({})).toEqual({ leaseMs: 15_000, rateWindowMs: 60_000 });
    expect(sharedLimitSettings({ ENDPOINT_LEASE_SECONDS: "3", ENDPOINT_RATE_WINDOW_SECONDS: "0.5" })).toEqual({
      leaseMs: 3000,
      rateWindowMs: 500,
    });
    expect(() => sharedLimitSettings({ ENDPOINT_LEASE_SECONDS: "soon" })).toThrow(/ENDPOINT_LEASE_SECONDS/);
    expect(() => sharedLimitSettings({ ENDPOINT_RATE_WINDOW_SECONDS: "-1" })).toThrow(/ENDPOINT_RATE_WINDOW_SECONDS/);
  });
});
