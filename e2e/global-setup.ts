import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { S3_STORAGE_VARIABLES } from "../testkit/testing/storage-variables";
import { createTestDatabase, startTestServer } from "../testkit/testing/test-database";
import { buildIsCurrent, markBuildCurrent } from "../lib/build/source-hash";
import { BUILD_NOTICE, nextBin } from "../scripts/lib/ensure-build";

/** The repository, where Playwright runs. */
const ROOT = path.resolve(".");

/** Runs `next build` when .next is missing or older than the sources; exits the process if it fails. */
function ensureBuild(log: (line: string) => void): void {
  if (buildIsCurrent(ROOT)) return;
  log(BUILD_NOTICE);
  const build = spawnSync(process.execPath, [nextBin(), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) {
    console.error("[framejury] the build failed; see above.");
    process.exit(build.status ?? 1);
  }
  markBuildCurrent(ROOT);
}

/**
 * Builds the app if needed, makes a fresh database on a real PostgreSQL server, and serves the
 * production build against it on E2E_PORT. Returns the teardown.
 */
export default async function globalSetup() {
  ensureBuild((line) => console.log(`[e2e] ${line}`));
  const server = await startTestServer();
  const database = await createTestDatabase(server, "e2e");
  const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-e2e-storage-"));
  // The app under test stores in storageDir, never in a bucket the shell's STORAGE_URL names.
  for (const name of S3_STORAGE_VARIABLES) delete process.env[name];
  const port = process.env.E2E_PORT!;
  // Specs that need accounts without clicking through the UI use the admin CLI on this database.
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_STORAGE_DIR = storageDir;
  const app = spawn(process.execPath, [nextBin(), "start", "-p", port], {
    cwd: path.resolve("."),
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      APP_URL: `http://localhost:${port}`,
      STORAGE_DIR: storageDir,
      PORT: port,
      NEXT_TELEMETRY_DISABLED: "1",
      // Specs point judge endpoints at the stub LLM on 127.0.0.1.
      ALLOW_PRIVATE_ENDPOINTS: "1",
      // The JSON log of every request would bury Playwright's report; problems are still logged.
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => app.once("exit", resolve));
  // A judge worker, as `npm start` runs one beside the web server.
  const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: path.resolve("."),
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      STORAGE_DIR: storageDir,
      WORKER_CONCURRENCY: "4",
      BATCH_POLL_SECONDS: "1",
      ALLOW_PRIVATE_ENDPOINTS: "1",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const workerExited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
  const deadline = Date.now() + 60_000;
  while (true) {
    if (app.exitCode !== null) throw new Error(`The app exited (${app.exitCode}) before it answered /api/health.`);
    const ok = await fetch(`http://localhost:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error("The app did not answer /api/health within 60 s.");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return async () => {
    app.kill("SIGTERM");
    worker.kill("SIGTERM");
    await Promise.all([exited, workerExited]);
    await database.drop();
    fs.rmSync(storageDir, { recursive: true, force: true });
    await server.stop();
  };
}
