/**
 * The span agreement keeper: a worker's pass, every half minute, that keeps the stored report
 * (span-agreement-snapshot.ts) of each scope the app's pages open at its project's span revision: a task's spans with
 * every run of it (the Agreement page without a run), and with each run whose judge marked spans (the page with that
 * run, run comparison). The first request of such a scope then starts from a stored report and matches only what was
 * written since, instead of reading and matching every span (5 to 6 s for 1.5 million spans: docs/benchmarks.md).
 *
 * - A scope without a stored report is computed at the first pass that finds it.
 * - A scope whose stored report is behind is brought up to date once the project's spans have settled: the same
 *   revision at two passes of this worker in a row. A running judge run writes spans every few seconds, and matching
 *   again each half minute would spend a core on reports nobody reads in between; a request meanwhile still matches
 *   what changed since the stored report.
 * - At most KEPT_SCOPES_PER_PROJECT scopes per project (each task's whole scope first, then the newest runs), below
 *   the stored reports a project holds, so the keeper's scopes do not push each other out.
 * - One pass at a time across every worker: each worker sends a pass to a queue that holds one job, waiting or
 *   running (`exclusive`). Two passes of one scope at once would only store the later revision twice.
 * - A worker judging lets the pass go (KeeperDeps.busy): while every worker judges, the reports wait for the runs.
 */
import type { PgBoss } from "pg-boss";
import type { PrismaClient } from "../../generated/prisma/client";
import { directRows } from "../../db/direct-sql";
import { queueOn, type QueueDefinition } from "../../jobs/job-boss";
import {
  keepSpanAgreementReport,
  type SpanAgreementCatalogue,
  type SpanAgreementReportRun,
} from "./load-span-agreement";
import { keptReportKey } from "./span-agreement-cache";
import { SNAPSHOTS_PER_PROJECT, storedRevisions } from "./span-agreement-snapshot";
import type { SpanAgreementOptions } from "./types";

export const SPAN_AGREEMENT_KEEPER_QUEUE = "span-agreement-keeper";

/** One pass waiting or running at most; a pass that failed is not retried (the next one comes half a minute later). */
export const SPAN_AGREEMENT_KEEPER_QUEUE_DEFINITION: QueueDefinition = {
  name: SPAN_AGREEMENT_KEEPER_QUEUE,
  options: { policy: "exclusive", retryLimit: 0, expireInSeconds: 3600 },
};

/**
 * How often each worker sends a pass (s; SPAN_AGREEMENT_KEEPER_SECONDS, 30 unless set; 0: no keeper). The test
 * setup sets 0: workers started on the shared test database would store reports other tests do not expect.
 */
export function keeperIntervalSeconds(setting = process.env.SPAN_AGREEMENT_KEEPER_SECONDS): number {
  const value = setting?.trim() ? Number(setting) : 30;
  return Number.isFinite(value) && value >= 0 ? value : 30;
}

/** Two below the stored reports a project holds: room for a label's or other options' report a request stored. */
export const KEPT_SCOPES_PER_PROJECT = SNAPSHOTS_PER_PROJECT - 2;

/** A scope the keeper keeps: a task, and one run of it or every run. */
export interface KeptScope {
  task: string;
  runId: string | null;
}

/** What a pass did with one scope. */
export interface KeptScopeOutcome extends KeptScope {
  projectId: string;
  outcome: SpanAgreementReportRun["how"] | "waiting" | { failed: string };
}

/**
 * Each project with span writes, its span revision, and whether that is ahead of one of its stored reports or it has
 * none (a project with neither has nothing for a pass to do, unless this worker has not looked at it yet).
 */
async function projectRevisions(prisma: PrismaClient) {
  return directRows(prisma)<{ projectId: string; revision: string; behind: boolean }>`
    SELECT r."projectId", r."revision"::text AS "revision", r."revision" > coalesce(
      (SELECT min(s."revision") FROM "span_agreement_snapshot" s WHERE s."projectId" = r."projectId"), -1) AS "behind"
    FROM "span_revision" r ORDER BY r."projectId"`;
}

/**
 * The scopes of a project the keeper keeps: each task with spans, then each run of a task whose judge marked spans,
 * newest first; KEPT_SCOPES_PER_PROJECT at most.
 */
export async function scopesToKeep(prisma: PrismaClient, projectId: string): Promise<KeptScope[]> {
  // The tasks one by one along the (projectId, task, label) index: a handful of tasks over a million spans.
  const tasks = await directRows(prisma)<{ task: string }>`
    WITH RECURSIVE t AS (
      (SELECT "task" FROM "span" WHERE "projectId" = ${projectId} ORDER BY "task" LIMIT 1)
      UNION ALL
      SELECT (SELECT s."task" FROM "span" s WHERE s."projectId" = ${projectId} AND s."task" > t."task"
              ORDER BY s."task" LIMIT 1)
      FROM t WHERE t."task" IS NOT NULL
    )
    SELECT "task" FROM t WHERE "task" IS NOT NULL`;
  const runs = await directRows(prisma)<{ id: string; task: string }>`
    SELECT r."id", r."pipeline" AS "task" FROM "judge_run" r
    WHERE r."projectId" = ${projectId}
      AND EXISTS (SELECT 1 FROM "span" s WHERE s."runId" = r."id" AND s."authorKind" = 'judge')
    ORDER BY r."createdAt" DESC, r."id" DESC`;
  return [
    ...tasks.map(({ task }) => ({ task, runId: null })),
    ...runs.map(({ id, task }) => ({ task, runId: id })),
  ].slice(0, KEPT_SCOPES_PER_PROJECT);
}

