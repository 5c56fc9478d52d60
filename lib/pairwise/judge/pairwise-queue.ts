/**
 * Where a pairwise run's work goes: one job per (run, pair) on the pg-boss queue "judge-pair", retried after a failure
 * with a growing delay as video jobs are (lib/judge/workers/queue.ts); a retried job asks only the orders not answered.
 */
import type { PgBoss } from "pg-boss";
import { jobBoss, queueErrorLogger, type QueueDefinition } from "../../jobs/job-boss";
import { rootLogger } from "../../observability/logger";
import type { JudgeDeps } from "../../judge/engine/judge-deps";
import { enqueueTakenJobs, JobTaker, TAKEN_JOB_OPTIONS } from "../../judge/workers/job-taker";
import { judgePair, type PairJob } from "./judge-pair";

export const PAIRWISE_QUEUE = "judge-pair";

export const PAIRWISE_QUEUES: QueueDefinition[] = [{ name: PAIRWISE_QUEUE, options: TAKEN_JOB_OPTIONS }];

export interface PairwiseQueue {
  enqueue(jobs: PairJob[]): Promise<void>;
}

export function pgBossPairwiseQueue(boss: PgBoss): PairwiseQueue {
  return {
    enqueue: (jobs) => enqueueTakenJobs(boss, PAIRWISE_QUEUES[0]!, jobs, (job) => `${job.runId}:${job.pairId}`),
  };
}

/** Judges pairs from the queue, up to `concurrency` at a time; returns the taker, whose `stop` hands back unfinished jobs. */
export function startPairwiseWorker(
  boss: PgBoss,
  deps: JudgeDeps,
  options: { concurrency: number },
): JobTaker<PairJob> {
  const logger = rootLogger();
  return new JobTaker<PairJob>(boss, {
    queue: PAIRWISE_QUEUE,
    capacity: options.concurrency,
    log: queueErrorLogger(),
    handle: async (job) => {
      const jobLog = logger.child({ jobId: job.id, runId: job.data.runId, pairId: job.data.pairId });
      try {
        const outcome = await judgePair({ ...deps, log: (line) => jobLog.warn(line) }, job.data, () => job.ready());
        jobLog.info({ outcome }, "pair judged");
      } catch (error) {
        jobLog.error({ err: error }, "judging the pair failed; pg-boss retries the job");
        throw error;
      }
    },
  }).start();
}

/** The process's queue (lib/jobs/job-boss.ts): how the API starts and resumes pairwise runs. */
export function appPairwiseQueue(): PairwiseQueue {
  return {
    async enqueue(jobs) {
      await pgBossPairwiseQueue(await jobBoss()).enqueue(jobs);
    },
  };
}
