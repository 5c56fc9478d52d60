// `npm run bench:judge`: 200 videos × the full hallucination pipeline (3 key frames: 14 steps each) against the
// stub LLM with a fixed 300 ms latency, endpoint concurrency 64, through pg-boss and a worker, on a fresh
// database; then an identical second run, which the response cache answers with no call. The stub runs in a
// process of its own, as an endpoint would, so the worker's numbers are the worker's alone.
// Prints the first run's calls/s against the limit concurrency/latency, where its slot time went (the first
// request's arrival at the stub after the run started, the run found done after the last answer, the calls in
// flight at the stub on average between them, from the stub's log) and how late the worker's event loop ran,
// and the re-run's seconds, calls,
// engine milliseconds and SQL statements per step, with the machine's load. Then a rubric task (issue 25)
// with 10 criteria, one call per key frame, on the same videos, endpoint and worker: its calls/s against the
// same limit, printed beside the hallucination run's; and the same rubric on videos with as many key frames as
// the hallucination run has steps per video, so both runs are the same size (--no-rubric leaves both out).
// Options: --videos N --key-frames N --latency MS --concurrency N --profile DIR (a CPU profile of each run, and one of
// the stub process over the whole benchmark in DIR/stub)
// --limiter shared|process (the worker's limits shared through PostgreSQL, as workers run, or kept in the
// process only, to measure what sharing them costs) --statements (the 15 most frequent SQL statements
// through Prisma, warm-up and both runs together). Then the VBench-2.0 task (issue 37) on as many videos, each in
// five of its yes/no dimensions (as many questions as the hallucination run has steps a video, one call each with 64 frames),
// warmed up on other videos as the hallucination run is: its calls/s against the same limit, beside the hallucination
// run's (--no-vbench2 leaves it out).
// --workers N: the jobs go to N worker processes (scripts/worker.ts, as `npm run worker` starts them, each taking
// 2 × concurrency / N videos at a time) instead of the benchmark's own process; worker CPU is then the sum of
// theirs (from /proc), and their SQL statements are not counted.
// `npm run bench:judge` starts node with the worker's V8 flags (lib/ops/worker-process-flags.ts), as `npm run worker`
// does, because without --workers this process is the worker it measures.
// --keep keeps the database (on TEST_DATABASE_URL's server, to read pg_stat_statements or the tables afterwards).
// --latency MIN-MAX draws each answer's latency uniformly in the range (the limit is then concurrency / the mean);
// --answer-bytes N pads each answer to about N bytes, as a real model's answer with its usage and ids is.
// --duration S: as many videos as keep the endpoint at its limit for about S seconds (instead of --videos), judged
// after a warm-up on videos of their own; only the hallucination run is measured, once per --mode, side by side.
// --mode M[,M…] (images, video-frames, video-file; default images): the endpoint's input mode (lib/judge/input-modes.ts)
// for every run above; each further mode gets a hallucination run of its own on as many fresh videos. Printed per mode:
// the share of the limit and the request bytes sent per video (llm_call.bytesSent), so modes compare at the same limit.
// Every run prints its duplicate calls (a step's call sent again while an answered one stands: work paid twice).
// With --workers, each worker's output goes to a log file whose path is printed (a starved worker's warnings).
// Calls go out as a worker sends them: undici on the worker's own thread (lib/judge/calls/guarded-fetch.ts).
// --pairwise: then a pairwise run (scripts/lib/bench-pairwise.ts) of as many calls: its share of the same limit.
// Every seeded video has its frame times stored, as a video whose file was read has: each hallucination video's close
// keeps its judge spans (under the run's lock) as in use.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { WORKER_PROCESS_V8_FLAGS } from "../lib/ops/worker-process-flags";
import { RAMP_MS, type StubRequest, slotUse } from "./lib/slot-use";
import { projectAccess } from "@/lib/authz/permissions";

const { values } = parseArgs({
  options: {
    videos: { type: "string", default: "200" },
    "key-frames": { type: "string", default: "3" },
    latency: { type: "string", default: "300" },
    concurrency: { type: "string", default: "64" },
    profile: { type: "string" },
    limiter: { type: "string", default: "shared" },
    statements: { type: "boolean", default: false },
    "no-rubric": { type: "boolean", default: false },
    "no-vbench2": { type: "boolean", default: false },
    workers: { type: "string", default: "0" },
    keep: { type: "boolean", default: false },
    "answer-bytes": { type: "string" },
    duration: { type: "string" },
    mode: { type: "string", default: "images" },
    pairwise: { type: "boolean", default: false },
  },
});
const { INPUT_MODES } = await import("../lib/judge/input-modes");
const MODES = values.mode.split(",").map((m) => m.trim());
for (const mode of MODES)
  if (!(INPUT_MODES as readonly string[]).includes(mode))
    throw new Error(`--mode is one or more of ${INPUT_MODES.join(", ")} (comma-separated), not ${mode}`);
