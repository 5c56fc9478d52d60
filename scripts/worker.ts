// `npm run worker`: a worker. Runs judge, alignment and deletion jobs from pg-boss on the same PostgreSQL as
// the app, and sweeps storage garbage (lib/storage/storage-garbage.ts).
// Start as many as you like, on this machine or others (same DATABASE_URL, APP_SECRET and storage:
// STORAGE_URL with its S3_* settings, or STORAGE_DIR on a shared file system).
// Logs are JSON lines on stdout (LOG_LEVEL), one per judged video and per problem.
// The task registry first: it installs the task modules the core reads (lib/task-modules/installed-task-modules.ts).
import "../lib/tasks/modules";
import { startAlignmentWorker } from "../lib/alignment/alignment-queue";
import { resolveAppSecret } from "../lib/config/secret";
import { resolveDatabase } from "../lib/db/resolve-database";
import { workerBatchDeps, workerJudgeDeps } from "../lib/judge/app-judge";
import { CallThread } from "../lib/judge/call-thread";
import { startBatchWorker, startBoss, startJudgeWorker } from "../lib/judge/queue";
import { rootLogger } from "../lib/observability/logger";
import { startDeletionWorker } from "../lib/deletions/deletion-queues";
import { checkStorage } from "../lib/storage/storage";
import { prisma } from "../lib/db/prisma";
import { startWebhookDelivery } from "../lib/webhooks/deliver";

const logger = rootLogger().child({ role: "worker" });
const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 16);

// Judging reads every frame from storage: a wrong setting stops the worker now, not its first job.
const storage = await checkStorage().catch((error: unknown) => {
  logger.fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
logger.info(`storage: ${storage}`);
process.env.APP_SECRET = resolveAppSecret();
const database = await resolveDatabase((line) => logger.info(line));
process.env.DATABASE_URL = database.url;
const boss = await startBoss(database.url, { supervise: true });
await startBatchWorker(boss, workerBatchDeps());
// Judge calls go out from a thread of their own (lib/judge/call-thread.ts).
const callThread = new CallThread((line) => logger.warn(line));
const judging = startJudgeWorker(boss, workerJudgeDeps({ callThread }), { concurrency });
await startAlignmentWorker(boss);
const stopSweeps = await startDeletionWorker(boss);
logger.info({ concurrency }, `judging with up to ${concurrency} videos at a time`);
// Webhook deliveries (lib/webhooks): every worker takes due ones; a delivery row is taken by one at a time.
const stopWebhooks = startWebhookDelivery({ prisma });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  stopSweeps();
  logger.info("stopping: unfinished jobs go back to the queue");
  // Videos still being judged after 10 s are failed, so another worker takes them now (their finished steps are kept).
  await Promise.all([
    judging
      .stop(10_000)
      .then(() => boss.stop({ graceful: true, timeout: 10_000 }))
      .catch(() => {}),
    stopWebhooks(),
  ]);
  await database.stop();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
