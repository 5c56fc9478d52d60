// `npm run bench:qa`: a QA run over 5,000 questions (500 videos × 10, four in five multiple choice) against
// the stub LLM with a fixed 300 ms latency, endpoint concurrency 16 (the endpoint answers and judges), through
// pg-boss and a worker, on a fresh database. Prints achieved calls/s against the limit 16/0.3, the calls an
// identical second run makes, and the machine's load. Options: --questions N --per-video N --latency MS
// --concurrency N --limiter shared|process (endpoint limits shared through PostgreSQL, as workers run, or
// kept in the process only, to measure what sharing them costs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { projectAccess } from "@/lib/authz/permissions";

const { values } = parseArgs({
  options: {
    questions: { type: "string", default: "5000" },
    "per-video": { type: "string", default: "10" },
    latency: { type: "string", default: "300" },
    concurrency: { type: "string", default: "16" },
    limiter: { type: "string", default: "shared" },
  },
});
if (values.limiter !== "shared" && values.limiter !== "process")
  throw new Error(`--limiter is "shared" or "process", not ${values.limiter}`);
const QUESTIONS = Number(values.questions);
const PER_VIDEO = Number(values["per-video"]);
const VIDEOS = Math.ceil(QUESTIONS / PER_VIDEO);
const LATENCY_MS = Number(values.latency);
const CONCURRENCY = Number(values.concurrency);

// The worker's JSON log: only problems, so the numbers stay readable (LOG_LEVEL=info shows every judged video).
process.env.LOG_LEVEL ??= "warn";
process.env.STORAGE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "framejury-bench-qa-"));
process.env.APP_SECRET ??= "bench-secret-bench-secret-bench-secret-000";
// The stub LLM listens on 127.0.0.1, which judge endpoints may only use with this flag.
process.env.ALLOW_PRIVATE_ENDPOINTS = "1";

const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
const server = await startTestServer();
const database = await createTestDatabase(server, "bench");
process.env.DATABASE_URL = database.url;

// The composition root first: the application context (the task catalogue the core reads) before anything reads it.
(await import("../lib/app-context/app-context")).appContext();
const { prisma } = await import("../lib/db/prisma");
const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
const { createUser } = await import("../lib/auth/users");
const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
const { fixtureVideoName } = await import("../testkit/testing/item-files");
const { importQuestionSet } = await import("../lib/tasks/qa/question-set-import");
const { createEndpoint } = await import("../lib/judge/endpoints/endpoints");
const { createRun } = await import("../lib/judge/runs/runs");
const { pgBossQueue, startBoss, startJudgeWorker } = await import("../lib/judge/workers/queue");
// As `npm run worker` judges (scripts/lib/bench-judge-deps.ts).
const { benchJudgeDeps } = await import("./lib/bench-judge-deps");

const stub = await startStubLlm({ latencyMs: LATENCY_MS });
const user = await createUser(prisma, { email: "bench@example.test", password: "bench-password" });
const owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
console.log(`seeding ${VIDEOS} videos with 8 uniform frames each and ${QUESTIONS} questions…`);
const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
  videoCount: VIDEOS,
  keyFrames: 1,
  uniformFrames: 8,
  name: "bench",
});
// 128×96 videos: their 64×48 uniform frames are a quarter of the area, as a QA run plans by default.
await prisma.video.updateMany({ where: { id: { in: videoIds } }, data: { width: 128, height: 96 } });
const CATEGORIES = [
  "Step Sequencing",
  "Specific Step Recognition",
  "Past Step Recall",
  "Future Step Prediction",
  "Object Attribute Recognition",
];
const lines: string[] = [];
for (let i = 0; i < QUESTIONS; i++) {
  const video = fixtureVideoName(Math.floor(i / PER_VIDEO));
  const common = {
    id: `q${i}`,
    video,
    category: CATEGORIES[i % CATEGORIES.length],
    granularity: i % 2 ? "fine" : "coarse",
  };
  lines.push(
    JSON.stringify(
      i % 5 === 4
        ? {
            ...common,
            question: `What does the ball do on ramp ${i}?`,
            format: "open",
            answer: `The ball rolls down ramp ${i}.`,
          }
        : {
            ...common,
            question: `Where does ball ${i} roll?`,
            format: "mc",
            options: {
              A: `Ball ${i} rolls down the ramp.`,
              B: "It flies away.",
              C: "It melts.",
              D: "It stays still.",
              E: "It bounces.",
            },
            answer: "A",
          },
    ),
  );
}
const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
  fileName: "bench-questions.jsonl",
  bytes: new TextEncoder().encode(`${lines.join("\n")}\n`),
});
const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
  name: "stub",
  baseUrl: stub.baseURL,
  model: "stub-vision",
  apiKey: null,
  imageDetail: "low",
  temperature: 0,
  maxConcurrency: CONCURRENCY,
  requestsPerMinute: null,
  timeoutSeconds: 60,
  structuredOutput: true,
  pricePer1kInput: null,
  pricePer1kOutput: null,
});
const boss = await startBoss(database.url, { supervise: true });
const judgeDeps = benchJudgeDeps(values.limiter);
const judging = startJudgeWorker(boss, judgeDeps, { concurrency: CONCURRENCY * 2 });

