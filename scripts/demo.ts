// `npm run demo`: FrameJury with the stub LLM as its judge endpoint and a demo project of generated
// clips. Every judgment in it is SIMULATED (canned answers from a test tool), and labelled so.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startStubLlm } from "../lib/llm-stub/stub-server";
import { seedDemoProject } from "../lib/demo/seed-demo-project";

const log = (line: string) => console.log(`[demo] ${line}`);
const port = process.env.PORT ?? "3000";
process.env.DATA_DIR ??= path.resolve(".data/demo");
// The stub listens on 127.0.0.1: the app and this script's own seeding (which creates endpoints) must allow it.
process.env.ALLOW_PRIVATE_ENDPOINTS = "1";

const stub = await startStubLlm({ port: Number(process.env.STUB_LLM_PORT ?? 0), latencyMs: 150 });
log(`stub LLM (test tool, simulated answers) at ${stub.baseURL}`);

const app = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
  stdio: "inherit",
  // The stub listens on 127.0.0.1, which judge endpoints may only use with ALLOW_PRIVATE_ENDPOINTS=1.
  env: { ...process.env, PORT: port, DATA_DIR: process.env.DATA_DIR, ALLOW_PRIVATE_ENDPOINTS: "1" },
});
const stop = () => {
  app.kill("SIGTERM");
  void stub.close();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
app.on("exit", (code) => {
  void stub.close().then(() => process.exit(code ?? 0));
});

const base = `http://localhost:${port}`;
for (let i = 0; ; i++) {
  const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
  if (ok) break;
  if (i > 600) throw new Error("The app did not come up within 5 minutes.");
  await new Promise((r) => setTimeout(r, 500));
}

let clipsDir: string | null = null;
try {
  execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
  clipsDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-demo-"));
} catch {
  log("ffmpeg is not installed: the demo project gets no clips (apt-get install ffmpeg, then run the demo again).");
}
const seeded = await seedDemoProject({ baseUrl: base, stubBaseUrl: stub.baseURL, clipsDir, log });
log(`open ${base} and sign in as ${seeded.email} / ${seeded.password}`);
log(`demo project: ${base}/projects/${seeded.projectId} — all judgments there are simulated`);
if (seeded.constructionProjectId) log(`demo Q&A construction: ${base}/projects/${seeded.constructionProjectId}/construction — simulated step annotations`);
