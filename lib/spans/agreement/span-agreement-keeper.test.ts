/**
 * The span agreement keeper, on a database of its own (a pass looks at every project, and other tests' projects must
 * not get stored reports they do not expect): a pass stores the report of each task and of each run whose judge
 * marked spans, and a new process's first request answers from it; a stale report waits until the spans settle; a
 * scope that cannot be kept does not stop the others and is not tried again every pass; two workers' passes at once
 * leave one report per scope; a worker's started keeper stores the reports through its queue.
 */
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { Actor } from "../../auth/actor";
import { createUser } from "../../auth/users";
import { projectAccess } from "../../authz/permissions";
import { createPrismaClient } from "../../db/prisma";
import { createBoss } from "../../jobs/job-boss";
import type { PrismaClient } from "../../generated/prisma/client";
import {
  catalogue,
  freshReport,
  keptReportProject,
  query,
  spanRowIn,
} from "../../../testkit/spans/kept-report-project";
import { createTestDatabase } from "../../../testkit/testing/test-database";
import { waitFor } from "../../../testkit/testing/worker-process";
import { spanRevision } from "./span-agreement-cache";
import { keptReportKey } from "./span-agreement-cache";
import {
  KEPT_SCOPES_PER_PROJECT,
  SpanAgreementKeeper,
  keeperIntervalSeconds,
  scopesToKeep,
  startSpanAgreementKeeper,
  type KeptScopeOutcome,
} from "./span-agreement-keeper";
import { storedRevisions } from "./span-agreement-snapshot";

const options = { iterations: 50 };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let prisma: PrismaClient;
let owner: Actor;
let ann: Actor;
let bob: Actor;

async function member(email: string): Promise<Actor> {
  const user = await createUser(prisma, { email, password: "correct horse battery", isAdmin: false });
  return { userId: user.id, email: user.email, name: user.name, isAdmin: false };
}

/** A project of three 30-frame videos (keptReportProject) marked by ann and bob, and a run whose judge marked one. */
async function markedProject(name: string) {
  const { projectId, videoIds } = await keptReportProject(prisma, name, { owner, ann, bob });
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: owner.userId, status: "done" },
  });
  const [v0, v1, v2] = videoIds as [string, string, string];
  await prisma.span.createMany({
    data: [
      spanRowIn(projectId, v0, ann, 0, 9),
      spanRowIn(projectId, v1, ann, 10, 19),
      spanRowIn(projectId, v0, bob, 0, 9),
      spanRowIn(projectId, v2, bob, 20, 24),
      spanRowIn(projectId, v0, run.id, 2, 11),
    ],
  });
  return { projectId, videoIds, runId: run.id };
}

/** The loader as a new process has it: fresh modules, the composition root built again, nothing kept in memory. */
async function newProcess() {
  vi.resetModules();
  (await import("../../app-context/app-context")).appContext();
  return import("./load-span-agreement");
}

const keeper = () => new SpanAgreementKeeper({ prisma, catalogueOf: async () => catalogue, options });
const ofProject = (outcomes: KeptScopeOutcome[], projectId: string) =>
  outcomes
    .filter((o) => o.projectId === projectId)
    .map(({ task, runId, outcome }) => ({ task, runId, outcome }))
    .sort((a, b) => String(a.runId).localeCompare(String(b.runId)));
const keyOf = (projectId: string, runId: string | null) =>
  keptReportKey({ projectId, task: "hallucination", runId }, null, options);
const writtenOf = async (projectId: string) =>
  (
    await prisma.spanAgreementSnapshot.findMany({
      where: { projectId },
      select: { scope: true, written: true },
      orderBy: { scope: "asc" },
    })
  ).map((s) => [s.scope, String(s.written)]);

