// `npm run worker`: a judge worker. Runs judge jobs from pg-boss on the same PostgreSQL as the app.
// Start as many as you like, on this machine or others (same DATABASE_URL, APP_SECRET, storage).
// Logs are JSON lines on stdout (LOG_LEVEL), one per judged video and per problem.
import { resolveAppSecret } from "../lib/config/secret";
import { resolveDatabase } from "../lib/db/resolve-database";
import { workerJudgeDeps } from "../lib/judge/app-judge";
import { startBoss, startJudgeWorker } from "../lib/judge/queue";
import { rootLogger } from "../lib/observability/logger";

const logger = rootLogger().child({ role: "worker" });
const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 16);

process.env.APP_SECRET = resolveAppSecret();
const database = await resolveDatabase((line) => logger.info(line));
process.env.DATABASE_URL = database.url;
const boss = await startBoss(database.url, { supervise: true });
await startJudgeWorker(boss, workerJudgeDeps(), { concurrency });
logger.info({ concurrency }, `judging with up to ${concurrency} videos at a time`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  logger.info("stopping: unfinished jobs go back to the queue");
  await boss.stop({ graceful: true, timeout: 10_000 }).catch(() => {});
  await database.stop();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
