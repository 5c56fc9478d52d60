/**
 * What a worker process runs (scripts/worker.ts), on the process's one job queue (lib/jobs/job-boss.ts): judging,
 * batch checks, alignments, frame times, deletions with their storage sweeps, webhook deliveries, and the span agreement
 * keeper. Returns the stop that hands back unfinished jobs and stops the queue.
 */
import { startAlignmentWorker } from "../../lib/alignment/alignment-queue";
import { prisma } from "../../lib/db/prisma";
import { startDeletionWorker } from "../../lib/deletions/deletion-queues";
import { startJobs, stopJobs, queueOn } from "../../lib/jobs/job-boss";
import { workerBatchDeps } from "../../lib/judge/app-judge";
import type { JudgeDeps } from "../../lib/judge/engine/judge-video";
import { JUDGE_QUEUES, startBatchWorker, startJudgeWorker } from "../../lib/judge/workers/queue";
import { PAIRWISE_QUEUES, startPairwiseWorker } from "../../lib/pairwise/judge/pairwise-queue";
import { log } from "../../lib/observability/logger";
import { startFrameTimesWorker } from "../../lib/videos/frame-times-jobs";
import { startSpanAgreementKeeper } from "../../lib/spans/agreement/span-agreement-keeper";
import { catalogFor } from "../../lib/task-modules/task-catalogue";
import { getStorage } from "../../lib/storage/storage";
import { startWebhookDelivery } from "../../lib/webhooks/deliver";
import { resendPendingDeliveries } from "../../lib/webhooks/webhook-queue";

/**
 * How long a stopping worker lets the videos it judges finish the calls they have sent (ms): their answers land and
 * are stored, so no call is paid for twice; a video still judged then goes back to the queue.
 */
export const JUDGING_STOP_WAIT_MS = 25_000;
/** How long a stopping worker then gives its queue (webhook deliveries, alignments, deletions) to hand back (ms). */
export const QUEUE_STOP_WAIT_MS = 5_000;

export async function startWorkerJobs(options: {
  connectionString: string;
  concurrency: number;
  /** What judging runs with (lib/judge/app-judge.ts's workerJudgeDeps, on the call path the worker chose). */
  judgeDeps: JudgeDeps;
}): Promise<{ stop(): Promise<void> }> {
  const boss = await queueOn(
    await startJobs({ connectionString: options.connectionString, supervise: true }),
    ...JUDGE_QUEUES,
    ...PAIRWISE_QUEUES,
  );
  await startBatchWorker(boss, workerBatchDeps());
  const judging = startJudgeWorker(boss, options.judgeDeps, { concurrency: options.concurrency });
  // Pairwise runs (lib/pairwise/judge): one job per pair, on the same engine dependencies and endpoint limits.
  const judgingPairs = startPairwiseWorker(boss, options.judgeDeps, { concurrency: options.concurrency });
  await startAlignmentWorker(boss);
  // Frame times (lib/videos/frame-times-jobs.ts): each registered video's, read from its file once, never in a request.
  await startFrameTimesWorker(boss, { prisma, storage: getStorage, log: (line) => log().warn(line) });
  const stopSweeps = await startDeletionWorker(boss);
  // Span agreement reports (lib/spans/agreement/span-agreement-keeper.ts): the pages' scopes stored ahead of requests.
  const stopKeeper = await startSpanAgreementKeeper(boss, {
    prisma,
    busy: () => judging.jobsInHand + judgingPairs.jobsInHand > 0,
    catalogueOf: (projectId) => catalogFor(prisma, projectId),
    log: (outcomes) => log().info({ outcomes }, "span agreement reports kept"),
  });
  // Webhook deliveries (lib/webhooks): every worker takes due attempts; each is one job, taken by one worker.
  const stopWebhooks = await startWebhookDelivery({ prisma, boss });
  await resendPendingDeliveries(prisma, boss);
  return {
    async stop() {
      stopSweeps();
      stopKeeper();
      // Videos still being judged after the wait are failed, so another worker takes them now (their finished steps
      // are kept).
      await Promise.all([
        judging.stop(JUDGING_STOP_WAIT_MS).catch(() => {}),
        judgingPairs.stop(JUDGING_STOP_WAIT_MS).catch(() => {}),
        stopWebhooks().catch(() => {}),
      ]);
      await stopJobs({ timeoutMs: QUEUE_STOP_WAIT_MS }).catch(() => {});
    },
  };
}