type Mode = (typeof INPUT_MODES)[number];
if (values.limiter !== "shared" && values.limiter !== "process")
  throw new Error(`--limiter is "shared" or "process", not ${values.limiter}`);
const VIDEOS = Number(values.videos);
const KEY_FRAMES = Number(values["key-frames"]);
const [LATENCY_MIN_MS, LATENCY_MAX_MS] = values.latency.includes("-")
  ? values.latency.split("-").map(Number)
  : [Number(values.latency), Number(values.latency)];
if (!(LATENCY_MIN_MS! >= 0 && LATENCY_MAX_MS! >= LATENCY_MIN_MS!))
  throw new Error(`--latency is milliseconds or a range MIN-MAX, not ${values.latency}`);
/** The mean answer latency, which the limit (concurrency / latency) is taken at. */
const LATENCY_MS = (LATENCY_MIN_MS! + LATENCY_MAX_MS!) / 2;
const DURATION_S = values.duration === undefined ? null : Number(values.duration);
const CONCURRENCY = Number(values.concurrency);
const WORKERS = Number(values.workers);
if (!Number.isInteger(WORKERS) || WORKERS < 0) throw new Error(`--workers is a whole number, not ${values.workers}`);
if (WORKERS > 0 && (values.limiter !== "shared" || values.profile))
  throw new Error("--workers runs the workers as `npm run worker` does: with the shared limiter and without --profile");

// The worker's JSON log: only problems, so the numbers stay readable (LOG_LEVEL=info shows every judged video).
process.env.LOG_LEVEL ??= "warn";
process.env.STORAGE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "framejury-bench-judge-"));
process.env.APP_SECRET ??= "bench-secret-bench-secret-bench-secret-000";
// The stub LLM listens on 127.0.0.1, which judge endpoints may only use with this flag.
process.env.ALLOW_PRIVATE_ENDPOINTS = "1";

const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
const server = await startTestServer();
const database = await createTestDatabase(server, "bench");
process.env.DATABASE_URL = database.url;

// The app's Prisma client, made here on a pool whose connections count the SQL statements they send. Not with
// Prisma's query events: to emit one, Prisma formats the statement's parameters, some hundreds of kilobytes for
// a batch of finished steps, and that cost 1–2% of the worker's CPU, which `npm run worker` does not pay.
const { PrismaClient } = await import("../lib/generated/prisma/client");
const { PrismaPg } = await import("@prisma/adapter-pg");
const { createPrismaClient } = await import("../lib/db/prisma");
const { default: pg } = await import("pg");
let statements = 0;
const byStatement = new Map<string, number>();
const countedPool = new pg.Pool({ connectionString: database.url });
countedPool.on("connect", (client) => {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    statements += 1;
    if (values.statements) {
      const text = typeof args[0] === "string" ? args[0] : String((args[0] as { text?: string }).text ?? "");
      const key = text.replace(/\s+/g, " ").slice(0, 90);
      byStatement.set(key, (byStatement.get(key) ?? 0) + 1);
    }
    return query(...args);
  };
});
// Idle connections are ended by the server when the benchmark drops its database at the end: not an error here.
countedPool.on("error", () => {});
// Made as the worker's own client is (lib/db/prisma.ts), on the counting pool.
const counted = createPrismaClient(countedPool);
process.on("exit", () => {
  if (!values.statements) return;
  console.log("most frequent SQL statements (count, start of the text):");
  for (const [text, count] of [...byStatement].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`${String(count).padStart(7)}  ${text}`);
});
(globalThis as unknown as { prisma?: unknown }).prisma = counted;
// The benchmark's own polling goes through another client, so it is not counted.
const watcher = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url }) });
const runFinished = async (runId: string) => {
  while (
    (await watcher.judgeRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).status !== "done"
  )
    await new Promise((r) => setTimeout(r, 50));
};

// The composition root first: the application context (the task catalogue the core reads) before anything reads it.
(await import("../lib/app-context/app-context")).appContext();
const { prisma } = await import("../lib/db/prisma");
const { createUser } = await import("../lib/auth/users");
const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
const { mediaFixtures } = await import("../testkit/testing/media-fixtures");
const { frameTimesFromTimestamps } = await import("../lib/frames/frame-times");
const { getStorage } = await import("../lib/storage/storage");
const { createEndpoint } = await import("../lib/judge/endpoints/endpoints");
const { createRun } = await import("../lib/judge/runs/runs");
const { pgBossQueue, startBoss, startJudgeWorker } = await import("../lib/judge/workers/queue");
// As `npm run worker` judges (scripts/lib/bench-judge-deps.ts).
const { benchJudgeDeps } = await import("./lib/bench-judge-deps");
const { createRubricTask } = await import("../lib/rubrics/rubric-tasks");
const { vbench2Project } = await import("../testkit/tasks/vbench2/vbench2-fixtures");

