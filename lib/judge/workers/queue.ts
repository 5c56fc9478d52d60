import type { PgBoss } from "pg-boss";
import { createBoss, queueErrorLogger, queueOn, type QueueDefinition } from "../../jobs/job-boss";
import { rootLogger, withLogger } from "../../observability/logger";
import type { JudgeDeps } from "../engine/judge-video";
import { judgeVideo } from "../engine/judge-video";
import { advanceBatchRun, type BatchRunnerDeps } from "../batch/batch-runner";
import type { JudgeQueue } from "./judge-queue";
import { enqueueTakenJobs, JobTaker, TAKEN_JOB_OPTIONS } from "./job-taker";

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

/** The judge's queues: video jobs (one per run and video, retried after a failure with a growing delay) and batch checks. */
export const JUDGE_QUEUES: QueueDefinition[] = [
  { name: JUDGE_QUEUE, options: TAKEN_JOB_OPTIONS },
  {
    name: JUDGE_BATCH_QUEUE,
    options: {
      policy: "stately",
      heartbeatSeconds: 10,
      retryLimit: 1000,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 3600,
    },
  },
];

/**
 * A pg-boss of its own on a database, with the judge queues made: for tests and tools that run workers on a
 * database of their own (the app's processes use the process's instance, lib/jobs/job-boss.ts). A worker that dies
 * stops sending heartbeats; the job then goes back to the queue and another worker resumes it (finished steps are
 * kept, see judgeVideo).
 */
export async function startBoss(connectionString: string, options: { supervise: boolean }): Promise<PgBoss> {
  return queueOn(await createBoss(connectionString, options), ...JUDGE_QUEUES);
}

export function pgBossQueue(boss: PgBoss): JudgeQueue {
  return {
    enqueue: (jobs) => enqueueTakenJobs(boss, JUDGE_QUEUES[0]!, jobs, (job) => `${job.runId}:${job.videoId}`),
    startBatchChecks: (runId) => scheduleBatchCheck(boss, runId, 1),
  };
}

/** The run's next batch check, in `seconds`; none is added while one is already waiting. */
export async function scheduleBatchCheck(boss: PgBoss, runId: string, seconds: number): Promise<void> {
  await (
    await queueOn(boss, ...JUDGE_QUEUES)
  ).send(JUDGE_BATCH_QUEUE, { runId }, { singletonKey: runId, startAfter: seconds });
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
  await queueOn(boss, ...JUDGE_QUEUES);
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
 * slots, heartbeats renewed together). Returns the taker, whose `stop` hands back unfinished jobs. The queue is
 * made first (`queueOn(boss, ...JUDGE_QUEUES)`, as `startBoss` and the worker do).
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
        // Told to start no new work (the worker is stopping, or the job went to another attempt): the steps it did not
        // start are the job's next attempt's.
        if (outcome === "superseded") return "unfinished";
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
