import type { ConstructorOptions, PgBoss } from "pg-boss";
import { loggedClusterIdentity, type ClusterIdentity } from "../db/cluster-identity";
import { isConnectionLoss } from "../db/reconnecting-adapter";
import { rootLogger, withLogger } from "../observability/logger";
import type { JudgeDeps } from "./engine/judge-video";
import { judgeVideo } from "./engine/judge-video";
import { advanceBatchRun, type BatchRunnerDeps } from "./batch/batch-runner";
import type { JudgeQueue } from "./judge-queue";
import { JobTaker, wakeTakers } from "./job-taker";

export const JUDGE_QUEUE = "judge-video";
/**
 * A batch-mode run's check (lib/judge/batch/batch-runner.ts): one job per run at a time, each scheduling
 * the next, so polling lives in the database and survives any restart ("stately": one queued and one
 * active job per run).
 */
export const JUDGE_BATCH_QUEUE = "judge-batch";

/** Seconds between looks at an open batch (BATCH_POLL_SECONDS, default 30), and while the run's videos are being judged. */
export function batchPollSeconds(): number {
  const value = Number(process.env.BATCH_POLL_SECONDS ?? 30);
  return Number.isFinite(value) && value >= 1 ? value : 30;
}

/**
 * pg-boss on the app's own PostgreSQL. One job per (run, video). A worker that dies stops sending
 * heartbeats; the job then goes back to the queue and another worker resumes it (finished steps
 * are kept, see judgeVideo).
 */
export async function startBoss(connectionString: string, options: { supervise: boolean }): Promise<PgBoss> {
  // Loaded here, not with the module: most importers only enqueue through a started boss, and every test file
  // and request module that reaches this one would otherwise load pg-boss too.
  const { PgBoss } = await import("pg-boss");
  // pg-boss hands its options to its node-postgres pool, whose onConnect checks each new connection reaches the same
  // cluster as the first (lib/db/cluster-identity.ts): after an outage, a server that took the port is refused.
  const settings: ConstructorOptions & { onConnect: ClusterIdentity["check"] } = {
    connectionString,
    supervise: options.supervise,
    schedule: false,
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
    onConnect: loggedClusterIdentity().check,
  };
  const boss = new PgBoss(settings);
  boss.on("error", queueErrorLogger());
  await boss.start();
  await boss.createQueue(JUDGE_QUEUE, {
    heartbeatSeconds: 10,
    retryLimit: 20,
    retryDelay: 1,
    retryBackoff: true,
    retryDelayMax: 30,
    expireInSeconds: 4 * 3600,
  });
  await boss.createQueue(JUDGE_BATCH_QUEUE, {
    policy: "stately",
    heartbeatSeconds: 10,
    retryLimit: 1000,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 3600,
  });
  return boss;
}

export function pgBossQueue(boss: PgBoss): JudgeQueue {
  return {
    async enqueue(jobs) {
      for (let i = 0; i < jobs.length; i += 500) {
        await boss.insert(
          JUDGE_QUEUE,
          jobs.slice(i, i + 500).map((job) => ({ data: job, singletonKey: `${job.runId}:${job.videoId}` })),
        );
      }
      // The jobs are saved whether or not the workers hear of them now: a failed wake only means they are taken at
      // a worker's next look, within a second.
      await wakeTakers(boss, JUDGE_QUEUE).catch(() => {});
    },
    startBatchChecks: (runId) => scheduleBatchCheck(boss, runId, 1),
  };
}

/** The run's next batch check, in `seconds`; none is added while one is already waiting. */
export async function scheduleBatchCheck(boss: PgBoss, runId: string, seconds: number): Promise<void> {
  await boss.send(JUDGE_BATCH_QUEUE, { runId }, { singletonKey: runId, startAfter: seconds });
}

/** The run's video jobs that are queued, waiting for a retry or being judged. */
export async function videoJobsInFlight(boss: PgBoss, runId: string): Promise<number> {
  const jobs = await boss.findJobs(JUDGE_QUEUE, { data: { runId } });
  return jobs.filter((job) => job.state === "created" || job.state === "retry" || job.state === "active").length;
}

/** Takes batch checks: each looks at its run once and schedules the next look until the run needs none. */
export async function startBatchWorker(
  boss: PgBoss,
  deps: Omit<BatchRunnerDeps, "enqueueVideos" | "videoJobsInFlight">,
) {
  const queue = pgBossQueue(boss);
  const runnerDeps: BatchRunnerDeps = {
    ...deps,
    enqueueVideos: (jobs) => queue.enqueue(jobs),
    videoJobsInFlight: (runId) => videoJobsInFlight(boss, runId),
  };
  return boss.work<{ runId: string }>(
    JUDGE_BATCH_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 0.5 },
    async ([job]) => {
      if (!job) return;
      const jobLog = rootLogger().child({ jobId: job.id, runId: job.data.runId, batchCheck: true });
      await withLogger(jobLog, async () => {
        const outcome = await advanceBatchRun({ ...runnerDeps, log: (line) => jobLog.info(line) }, job.data.runId);
        if (outcome === "again") await scheduleBatchCheck(boss, job.data.runId, batchPollSeconds());
      });
    },
  );
}

/**
 * Judges videos from the judge queue, up to `concurrency` at a time (a JobTaker: one fetch for all free
 * slots, heartbeats renewed together). Returns the taker, whose `stop` hands back unfinished jobs.
 */
export function startJudgeWorker(
  boss: PgBoss,
  deps: JudgeDeps,
  options: { concurrency: number },
): JobTaker<{ runId: string; videoId: string }> {
  const logger = rootLogger();
  return new JobTaker<{ runId: string; videoId: string }>(boss, {
    queue: JUDGE_QUEUE,
    capacity: options.concurrency,
    log: queueErrorLogger(),
    handle: async (job) => {
      // Every line logged while judging (the engine's retries and step failures included) names the job: the engine
      // gets the job's log, not an AsyncLocalStorage context, whose use would turn on Node's promise hooks for every
      // promise of the worker (about 4% of its CPU when busy).
      const jobLog = logger.child({ jobId: job.id, runId: job.data.runId, videoId: job.data.videoId });
      const started = performance.now();
      jobLog.debug("judging a video");
      try {
        const outcome = await judgeVideo(deps, job.data, (line) => jobLog.warn(line), job);
        jobLog.info({ outcome, durationMs: Math.round(performance.now() - started) }, "video judged");
      } catch (error) {
        jobLog.error(
          { err: error, durationMs: Math.round(performance.now() - started) },
          "judging the video failed; pg-boss retries the job",
        );
        throw error;
      }
    },
  }).start();
}

/**
 * pg-boss reports every failed poll and heartbeat, and a JobTaker every failed fetch: while PostgreSQL restarts
 * that is several a second. A lost connection is logged once per 30 s as a warning; anything else as an error
 * with its stack, saying what failed.
 */
function queueErrorLogger() {
  let lastConnectionWarning = 0;
  return (error: unknown, what = "pg-boss error") => {
    if (isConnectionLoss(error)) {
      if (Date.now() - lastConnectionWarning < 30_000) return;
      lastConnectionWarning = Date.now();
      rootLogger().warn(
        { error: error instanceof Error ? error.message : String(error) },
        "lost the job queue's database connection; retrying on its own",
      );
      return;
    }
    rootLogger().error({ err: error }, what);
  };
}
