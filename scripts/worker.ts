// `npm run worker`: a worker. Runs judge, alignment, deletion and webhook delivery jobs from pg-boss on the same
// PostgreSQL as the app (one job queue per process: lib/jobs/job-boss.ts, scripts/lib/worker-jobs.ts), and sweeps
// storage garbage (lib/storage/storage-garbage.ts).
// Start as many as you like, on this machine or others (same DATABASE_URL, APP_SECRET and storage:
// STORAGE_URL with its S3_* settings, or STORAGE_DIR on a shared file system).
// Logs are JSON lines on stdout (LOG_LEVEL), one per judged video and per problem.
import { appContext } from "../lib/app-context/app-context";
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";
import { resolveAppSecret } from "../lib/config/secret";
import { resolveDatabase } from "../lib/db/resolve-database";
import { guardedFetch } from "../lib/judge/calls/guarded-fetch";
import { workerJudgeDeps } from "../lib/judge/app-judge";
import { rootLogger } from "../lib/observability/logger";
import { checkStorage } from "../lib/storage/storage";
import { keepAlive } from "./lib/worker-alive";
import { startWorkerJobs } from "./lib/worker-jobs";

// A secret still set to the deployment files' placeholder (CHANGEME) stops the worker first, naming the variable.
refuseToStartWithPlaceholderSecrets("[worker]");
// The composition root: the application context (the task catalogue the judge engine reads, its events' subscribers).
const context = appContext();
// The image's entrypoint names a file for its health check (deploy/docker/healthcheck.mjs): kept fresh from the start,
// before the database is reached, so a worker waiting for PostgreSQL is alive.
if (process.env.WORKER_ALIVE_FILE) keepAlive(process.env.WORKER_ALIVE_FILE);
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
// Judge calls go out on undici from the worker's own thread, through one guarded fetch (lib/judge/calls/guarded-fetch.ts):
// the SSRF check at connect time, no redirects, each call holding a slot of its endpoint's limits shared through PostgreSQL.
// Judge spans, an ensemble's combine and the after-run work hear the engine's events (the composition root lists them).
const judgeDeps = workerJudgeDeps({ send: guardedFetch(), subscribers: context.judgeEventSubscribers });
const jobs = await startWorkerJobs({ connectionString: database.url, concurrency, judgeDeps });
logger.info({ concurrency }, `judging with up to ${concurrency} videos at a time`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  logger.info("stopping: unfinished jobs go back to the queue");
  await jobs.stop();
  await database.stop();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