const stubProcess = spawn(
  process.execPath,
  [
    ...(values.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.join(values.profile, "stub")}`] : []),
    "--import",
    "tsx",
    path.resolve("scripts/stub-llm.ts"),
    "--port",
    "0",
    "--latency",
    values.latency,
    ...(values["answer-bytes"] ? ["--answer-bytes", values["answer-bytes"]] : []),
    "--quiet",
  ],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const stubBaseUrl = await new Promise<string>((resolve, reject) => {
  let out = "";
  stubProcess.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    const found = /OpenAI base URL: (\S+)/.exec(out);
    if (found) resolve(found[1]!);
  });
  stubProcess.once("exit", (code) => reject(new Error(`the stub LLM exited (${code}) before it listened`)));
});
process.on("exit", () => stubProcess.kill("SIGTERM"));
/** A process's CPU time so far (ms), from /proc; with `reaped`, also that of its children that have exited. */
function processCpuMs(pid: number, reaped = false): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime, stime, cutime and cstime are fields 14–17 of the stat line (12–15 after "pid (comm) "), in clock ticks (100 a second on Linux).
    const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
    return (ticks * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}
/** The PostgreSQL server's processes (its postmaster, found by the port it listens on, and their children). */
function postgresPids(): number[] {
  const port = new URL(server.baseUrl).port;
  const processes = fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const parent = Number(fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      return [{ pid: Number(entry), parent, args }];
    } catch {
      return [];
    }
  });
  const postmaster = processes.find(
    (p) => p.args[0]?.endsWith("/postgres") && p.args.includes("-p") && p.args[p.args.indexOf("-p") + 1] === port,
  );
  return postmaster ? [postmaster.pid, ...processes.filter((p) => p.parent === postmaster.pid).map((p) => p.pid)] : [];
}
/** PostgreSQL's CPU time so far (ms): its processes' and those of its connections that have ended. NaN on a server elsewhere. */
function postgresCpuMs(): number {
  const [postmaster, ...children] = postgresPids();
  return postmaster === undefined
    ? Number.NaN
    : processCpuMs(postmaster, true) + children.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}
/** The stub process's CPU time so far (ms): what the stand-in endpoint costs the shared cores. */
const stubCpuMs = () => processCpuMs(stubProcess.pid!);
/** Every request the stub received, from its own log. */
async function stubRequests(): Promise<StubRequest[]> {
  const response = await fetch(`${stubBaseUrl.replace(/\/v1$/, "")}/__stub/requests`);
  return ((await response.json()) as { requests: StubRequest[] }).requests;
}
const user = await createUser(prisma, { email: "bench@example.test", password: "bench-password" });
const owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
/** Comparing call paths (or a run of --duration): each path seeds its own videos, so none are seeded here. */
const COMPARING = DURATION_S !== null;
if (!COMPARING) console.log(`seeding ${VIDEOS} videos with ${KEY_FRAMES} key frames each…`);
const { projectId, videoIds: benchVideoIds } = await projectWithFramedVideos(prisma, owner, {
  videoCount: COMPARING ? 0 : VIDEOS,
  keyFrames: KEY_FRAMES,
  name: "bench",
});
if (MODES[0] === "video-file") await storeClips(benchVideoIds);
await storeFrameTimes(benchVideoIds);
const endpointSettings = {
  name: "stub",
  baseUrl: stubBaseUrl,
  model: "stub-vision",
  apiKey: null,
  imageDetail: "low" as const,
  temperature: 0,
  maxConcurrency: CONCURRENCY,
  requestsPerMinute: null,
  timeoutSeconds: 60,
  structuredOutput: true,
  pricePer1kInput: null,
  pricePer1kOutput: null,
  inputMode: MODES[0] as Mode,
};
const endpoint = await createEndpoint(
  prisma,
  await projectAccess(prisma, owner, projectId, "endpoints.manage"),
  endpointSettings,
);
const boss = await startBoss(database.url, { supervise: true });
/** The judging of one call path: N worker processes (--workers), each as `npm run worker` starts one, or this process. */
function startJudging() {
  const logs = WORKERS > 0 ? fs.mkdtempSync(path.join(os.tmpdir(), "bench-judge-workers-")) : null;
  if (logs) console.log(`worker logs in ${logs}`);
  const children = Array.from({ length: WORKERS }, (_, i) => {
    const log = fs.openSync(path.join(logs!, `worker-${i + 1}.log`), "a");
    const child = spawn(
      process.execPath,
      [...WORKER_PROCESS_V8_FLAGS, "--import", "tsx", path.resolve("scripts/worker.ts")],
      {
        stdio: ["ignore", log, log],
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          WORKER_CONCURRENCY: String(Math.ceil((CONCURRENCY * 2) / WORKERS)),
        },
      },
    );
    process.on("exit", () => child.kill("SIGKILL"));
    return child;
  });
  const inProcess =
    WORKERS === 0
      ? startJudgeWorker(boss, benchJudgeDeps(values.limiter as "shared" | "process"), {
          concurrency: CONCURRENCY * 2,
        })
      : null;
  return {
    /** CPU time (ms) of this process, or of the worker processes together with --workers. */
    cpuMs(): number {
      if (WORKERS === 0) {
        const cpu = process.cpuUsage();
        return (cpu.user + cpu.system) / 1000;
      }
      return children.reduce((sum, child) => sum + processCpuMs(child.pid!), 0);
    },
    async stop() {
      await Promise.all(
        children.map((child) => new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGKILL")))),
      );
      await inProcess?.stop(0);
    },
  };
}
const judging = startJudging();
const workerCpuMs = () => judging.cpuMs();
const session = new Session();
session.connect();

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Starts a run of `pipeline` on every video of the project with the endpoint, and waits for it to be done; its id. */
async function runToEnd(projectId: string, pipeline: string, endpointId: string): Promise<string> {
  const run = await createRun(
    { prisma, queue: pgBossQueue(boss) },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline,
      endpointId,
    },
  );
  await runFinished(run.id);
  return run.id;
}

async function timedRun(
  label: string,
  pipeline = "hallucination",
  where: { projectId: string; endpointId: string } = { projectId, endpointId: endpoint.id },
  startRun?: () => Promise<string>, // another way to start a run (a pairwise run) and wait for it to be done
) {
  const before = (await stubRequests()).length;
  const startedAt = Date.now();
  const loadBefore = load();
  if (values.profile) {
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const statementsBefore = statements;
  const stubCpuBefore = stubCpuMs();
  const cpuBefore = workerCpuMs();
  const postgresCpuBefore = postgresCpuMs();
  const started = performance.now();
  const runId = startRun ? await startRun() : await runToEnd(where.projectId, pipeline, where.endpointId);
  const seconds = (performance.now() - started) / 1000;
  const endedAt = Date.now();
  loopDelay.disable();
  const cpuMs = workerCpuMs() - cpuBefore;
  const postgresCpu = postgresCpuMs() - postgresCpuBefore;
  const runStatements = statements - statementsBefore;
  const stubCpu = stubCpuMs() - stubCpuBefore;
  if (values.profile) {
    const { profile } = await session.post("Profiler.stop");
    fs.mkdirSync(values.profile, { recursive: true });
    fs.writeFileSync(path.join(values.profile, `bench-judge-${label}.cpuprofile`), JSON.stringify(profile));
  }
  const steps = await prisma.stepResult.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  const stepCount = steps.reduce((sum, s) => sum + s._count._all, 0);
  const runRequests = (await stubRequests()).slice(before);
  const sent = await prisma.llmCall.aggregate({ where: { runId }, _sum: { bytesSent: true } });
  const videoCount = await prisma.runVideo.count({ where: { runId } });
  const duplicateCalls = await duplicateCallCount(runId);
  return {
    duplicateCalls,
    /** The request bytes the run's calls sent, per video. */
    bytesPerVideo: (sent._sum.bytesSent ?? 0) / Math.max(1, videoCount),
    slots: slotUse(runRequests, startedAt, endedAt, CONCURRENCY),
    /** How late the process's event loop ran its timers (ms): what every call's start and answer waited for, with no worker processes. */
    loopDelay: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    seconds,
    calls: runRequests.length,
    stepCount,
    steps: Object.fromEntries(steps.map((s) => [s.status, s._count._all])),
    cpuMsPerStep: cpuMs / stepCount,
    postgresCpuMsPerStep: postgresCpu / stepCount,
    stubCpuMsPerCall: stubCpu / Math.max(1, runRequests.length),
    statementsPerStep: runStatements / stepCount,
    load: `${loadBefore} → ${load()}`,
  };
}

/**
 * Calls a run sent beyond one per step and sample: a step's request sent again after an answered call of it stood
 * (a video judged twice, a retried job re-paying). Repairs and cached answers are not calls sent again.
 */
async function duplicateCallCount(runId: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ extra: bigint }[]>`
    SELECT (count(*) - count(DISTINCT ("stepResultId", md5("request"::text))))::bigint AS extra
    FROM "llm_call" WHERE "runId" = ${runId} AND NOT "isRepair" AND NOT "cached"`;
  return Number(row?.extra ?? 0);
}

const limit = CONCURRENCY / (LATENCY_MS / 1000);
// A worker runs for a long time: its first jobs' one-off costs (compiling queries, warming up code, the first
// connections) are not what a step costs. A run of a few other videos pays them before the clock starts.
const WARM_UP_VIDEOS = 8;

/**
 * A `video-file` run sends each video's clip: the videos get a real one (the media fixtures' 2 s, 320 × 180 H.264
 * clip), stored under their keys, so the steps over the whole video send it as they would a user's.
 */
async function storeClips(videoIds: readonly string[]) {
  const clip = fs.readFileSync(mediaFixtures().goodMp4);
  const storage = getStorage();
  const rows = await prisma.video.findMany({ where: { id: { in: [...videoIds] } }, select: { storageKey: true } });
  for (const row of rows) await storage.put(row.storageKey, clip);
  await prisma.video.updateMany({ where: { id: { in: [...videoIds] } }, data: { sizeBytes: BigInt(clip.length) } });
}

/**
 * Each video's frame times (25 fps over its sampled frames), stored as a video has them once its file was read (an
 * import, a span page, a first judge-spans run): a hallucination video's close then keeps its judge spans as it does
 * in use, instead of trying to read a file the fixtures do not store.
 */
async function storeFrameTimes(videoIds: readonly string[]) {
  const frames = Math.ceil(KEY_FRAMES * 3 * 0.25 * 25);
  const times = frameTimesFromTimestamps(Array.from({ length: frames }, (_, i) => i * 0.04))!;
  await prisma.videoFrameTimes.createMany({
    data: videoIds.map((videoId) => ({ videoId, timesS: [...times.timesS], endS: times.endS, variable: false })),
  });
}

/** A new project of `videos` videos, with an endpoint on the stub of the benchmark's settings. */
async function seededProject(videos: number, name: string, inputMode: Mode = MODES[0] as Mode) {
  const seeded = await projectWithFramedVideos(prisma, owner, { videoCount: videos, keyFrames: KEY_FRAMES, name });
  if (inputMode === "video-file") await storeClips(seeded.videoIds);
  await storeFrameTimes(seeded.videoIds);
  const created = await createEndpoint(
    prisma,
    await projectAccess(prisma, owner, seeded.projectId, "endpoints.manage"),
    { ...endpointSettings, inputMode },
  );
  return { projectId: seeded.projectId, endpointId: created.id };
}

/** Everything the benchmark started, stopped; its database dropped unless --keep. */
async function finish(): Promise<never> {
  session.disconnect();
  await judging.stop();
  await boss.stop({ graceful: false });
  await prisma.$disconnect();
  await watcher.$disconnect();
  if (values.keep) console.log(`kept the database ${database.name} (drop it with DROP DATABASE ${database.name})`);
  else await database.drop();
  await server.stop();
  fs.rmSync(process.env.STORAGE_DIR!, { recursive: true, force: true });
  process.exit(0);
}

/**
 * A run of --duration: a warm-up on videos of its own, then fresh videos (enough for --duration at the limit) on an
 * endpoint of its own. Printed: the share of the limit, the slots busy at the stub, the workers' CPU and the load.
 */
async function durationRun(): Promise<never> {
  const warm = await seededProject(WARM_UP_VIDEOS, "warm-up");
  const warmRunId = await runToEnd(warm.projectId, "hallucination", warm.endpointId);
  const stepsPerVideo = (await prisma.stepResult.count({ where: { runId: warmRunId } })) / WARM_UP_VIDEOS;
  const videos = Math.ceil((DURATION_S! * limit) / stepsPerVideo);
  const latency = LATENCY_MIN_MS === LATENCY_MAX_MS ? `${LATENCY_MS} ms` : `${values.latency} ms (mean ${LATENCY_MS})`;
  console.log(
    `stub latency ${latency}${values["answer-bytes"] ? `, answers of ~${values["answer-bytes"]} bytes` : ""}, endpoint concurrency ${CONCURRENCY}, limit ${limit.toFixed(2)} calls/s, ${WORKERS > 0 ? `${WORKERS} worker processes` : "one worker (this process)"}, ${os.cpus().length} cores`,
  );
  // Each mode on fresh videos of its own, one after the other, so the modes meet the same limit.
  for (const mode of MODES as Mode[]) {
    console.log(`seeding ${videos} videos with ${KEY_FRAMES} key frames each for ${mode}…`);
    const run = await timedRun(`plain-${mode}`, "hallucination", await seededProject(videos, `bench-${mode}`, mode));
    console.log(durationReport(mode, videos, run));
  }
  return finish();
}

function durationReport(mode: string, videos: number, run: Awaited<ReturnType<typeof timedRun>>): string {
  const share = run.calls / run.seconds / limit;
  const slots = run.slots;
  return `mode ${mode}: ${share.toFixed(3)} of the limit (${(run.calls / run.seconds).toFixed(2)} calls/s): ${run.calls} calls of ${videos} videos in ${run.seconds.toFixed(1)} s, steps ${JSON.stringify(run.steps)}, duplicate calls ${run.duplicateCalls}
  slots:  ${slots ? `${(slots.meanInFlight / CONCURRENCY).toFixed(3)} busy at the stub between the first request and the last answer; unused slot time (s of all ${CONCURRENCY}): ${slots.lost.beforeFirst.toFixed(2)} before the first request, ${slots.lost.ramp.toFixed(2)} ramp, ${slots.lost.middle.toFixed(2)} middle, ${slots.lost.tail.toFixed(2)} tail` : "no calls"}
  CPU:    workers ${run.cpuMsPerStep.toFixed(2)} ms per step, PostgreSQL ${run.postgresCpuMsPerStep.toFixed(2)} ms per step, the stub ${run.stubCpuMsPerCall.toFixed(2)} ms per call; ${Math.round(run.bytesPerVideo).toLocaleString()} request bytes sent per video; load average ${run.load}`;
}
if (COMPARING) await durationRun();

{
  const warmUp = await projectWithFramedVideos(prisma, owner, {
    videoCount: WARM_UP_VIDEOS,
    keyFrames: KEY_FRAMES,
    name: "warm-up",
  });
  const warmUpEndpoint = await createEndpoint(
    prisma,
    await projectAccess(prisma, owner, warmUp.projectId, "endpoints.manage"),
    {
      name: "stub",
      baseUrl: stubBaseUrl,
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
    },
  );
  await runToEnd(warmUp.projectId, "hallucination", warmUpEndpoint.id);
}

const first = await timedRun("first");
const achieved = first.calls / first.seconds;
const second = await timedRun("rerun");
const ratio = achieved / limit;
/** SQL statements per step through the benchmark's Prisma client: uncounted when worker processes judge. */
const sqlPerStep = (run: { statementsPerStep: number }) =>
  WORKERS > 0 ? "uncounted" : run.statementsPerStep.toFixed(2);

/** A rubric task with 10 criteria (numeric, ordered labels, boolean), judged once per key frame: one call answers all ten. */
function benchRubric() {
  const numeric = (id: string) => ({
    id,
    name: id,
    type: "numeric" as const,
    min: 0,
    max: 10,
    step: 1,
    definition: `How much ${id}, 0 to 10.`,
  });
  const ordered = (id: string) => ({
    id,
    name: id,
    type: "categorical" as const,
    ordered: true,
    labels: ["poor", "fair", "good"].map((label) => ({ label, definition: `${id} is ${label}.` })),
    definition: `How good ${id} is.`,
  });
  const yesNo = (id: string) => ({ id, name: id, type: "boolean" as const, definition: `Whether ${id} shows.` });
  return {
    name: "Bench rubric",
    frames: { mode: "each_key_frame" as const },
    criteria: [
      numeric("physics"),
      numeric("anatomy"),
      numeric("flicker"),
      numeric("adherence"),
      ordered("motion"),
      ordered("lighting"),
      ordered("texture"),
      yesNo("text"),
      yesNo("watermark"),
      yesNo("cut"),
    ],
    prompt: "The image is {{frames}} The video's prompt: {{prompt}}\n\nRate it on:\n{{criteria}}",
  };
}
let rubric: Awaited<ReturnType<typeof timedRun>> | null = null;
// The same rubric on videos with as many key frames as the hallucination run has steps per video, so both runs
// make the same number of calls: a run of 600 calls lasts about 3 s at the limit, and the fixed cost of starting
// and finishing a run (pg-boss handing out the first jobs, the last videos' tail) weighs 4–5 times more in it.
let rubricSameSize: Awaited<ReturnType<typeof timedRun>> | null = null;
if (!values["no-rubric"]) {
  const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    definition: benchRubric(),
  });
  rubric = await timedRun("rubric", task.pipeline);
  const keyFrames = Math.round(first.stepCount / VIDEOS);
  const sameSize = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames,
    name: "bench-rubric",
  });
  const sameSizeEndpoint = await createEndpoint(
    prisma,
    await projectAccess(prisma, owner, sameSize.projectId, "endpoints.manage"),
    endpointSettings,
  );
  const sameSizeTask = await createRubricTask(
    prisma,
    await projectAccess(prisma, owner, sameSize.projectId, "rubrics.manage"),
    { definition: benchRubric() },
  );
  rubricSameSize = await timedRun("rubric-same-size", sameSizeTask.pipeline, {
    projectId: sameSize.projectId,
    endpointId: sameSizeEndpoint.id,
  });
}
/**
 * Five yes/no dimensions of VBench-2.0 per video with `perVideo` questions among them, as many as the hallucination
 * run's steps a video (14 with 3 key frames): the two runs then make the same number of calls, so the run's fixed
 * start and end weigh the same in both shares of the limit.
 */
function vbench2Questions(v: number, perVideo: number) {
  const dimensions = ["Material", "Mechanics", "Thermotics", "Dynamic_Attribute", "Motion_Rationality"];
  const count = (i: number) =>
    Math.floor(perVideo / dimensions.length) + (i >= dimensions.length - (perVideo % dimensions.length) ? 1 : 0);
  return Object.fromEntries(
    dimensions.map((d, i) => [
      d,
      Array.from({ length: count(i) }, (_, k) => `Question ${k + 1} of ${d} about video ${v}? (yes or no)`),
    ]),
  );
}
let vbench2: Awaited<ReturnType<typeof timedRun>> | null = null;
const vbench2PerVideo = Math.max(5, Math.round(first.stepCount / VIDEOS));
if (!values["no-vbench2"]) {
  console.log(`seeding ${VIDEOS} VBench-2.0 videos with 64 uniform frames each…`);
  // Videos numbered from `from`: the warm-up's questions differ from the timed run's, so none is answered from the cache.
  const specs = (count: number, from: number) =>
    Array.from({ length: count }, (_, i) => ({
      model: (from + i) % 2 ? "GenB" : "GenA",
      dimension: Object.keys(vbench2Questions(from + i, vbench2PerVideo)),
      prompt: `Bench prompt ${from + i}`,
      auxiliaryInfo: vbench2Questions(from + i, vbench2PerVideo),
    }));
  const project = await vbench2Project(prisma, owner, specs(VIDEOS, 0));
  const vbench2Endpoint = await createEndpoint(
    prisma,
    await projectAccess(prisma, owner, project.projectId, "endpoints.manage"),
    endpointSettings,
  );
  // Warmed up as the hallucination run is: the VBench-2.0 pipeline's own first-use costs are paid before the clock starts.
  const warmUp = await vbench2Project(prisma, owner, specs(WARM_UP_VIDEOS, VIDEOS));
  const warmUpEndpoint = await createEndpoint(
    prisma,
    await projectAccess(prisma, owner, warmUp.projectId, "endpoints.manage"),
    endpointSettings,
  );
  await runToEnd(warmUp.projectId, "vbench2", warmUpEndpoint.id);
  vbench2 = await timedRun("vbench2", "vbench2", { projectId: project.projectId, endpointId: vbench2Endpoint.id });
}
/** Each further --mode: a hallucination run on as many fresh videos, its endpoint in that mode, at the same limit. */
const otherModes: { mode: Mode; run: Awaited<ReturnType<typeof timedRun>> }[] = [];
for (const mode of MODES.slice(1) as Mode[])
  otherModes.push({
    mode,
    run: await timedRun(`mode-${mode}`, "hallucination", await seededProject(VIDEOS, mode, mode)),
  });
const { pairwiseBench, pairwiseReport } = await import("./lib/bench-pairwise");
const pairwise = values.pairwise
  ? await pairwiseBench(
      {
        boss,
        owner,
        workerDeps: WORKERS === 0 ? benchJudgeDeps(values.limiter as "shared" | "process") : null,
        concurrency: CONCURRENCY,
        seededProject: (videos, name) => seededProject(Math.min(videos, VIDEOS), name),
        runFinished,
        timedRun: (start) => timedRun("pairwise", "pairwise", undefined, start),
      },
      first.calls,
    )
  : null;
const vbench2Achieved = vbench2 ? vbench2.calls / vbench2.seconds : 0;
const rubricAchieved = rubric ? rubric.calls / rubric.seconds : 0;
const rubricSameSizeAchieved = rubricSameSize ? rubricSameSize.calls / rubricSameSize.seconds : 0;
console.log(`
judge benchmark: ${VIDEOS} videos × ${KEY_FRAMES} key frames (${first.stepCount} steps), stub latency ${LATENCY_MS} ms, endpoint concurrency ${CONCURRENCY}, ${os.cpus().length} cores
(${WORKERS > 0 ? `${WORKERS} worker processes judging ${Math.ceil((CONCURRENCY * 2) / WORKERS)} videos at once each` : `one worker judging ${CONCURRENCY * 2} videos at once`}, warmed up on ${WARM_UP_VIDEOS} other videos; the stub in its own process; endpoint limits ${values.limiter === "shared" ? "shared through PostgreSQL" : "kept in the worker process"})
first run:  ${first.calls} calls in ${first.seconds.toFixed(1)} s, steps ${JSON.stringify(first.steps)}, duplicate calls ${first.duplicateCalls}, load average ${first.load}
  achieved: ${achieved.toFixed(2)} calls/s; limit ${limit.toFixed(2)} calls/s (${CONCURRENCY}/${LATENCY_MS / 1000})
  ratio:    ${ratio.toFixed(3)} of the limit (the target, ≥ 0.95, is at realistic latency: --latency 2000-8000 --duration 400)
  mode:     ${MODES[0]}, ${Math.round(first.bytesPerVideo).toLocaleString()} request bytes sent per video
  slots:    ${
    first.slots
      ? `first request ${first.slots.startSeconds.toFixed(2)} s after the run started, the run done ${first.slots.endSeconds.toFixed(2)} s after the last answer; between them ${first.slots.meanInFlight.toFixed(1)} calls in flight at the stub on average (${(first.slots.meanInFlight / CONCURRENCY).toFixed(3)} of ${CONCURRENCY}); slot time unused, in seconds of all ${CONCURRENCY}: ${first.slots.lost.beforeFirst.toFixed(2)} before the first request, ${first.slots.lost.ramp.toFixed(2)} in the ${RAMP_MS / 1000} s after it, ${first.slots.lost.middle.toFixed(2)} in the middle, ${first.slots.lost.tail.toFixed(2)} after the last request came`
      : "no calls"
  }${WORKERS === 0 ? `; the worker's event loop ran late by ${first.loopDelay.p50.toFixed(1)} ms at the median, ${first.loopDelay.p99.toFixed(0)} ms at the 99th percentile, ${first.loopDelay.max.toFixed(0)} ms at most` : ""}
  worker CPU ${first.cpuMsPerStep.toFixed(2)} ms and ${sqlPerStep(first)} SQL statements per step (through Prisma; pg-boss's own not counted); PostgreSQL's CPU ${first.postgresCpuMsPerStep.toFixed(2)} ms per step; the stub's CPU ${first.stubCpuMsPerCall.toFixed(2)} ms per call
re-run:     ${second.seconds.toFixed(2)} s (target ≤ 5 s)${second.seconds <= 5 ? "" : "  ← over target"}, ${second.calls} calls (target 0), steps ${JSON.stringify(second.steps)}, load average ${second.load}
  engine:   ${((second.seconds * 1000) / second.stepCount).toFixed(2)} ms per step (wall), worker CPU ${second.cpuMsPerStep.toFixed(2)} ms per step, ${sqlPerStep(second)} SQL statements per step
${
  rubric
    ? `rubric task: 10 criteria, one call per key frame (${rubric.stepCount} steps): ${rubric.calls} calls in ${rubric.seconds.toFixed(1)} s, steps ${JSON.stringify(rubric.steps)}, load average ${rubric.load}
  achieved: ${rubricAchieved.toFixed(2)} calls/s; ratio ${(rubricAchieved / limit).toFixed(3)} of the limit beside the hallucination run's ${ratio.toFixed(3)}
  worker CPU ${rubric.cpuMsPerStep.toFixed(2)} ms and ${sqlPerStep(rubric)} SQL statements per step
`
    : ""
}${
  rubricSameSize
    ? `rubric task, same size as the hallucination run (${Math.round(first.stepCount / VIDEOS)} key frames a video, ${rubricSameSize.stepCount} steps): ${rubricSameSize.calls} calls in ${rubricSameSize.seconds.toFixed(1)} s, load average ${rubricSameSize.load}
  achieved: ${rubricSameSizeAchieved.toFixed(2)} calls/s; ratio ${(rubricSameSizeAchieved / limit).toFixed(3)} of the limit beside the hallucination run's ${ratio.toFixed(3)}
  worker CPU ${rubricSameSize.cpuMsPerStep.toFixed(2)} ms and ${sqlPerStep(rubricSameSize)} SQL statements per step
`
    : ""
}${
  vbench2
    ? `VBench-2.0 task: 5 yes/no dimensions, ${vbench2PerVideo} questions a video (the hallucination run's steps a video), 64 frames a call (${vbench2.stepCount} steps): ${vbench2.calls} calls in ${vbench2.seconds.toFixed(1)} s, steps ${JSON.stringify(vbench2.steps)}, load average ${vbench2.load}
  achieved: ${vbench2Achieved.toFixed(2)} calls/s; ratio ${(vbench2Achieved / limit).toFixed(3)} of the limit beside the hallucination run's ${ratio.toFixed(3)}: ${(vbench2Achieved / limit / ratio).toFixed(2)} of its share (target: the same share)
  worker CPU ${vbench2.cpuMsPerStep.toFixed(2)} ms and ${sqlPerStep(vbench2)} SQL statements per step; the stub's CPU ${vbench2.stubCpuMsPerCall.toFixed(2)} ms per call (64 frames a call against 1–3); ${Math.round(vbench2.bytesPerVideo).toLocaleString()} request bytes sent per video (${MODES[0]})
`
    : ""
}${otherModes
  .map(
    ({
      mode,
      run,
    }) => `mode ${mode}: ${run.calls} calls in ${run.seconds.toFixed(1)} s, steps ${JSON.stringify(run.steps)}, duplicate calls ${run.duplicateCalls}
  ratio ${(run.calls / run.seconds / limit).toFixed(3)} of the limit beside ${MODES[0]}'s ${ratio.toFixed(3)}; ${Math.round(run.bytesPerVideo).toLocaleString()} request bytes sent per video (${MODES[0]}: ${Math.round(first.bytesPerVideo).toLocaleString()})
`,
  )
  .join("")}${
  pairwise ? pairwiseReport(pairwise, { limit, ratio, sql: sqlPerStep(pairwise.run) }) : ""
}${values.profile ? `CPU profiles in ${values.profile} (the stub's in ${path.join(values.profile, "stub")} once it exits)\n` : ""}`);

// The worker gives the endpoint's concurrency slots back just after a run's last call (the run already done):
// a moment for that before the database goes, so the log stays free of failed releases.
if (rubric || vbench2 || otherModes.length || pairwise) await new Promise((resolve) => setTimeout(resolve, 2000));
await finish();
