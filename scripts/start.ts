// `npm start`: build when the build is missing or stale, start (or join) the database, apply
// migrations, then serve the app on PORT. Stops everything it started on Ctrl-C / SIGTERM, and on any
// failure (it says which step failed): the build, the web server, the workers and the embedded PostgreSQL. A judge
// worker that exits is restarted with backoff; only one that keeps exiting stops everything.
import { buildIfNeeded, nextBin } from "./lib/ensure-build";
import { Children, describeError, Shutdown } from "./lib/children";
import { restartPolicyFromEnv, supervise } from "./lib/supervisor";
import { resolveAppSecret } from "../lib/config/secret";
import { resolveDatabase, type ResolvedDatabase } from "../lib/db/resolve-database";
import { seedAdminFromEnv } from "../lib/auth/seed-admin";
import { hasAnyUser } from "../lib/auth/users";
import { createPrismaClient } from "../lib/db/prisma";
import { readSystemIdentifier, SYSTEM_IDENTIFIER_VARIABLE } from "../lib/db/cluster-identity";
import { checkStorage, getStorage } from "../lib/storage/storage";
import { ssoButtons, ssoConfig } from "../lib/auth/sso";
import { sweepStaleUploads } from "../lib/videos/sweep-stale-uploads";
import { WEB_PROCESS_V8_FLAGS } from "../lib/config/web-process-flags";
import { WORKER_PROCESS_V8_FLAGS } from "../lib/ops/worker-process-flags";
import { clearRunningApp, recordRunningApp } from "../lib/cli/running-app";
import { dataDir } from "../lib/config/paths";
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";
import { readyLine } from "./lib/ready-line";

const port = process.env.PORT ?? "3000";
const log = (line: string) => console.log(`[framejury] ${line}`);
const children = new Children();
let database: ResolvedDatabase | null = null;
/** What start-up is doing, for the message when it fails. */
let step = "checking the storage settings";
const shutdown = new Shutdown(
  "[framejury]",
  () => step,
  async () => {
    const running = children.alive();
    if (running.length) log(`stopping ${running.join(", ")}…`);
    await children.stopAll({ log });
    clearRunningApp();
    if (database?.embedded) log("stopping the embedded PostgreSQL server…");
    await database
      ?.stop()
      .catch((error: unknown) => console.error(`[framejury] could not stop PostgreSQL: ${describeError(error)}`));
  },
);

async function main() {
  // A secret still set to the deployment files' placeholder (CHANGEME) stops start-up first, naming the variable.
  refuseToStartWithPlaceholderSecrets("[framejury]");
  // A wrong storage setting stops start-up here, before a build or a database is started for nothing.
  log(`storage: ${await checkStorage()}`);
  // So does a malformed WORKER_RESTART_* setting.
  const restartPolicy = restartPolicyFromEnv();
  // So does a wrong single sign-on setting (it names the variable).
  const sso = ssoButtons(ssoConfig());
  if (sso.length) log(`single sign-on: ${sso.map((b) => b.providerId).join(", ")}`);

  step = "building the app";
  await buildIfNeeded(children, log);

  step = "starting the database";
  const secret = resolveAppSecret();
  log(
    process.env.DATABASE_URL
      ? "using DATABASE_URL"
      : "starting the embedded PostgreSQL server (DATABASE_URL is unset)…",
  );
  database = await resolveDatabase(log);
  log(`database ready${database.embedded ? ` (embedded, cluster in ${database.clusterDir})` : ""}; migrations applied`);
  if (shutdown.stopping) return;
  // So `npm run cli` joins this database whichever command started the app (lib/cli/running-app.ts).
  recordRunningApp({
    pid: process.pid,
    startedBy: process.env.FRAMEJURY_STARTED_BY ?? "npm start",
    dataDir: database.embedded ? dataDir() : null,
  });
  step = "creating the admin from ADMIN_EMAIL";
  await seedAdminFromEnv(database.url, log);
  step = "sweeping stale uploads";
  await sweepLeftovers(database.url);

  step = "starting the web server";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    APP_SECRET: secret,
    PORT: port,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // Every process it starts (and restarts) refuses another cluster on this address from its first connection on.
  const systemIdentifier = await readSystemIdentifier(database.url);
  if (systemIdentifier) env[SYSTEM_IDENTIFIER_VARIABLE] = systemIdentifier;
  else delete env[SYSTEM_IDENTIFIER_VARIABLE];
  // V8 flags that keep streamed exports' memory flat (lib/config/web-process-flags.ts).
  const web = children.spawn(
    "the web server",
    process.execPath,
    [...WEB_PROCESS_V8_FLAGS, nextBin(), "start", "-p", port],
    { stdio: "inherit", env },
  );
  web.on("exit", (code, signal) => {
    if (!shutdown.stopping)
      void shutdown.run(code || 1, `the web server exited (${code ?? signal}); see its output above`);
  });
  // One judge worker beside the web server; WORKERS=0 leaves judging to workers started elsewhere. A worker that
  // exits is started again with backoff (scripts/lib/supervisor.ts); one that keeps exiting stops everything.
  const workers = Number(process.env.WORKERS ?? 1);
  for (let i = 0; i < workers; i++) {
    const name = workers === 1 ? "the judge worker" : `judge worker ${i + 1}`;
    supervise(name, {
      start: () =>
        children.spawn(name, process.execPath, [...WORKER_PROCESS_V8_FLAGS, "--import", "tsx", "scripts/worker.ts"], {
          stdio: "inherit",
          env,
        }),
      policy: restartPolicy,
      log,
      stopping: () => shutdown.stopping,
      giveUp: (failure) => void shutdown.run(1, failure),
    });
  }
  log(`FrameJury is starting on http://localhost:${port}…`);

  step = "waiting for the web server to answer";
  await waitForHealth(`http://localhost:${port}`);
  if (shutdown.stopping) return;
  const address = process.env.APP_URL ?? `http://localhost:${port}`;
  const prisma = createPrismaClient(database.url);
  const anyUser = await hasAnyUser(prisma).finally(() => prisma.$disconnect());
  log(readyLine({ address, anyUser, startedBy: process.env.FRAMEJURY_STARTED_BY ?? "npm start" }));
  step = "running";
}

/** Files of uploads that crashed or were dropped more than a day ago; never those of open uploads. */
async function sweepLeftovers(url: string) {
  const prisma = createPrismaClient(url);
  try {
    const removed = await sweepStaleUploads({ prisma, storage: getStorage() });
    if (removed.length) log(`removed ${removed.length} stale upload file(s) from storage`);
  } catch (error) {
    log(`could not sweep stale upload files: ${describeError(error)}`);
  } finally {
    await prisma.$disconnect();
  }
}

async function waitForHealth(base: string) {
  const deadline = Date.now() + 5 * 60_000;
  while (!shutdown.stopping) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${base}/api/health did not answer within 5 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

main().catch((error: unknown) => shutdown.failWith(error));
