// `npm run demo`: FrameJury with the stub LLM as its judge endpoint and a demo project of generated
// clips. Every judgment in it is SIMULATED (canned answers from a test tool), and labelled so.
// Any failure (or Ctrl-C) stops everything it started: the app (`npm start`, which stops its web server,
// worker and embedded PostgreSQL) and the stub, and says what failed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { appContext } from "../lib/app-context/app-context";
import { startStubLlm, type StubServer } from "../testkit/llm-stub/stub-server";
import { DEMO_CREDENTIALS, seedDemoProject } from "../testkit/demo/seed-demo-project";
import { Children, Shutdown } from "./lib/children";

// The composition root: the application context (the task catalogue the demo's seeding reads).
appContext();
const log = (line: string) => console.log(`[demo] ${line}`);
const port = process.env.PORT ?? "3000";
process.env.DATA_DIR ??= path.resolve(".data/demo");
// The stub listens on 127.0.0.1: the app and this script's own seeding (which creates endpoints) must allow it.
process.env.ALLOW_PRIVATE_ENDPOINTS = "1";

const children = new Children();
let stub: StubServer | null = null;
let step = "starting the stub LLM";
const shutdown = new Shutdown(
  "[demo]",
  () => step,
  async () => {
    if (children.alive().length) log("stopping the app (web server, worker, PostgreSQL)…");
    // The app stops its own children on SIGTERM; its process group gets a SIGKILL after the grace time.
    await children.stopAll({ graceMs: 30_000, log });
    await stub?.close().catch(() => {});
  },
);

async function main() {
  stub = await startStubLlm({ port: Number(process.env.STUB_LLM_PORT ?? 0), latencyMs: 150 });
  log(`stub LLM (test tool, simulated answers) at ${stub.baseURL}`);

  step = "starting the app";
  // Its own process group, so stopping it reaches everything it started even if it cannot stop them itself.
  const app = children.spawn("the app", process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    group: true,
    stdio: "inherit",
    env: {
      ...process.env,
      PORT: port,
      DATA_DIR: process.env.DATA_DIR,
      // Named by `npm run cli` when it joins this app's database (lib/cli/running-app.ts).
      FRAMEJURY_STARTED_BY: "npm run demo",
      // The stub listens on 127.0.0.1, which judge endpoints may only use with ALLOW_PRIVATE_ENDPOINTS=1.
      ALLOW_PRIVATE_ENDPOINTS: "1",
      // The demo's account is the site admin (made at start-up when the database has no user yet).
      ADMIN_EMAIL: DEMO_CREDENTIALS.email,
      ADMIN_PASSWORD: DEMO_CREDENTIALS.password,
    },
  });
  app.on("exit", (code, signal) => {
    if (!shutdown.stopping)
      void shutdown.run(code || 1, `the app exited (${code ?? signal}) while ${step}; see its output above`);
  });

  step = "waiting for the app (a first start builds it: minutes)";
  const base = `http://localhost:${port}`;
  // No fixed limit: a first build takes minutes, and the app says itself when it fails.
  while (!shutdown.stopping) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (shutdown.stopping) return;

  step = "seeding the demo project";
  let clipsDir: string | null = null;
  try {
    execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
    clipsDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-demo-"));
  } catch {
    log("ffmpeg is not installed: the demo project gets no clips (apt-get install ffmpeg, then run the demo again).");
  }
  const failAfter = process.env.FRAMEJURY_DEMO_FAIL_AFTER_CLIPS;
  const seeded = await seedDemoProject({
    baseUrl: base,
    stubBaseUrl: stub.baseURL,
    clipsDir,
    log,
    failAfterClips: failAfter ? Number(failAfter) : undefined,
  });
  if (clipsDir) fs.rmSync(clipsDir, { recursive: true, force: true });
  step = "running";
  log(`open ${base} and sign in as ${seeded.email} / ${seeded.password}`);
  log(`demo project: ${base}/projects/${seeded.projectId} — all judgments there are simulated`);
  log(`paper's table against the demo label set: ${base}/projects/${seeded.projectId}/calibration`);
  for (const link of seeded.links) log(`${link.label}: ${base}${link.path}${link.note ? ` — ${link.note}` : ""}`);
  log("Ctrl-C stops the demo and everything it started.");
}

main().catch((error: unknown) => shutdown.failWith(error));
