// `npm start`: build when the build is missing or stale, start (or join) the database, apply
// migrations, then serve the app on PORT. Stops everything it started on Ctrl-C / SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { ensureBuild, nextBin } from "./lib/ensure-build";
import { resolveAppSecret } from "../lib/config/secret";
import { resolveDatabase } from "../lib/db/resolve-database";
import { seedAdminFromEnv } from "../lib/auth/seed-admin";
import { createPrismaClient } from "../lib/db/prisma";
import { checkStorage, getStorage } from "../lib/storage/storage";
import { sweepStaleUploads } from "../lib/videos/sweep-stale-uploads";
import { WEB_PROCESS_V8_FLAGS } from "../lib/ops/web-process-flags";

const port = process.env.PORT ?? "3000";
const log = (line: string) => console.log(`[framejury] ${line}`);

// A wrong storage setting stops start-up here, before a build or a database is started for nothing.
const storage = await checkStorage().catch((error: unknown) => {
  console.error(`[framejury] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
log(`storage: ${storage}`);

ensureBuild(log);

const secret = resolveAppSecret();
log(process.env.DATABASE_URL ? "using DATABASE_URL" : "starting the embedded PostgreSQL server (DATABASE_URL is unset)…");
const database = await resolveDatabase(log);
log(`database ready${database.embedded ? ` (embedded, cluster in ${database.clusterDir})` : ""}; migrations applied`);
await seedAdminFromEnv(database.url, log);
await sweepLeftovers();

/** Files of uploads that crashed or were dropped more than a day ago; never those of open uploads. */
async function sweepLeftovers() {
  const prisma = createPrismaClient(database.url);
  try {
    const removed = await sweepStaleUploads({ prisma, storage: getStorage() });
    if (removed.length) log(`removed ${removed.length} stale upload file(s) from storage`);
  } catch (error) {
    log(`could not sweep stale upload files: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await prisma.$disconnect();
  }
}

const children: ChildProcess[] = [];
const env = { ...process.env, DATABASE_URL: database.url, APP_SECRET: secret, PORT: port, NEXT_TELEMETRY_DISABLED: "1" };
// V8 flags that keep streamed exports' memory flat (lib/ops/web-process-flags.ts).
const web = spawn(process.execPath, [...WEB_PROCESS_V8_FLAGS, nextBin(), "start", "-p", port], { stdio: "inherit", env });
children.push(web);
// One judge worker beside the web server; WORKERS=0 leaves judging to workers started elsewhere.
const workers = Number(process.env.WORKERS ?? 1);
for (let i = 0; i < workers; i++) {
  children.push(spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], { stdio: "inherit", env }));
}

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.once("exit", r)) : null)));
  await database.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
web.on("exit", (code) => {
  if (!stopping) {
    console.error(`[framejury] the web server exited (${code}); stopping.`);
    void shutdown(code ?? 1);
  }
});
log(`FrameJury is starting on http://localhost:${port}`);