async function timedRun() {
  const before = stub.requests.length;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const run = await createRun(
    { prisma, queue: pgBossQueue(boss) },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "qa",
      endpointId: endpoint.id,
      itemSetId: set.set.id!,
    },
  );
  while ((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status !== "done")
    await new Promise((r) => setTimeout(r, 200));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const steps = await prisma.stepResult.groupBy({ by: ["status"], where: { runId: run.id }, _count: { _all: true } });
  const correct = await prisma.runMetric.count({ where: { runId: run.id, metric: "correct", value: 1 } });
  // Steps that did not finish, by their error: a benchmark that hides them would measure the wrong thing.
  const failures = await prisma.stepResult.groupBy({
    by: ["stepId", "status", "error"],
    where: { runId: run.id, status: { notIn: ["done"] } },
    _count: { _all: true },
  });
  for (const f of failures) console.log(`  ${f._count._all} × ${f.stepId} ${f.status}: ${f.error}`);
  return {
    seconds,
    calls: stub.requests.length - before,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    load: os.loadavg(),
    correct,
    steps: Object.fromEntries(steps.map((s) => [s.status, s._count._all])),
  };
}

const loadBefore = os.loadavg();
const first = await timedRun();
const limit = CONCURRENCY / (LATENCY_MS / 1000);
const achieved = first.calls / first.seconds;
const second = await timedRun();
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
console.log(`
QA benchmark: ${QUESTIONS} questions over ${VIDEOS} videos (8 frames each), stub latency ${LATENCY_MS} ms, endpoint concurrency ${CONCURRENCY}, endpoint limits ${values.limiter === "shared" ? "shared through PostgreSQL" : "kept in the worker process"}
first run:  ${first.calls} calls in ${first.seconds.toFixed(1)} s, ${first.correct} correct, steps ${JSON.stringify(first.steps)}
achieved:   ${achieved.toFixed(2)} calls/s
limit:      ${limit.toFixed(2)} calls/s (${CONCURRENCY}/${LATENCY_MS / 1000})
ratio:      ${(achieved / limit).toFixed(3)} (target ≥ 0.9)
second run: ${second.calls} calls (target 0) in ${second.seconds.toFixed(1)} s, steps ${JSON.stringify(second.steps)}
machine:    ${os.cpus().length} cores; load average (1/5/15 min) ${load(loadBefore)} before, ${load(first.load)} after the first run, ${load(second.load)} after the second
this process: ${first.cpuSeconds.toFixed(1)} s CPU in the first run (${((100 * first.cpuSeconds) / first.seconds).toFixed(0)}% of one core), ${second.cpuSeconds.toFixed(1)} s in the second`);

await judging.stop(0);
await boss.stop({ graceful: false });
await stub.close();
await prisma.$disconnect();
await database.drop();
await server.stop();
fs.rmSync(process.env.STORAGE_DIR, { recursive: true, force: true });
process.exit(0);