beforeAll(async () => {
  database = await createTestDatabase({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "keeper");
  prisma = createPrismaClient(database.url);
  [owner, ann, bob] = await Promise.all([
    member("owner@keeper.test"),
    member("ann@keeper.test"),
    member("bob@keeper.test"),
  ]);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await database?.drop();
});

describe("the span agreement keeper", () => {
  it("stores each task's and each marking run's report, and a new process's first request answers from it", async () => {
    const { projectId, runId } = await markedProject("Kept ahead");
    const revision = await spanRevision(prisma, projectId);

    expect(ofProject(await keeper().pass(), projectId)).toEqual([
      { task: "hallucination", runId, outcome: "computed" },
      { task: "hallucination", runId: null, outcome: "computed" },
    ]);
    const stored = await storedRevisions(prisma, projectId);
    expect(stored.get(keyOf(projectId, null))).toBe(revision);
    expect(stored.get(keyOf(projectId, runId))).toBe(revision);

    const loader = await newProcess();
    const access = await projectAccess(prisma, owner, projectId, "export.read");
    const whole = await loader.spanAgreementReport(prisma, access, query, catalogue, options);
    expect({ how: whole.how, keptIn: whole.keptIn }).toEqual({ how: "kept", keptIn: "database" });
    expect(whole.report).toEqual(await freshReport(prisma, owner, projectId, options));
    const ofRun = await loader.spanAgreementReport(prisma, access, { ...query, runId }, catalogue, options);
    expect({ how: ofRun.how, keptIn: ofRun.keptIn }).toEqual({ how: "kept", keptIn: "database" });
    expect(ofRun.report.labels[0]!.comparisons.some((c) => c.kind === "judge_people")).toBe(true);
  });

  it("does nothing while nothing is written, and matches a stale report again once the spans settle", async () => {
    const { projectId, videoIds } = await markedProject("Settling");
    const worker = keeper();
    await worker.pass();
    const written = await writtenOf(projectId);
    expect(ofProject(await worker.pass(), projectId)).toEqual([]);
    expect(await writtenOf(projectId)).toEqual(written);

    await prisma.span.create({ data: spanRowIn(projectId, videoIds[1]!, bob, 11, 19) });
    // Written since the last pass: the spans may still be moving, and the stored reports stay as they are.
    expect(ofProject(await worker.pass(), projectId).map((o) => o.outcome)).toEqual(["waiting", "waiting"]);
    expect(await writtenOf(projectId)).toEqual(written);
    // The same revision a pass later: matched again, only the written video.
    expect(ofProject(await worker.pass(), projectId).map((o) => o.outcome)).toEqual(["rematched", "rematched"]);
    const revision = await spanRevision(prisma, projectId);
    expect([...(await storedRevisions(prisma, projectId)).values()]).toEqual([revision, revision]);
    expect(ofProject(await worker.pass(), projectId)).toEqual([]);

    const loader = await newProcess();
    const access = await projectAccess(prisma, owner, projectId, "export.read");
    const report = await loader.spanAgreementReport(prisma, access, query, catalogue, options);
    expect({ how: report.how, keptIn: report.keptIn }).toEqual({ how: "kept", keptIn: "database" });
    expect(report.report).toEqual(await freshReport(prisma, owner, projectId, options));
  });

  it("keeps the other scopes when one cannot be kept, and does not try it again until the next write", async () => {
    const { projectId, videoIds } = await markedProject("One fails");
    await prisma.span.create({ data: { ...spanRowIn(projectId, videoIds[0]!, ann, 0, 3), task: "no-such-task" } });
    const worker = keeper();
    const outcomes = ofProject(await worker.pass(), projectId);
    expect(outcomes.map((o) => o.outcome)).toEqual(["computed", "computed", expect.anything()]);
    expect(outcomes[2]).toEqual({
      task: "no-such-task",
      runId: null,
      outcome: { failed: 'task: "no-such-task" is not a task of this project.' },
    });
    expect(ofProject(await worker.pass(), projectId)).toEqual([]);
  });

  it("does nothing while its worker judges, and keeps the reports at a pass once it no longer does", async () => {
    const { projectId } = await markedProject("Busy worker");
    let judging = true;
    const worker = new SpanAgreementKeeper({
      prisma,
      catalogueOf: async () => catalogue,
      options,
      busy: () => judging,
    });
    expect(await worker.pass()).toEqual([]);
    expect((await storedRevisions(prisma, projectId)).size).toBe(0);
    judging = false;
    expect(ofProject(await worker.pass(), projectId).map((o) => o.outcome)).toEqual(["computed", "computed"]);
  });

  it("keeps the whole scope of each task first, then the newest runs, KEPT_SCOPES_PER_PROJECT at most", async () => {
    const { projectId, videoIds } = await markedProject("Many runs");
    const { endpointId } = await prisma.judgeRun.findFirstOrThrow({
      where: { projectId },
      select: { endpointId: true },
    });
    const runs: string[] = [];
    for (let i = 0; i < KEPT_SCOPES_PER_PROJECT + 1; i++) {
      const run = await prisma.judgeRun.create({
        data: {
          projectId,
          pipeline: "hallucination",
          endpointId,
          createdById: owner.userId,
          status: "done",
          createdAt: new Date(Date.UTC(2030, 0, 1 + i)),
        },
      });
      runs.push(run.id);
      await prisma.span.create({ data: spanRowIn(projectId, videoIds[i % 3]!, run.id, 0, 5) });
    }
    const scopes = await scopesToKeep(prisma, projectId);
    expect(scopes).toHaveLength(KEPT_SCOPES_PER_PROJECT);
    expect(scopes[0]).toEqual({ task: "hallucination", runId: null });
    expect(scopes.slice(1).map((s) => s.runId)).toEqual(runs.reverse().slice(0, KEPT_SCOPES_PER_PROJECT - 1));
  });

  it("leaves one report per scope at the project's revision when two workers pass at once", async () => {
    const { projectId, runId } = await markedProject("Two workers");
    const [a, b] = await Promise.all([keeper().pass(), keeper().pass()]);
    for (const outcomes of [a, b])
      for (const o of ofProject(outcomes, projectId)) expect(typeof o.outcome).toBe("string");
    const revision = await spanRevision(prisma, projectId);
    const stored = await storedRevisions(prisma, projectId);
    expect([...stored.keys()].sort()).toEqual([keyOf(projectId, null), keyOf(projectId, runId)].sort());
    expect([...stored.values()]).toEqual([revision, revision]);
  });

  it("passes every 30 s unless SPAN_AGREEMENT_KEEPER_SECONDS says otherwise (0: never)", () => {
    expect(keeperIntervalSeconds("")).toBe(30);
    expect(keeperIntervalSeconds("0")).toBe(0);
    expect(keeperIntervalSeconds("120")).toBe(120);
    expect(keeperIntervalSeconds("soon")).toBe(30);
  });

  it("stores the reports through the queue once a worker starts its keeper", async () => {
    const { projectId, runId } = await markedProject("Through the queue");
    let boss: PgBoss | undefined;
    let stop = () => {};
    try {
      boss = await createBoss(database.url, { supervise: false });
      stop = await startSpanAgreementKeeper(
        boss,
        {
          prisma,
          catalogueOf: async () => catalogue,
          options,
          log: () => {},
        },
        30,
      );
      const revision = await spanRevision(prisma, projectId);
      const stored = await waitFor(
        async () => {
          const found = await storedRevisions(prisma, projectId);
          return found.size === 2 && found;
        },
        60_000,
        "the keeper's stored reports",
      );
      expect(stored.get(keyOf(projectId, null))).toBe(revision);
      expect(stored.get(keyOf(projectId, runId))).toBe(revision);
    } finally {
      stop();
      await boss?.stop({ graceful: false }).catch(() => {});
    }
  });
});