export interface KeeperDeps {
  prisma: PrismaClient;
  /** The project's task catalogue (its rubric tasks beside the built-in ones). */
  catalogueOf(projectId: string): Promise<SpanAgreementCatalogue>;
  /** The bootstrap the pages ask for: the default, but for tests. */
  options?: SpanAgreementOptions;
  /**
   * Whether this process is judging now: a pass then does nothing. Computing a report of 50,000 videos holds the
   * event loop for some 3 s, and a judging worker that stalls misses its jobs' heartbeats (renewed every 4 s, lost
   * after 10); an idle worker takes a later pass.
   */
  busy?: () => boolean;
}

/**
 * A worker's keeper. It remembers each project's revision at its last pass (whether the spans settled) and the
 * revision at which it last kept all the project's scopes (a project not behind and kept since needs no look).
 */
export class SpanAgreementKeeper {
  private readonly seen = new Map<string, string>();
  private readonly keptAt = new Map<string, string>();

  constructor(private readonly deps: KeeperDeps) {}

  /** One pass over every project with something to keep: what it did with each scope it looked at. */
  async pass(): Promise<KeptScopeOutcome[]> {
    if (this.deps.busy?.()) return [];
    const outcomes: KeptScopeOutcome[] = [];
    const projects = await projectRevisions(this.deps.prisma);
    for (const { projectId, revision, behind } of projects) {
      const settled = this.seen.get(projectId) === revision;
      this.seen.set(projectId, revision);
      if (!behind && this.keptAt.get(projectId) === revision) continue;
      const kept = await this.keepProject(projectId, revision, settled);
      outcomes.push(...kept);
      // A scope that failed is tried again after the next write, not every pass: it may have read every span first.
      if (kept.every((k) => k.outcome !== "waiting")) this.keptAt.set(projectId, revision);
    }
    const present = new Set(projects.map((p) => p.projectId));
    for (const remembered of [this.seen, this.keptAt])
      for (const projectId of remembered.keys()) if (!present.has(projectId)) remembered.delete(projectId);
    return outcomes;
  }

  private async keepProject(projectId: string, revision: string, settled: boolean): Promise<KeptScopeOutcome[]> {
    const { prisma, options = {} } = this.deps;
    const [scopes, stored] = await Promise.all([scopesToKeep(prisma, projectId), storedRevisions(prisma, projectId)]);
    const outcomes: KeptScopeOutcome[] = [];
    let catalogue: SpanAgreementCatalogue | undefined;
    for (const scope of scopes) {
      const storedAt = stored.get(keptReportKey({ projectId, ...scope }, null, options));
      if (storedAt === revision) continue;
      if (storedAt !== undefined && !settled) {
        outcomes.push({ projectId, ...scope, outcome: "waiting" });
        continue;
      }
      try {
        catalogue ??= await this.deps.catalogueOf(projectId);
        const query = { task: scope.task, ...(scope.runId ? { runId: scope.runId } : {}) };
        const { how } = await keepSpanAgreementReport(prisma, projectId, query, catalogue, options);
        outcomes.push({ projectId, ...scope, outcome: how });
      } catch (error) {
        // A task no longer of the project, a run deleted meanwhile: the other scopes are still kept.
        outcomes.push({
          projectId,
          ...scope,
          outcome: { failed: error instanceof Error ? error.message : String(error) },
        });
      }
    }
    return outcomes;
  }
}

/**
 * A worker's part: takes the keeper's passes, and sends one every `intervalSeconds` (dropped while one waits or runs,
 * from this worker or another); nothing at 0. Returns the stop of its timer.
 */
export async function startSpanAgreementKeeper(
  boss: PgBoss,
  deps: KeeperDeps & { log(outcomes: KeptScopeOutcome[]): void },
  intervalSeconds = keeperIntervalSeconds(),
): Promise<() => void> {
  if (intervalSeconds === 0) return () => {};
  await queueOn(boss, SPAN_AGREEMENT_KEEPER_QUEUE_DEFINITION);
  const keeper = new SpanAgreementKeeper(deps);
  await boss.work(SPAN_AGREEMENT_KEEPER_QUEUE, { batchSize: 1, pollingIntervalSeconds: 2 }, async () => {
    const done = (await keeper.pass()).filter((o) => o.outcome !== "waiting");
    if (done.length > 0) deps.log(done);
  });
  const send = () => void boss.send(SPAN_AGREEMENT_KEEPER_QUEUE, {}).catch(() => {});
  send();
  const timer = setInterval(send, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
