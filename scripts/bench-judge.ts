// `npm run bench:judge`: 200 videos × the full hallucination pipeline against the stub LLM with a fixed
// 300 ms latency, endpoint concurrency 16, through pg-boss and a worker, on a fresh database.
// Prints achieved calls/s against the limit 16/0.3 and the calls an identical second run makes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { videos: { type: "string", default: "200" }, "key-frames": { type: "string", default: "3" }, latency: { type: "string", default: "300" }, concurrency: { type: "string", default: "16" } } });
const VIDEOS = Number(values.videos);
const KEY_FRAMES = Number(values["key-frames"]);
const LATENCY_MS = Number(values.latency);
const CONCURRENCY = Number(values.concurrency);

process.env.STORAGE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "framejury-bench-judge-"));
process.env.APP_SECRET ??= "bench-secret-bench-secret-bench-secret-000";
// The stub LLM listens on 127.0.0.1, which judge endpoints may only use with this flag.
process.env.ALLOW_PRIVATE_ENDPOINTS = "1";

const { createTestDatabase, startTestServer } = await import("../lib/testing/test-database");
const server = await startTestServer();
const database = await createTestDatabase(server, "bench");
process.env.DATABASE_URL = database.url;

const { prisma } = await import("../lib/db/prisma");
const { startStubLlm } = await import("../lib/llm-stub/stub-server");
const { createUser } = await import("../lib/auth/users");
const { projectWithFramedVideos } = await import("../lib/testing/judge-fixtures");
const { createEndpoint } = await import("../lib/judge/endpoints");
const { createRun } = await import("../lib/judge/runs");
const { PIPELINES } = await import("../lib/judge/pipelines");
const { pgBossQueue, startBoss, startJudgeWorker } = await import("../lib/judge/queue");
const { workerJudgeDeps } = await import("../lib/judge/app-judge");

const stub = await startStubLlm({ latencyMs: LATENCY_MS });
const user = await createUser(prisma, { email: "bench@example.test", password: "bench-password" });
const owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
console.log(`seeding ${VIDEOS} videos with ${KEY_FRAMES} key frames each…`);
const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: VIDEOS, keyFrames: KEY_FRAMES, name: "bench" });
const endpoint = await createEndpoint(prisma, owner, projectId, {
  name: "stub", baseUrl: stub.baseURL, model: "stub-vision", apiKey: null, imageDetail: "low", temperature: 0,
  maxConcurrency: CONCURRENCY, requestsPerMinute: null, timeoutSeconds: 60, structuredOutput: true, pricePer1kInput: null, pricePer1kOutput: null,
});
const boss = await startBoss(database.url, { supervise: true });
await startJudgeWorker(boss, workerJudgeDeps(), { concurrency: CONCURRENCY * 2 });

async function timedRun() {
  const before = stub.requests.length;
  const started = performance.now();
  const run = await createRun({ prisma, queue: pgBossQueue(boss), pipelines: PIPELINES }, owner, projectId, { pipeline: "hallucination", endpointId: endpoint.id });
  while ((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status !== "done") await new Promise((r) => setTimeout(r, 100));
  const seconds = (performance.now() - started) / 1000;
  const steps = await prisma.stepResult.groupBy({ by: ["status"], where: { runId: run.id }, _count: { _all: true } });
  return { seconds, calls: stub.requests.length - before, steps: Object.fromEntries(steps.map((s) => [s.status, s._count._all])) };
}

const first = await timedRun();
const limit = CONCURRENCY / (LATENCY_MS / 1000);
const achieved = first.calls / first.seconds;
const second = await timedRun();
console.log(`
judge benchmark: ${VIDEOS} videos × ${KEY_FRAMES} key frames, stub latency ${LATENCY_MS} ms, endpoint concurrency ${CONCURRENCY}
first run:  ${first.calls} calls in ${first.seconds.toFixed(1)} s, steps ${JSON.stringify(first.steps)}
achieved:   ${achieved.toFixed(2)} calls/s
limit:      ${limit.toFixed(2)} calls/s (${CONCURRENCY}/${LATENCY_MS / 1000})
ratio:      ${(achieved / limit).toFixed(3)} (target ≥ 0.9)
second run: ${second.calls} calls (target 0) in ${second.seconds.toFixed(1)} s, steps ${JSON.stringify(second.steps)}`);

await boss.stop({ graceful: false });
await stub.close();
await prisma.$disconnect();
await database.drop();
await server.stop();
fs.rmSync(process.env.STORAGE_DIR, { recursive: true, force: true });
process.exit(0);
