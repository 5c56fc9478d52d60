// `npm run bench:span-agreement`: agreement on where (lib/spans/agreement) for 50,000 videos.
// On a fresh database (on DATABASE_URL's / TEST_DATABASE_URL's server when set, else a throw-away embedded
// PostgreSQL) it seeds a 50,000-video project (scripts/lib/seed-large-project.ts, without scores), gives every video
// a frame count of 300 and 10 spans by each of two reviewers and a judge run (1,500,000 spans over three hallucination
// labels: the raters mark the same 10 stretches, each end moved by up to 3 frames), then times
//   - the pure computation (spanAgreement on the loaded input: matching, frames, 1,000 bootstrap resamples), and
//   - what GET /api/v1/projects/:id/agreement/spans runs (spanAgreementReport), with loading:
//     - the first report of a scope (nothing kept in memory or stored: every span read and matched), and how long
//       storing its snapshot takes after the answer,
//     - a new process's first report of that scope (a child process, the same script with --first-of-process, times
//       its one request): from the stored report with nothing changed, and after a write to one video,
//     - after a write to one video's span, and after writes to 100 videos' (a write that changes nothing but marks
//       the videos written: those are read and matched again),
//     - nothing changed (the kept report answers after the other inputs are read and compared),
//     - the span agreement keeper's pass (what a worker runs every half minute, off any request: it computes and stores
//       the task's report and the run's), and a new process's first report of the run's scope after it, and of one
//       label of it (cut from the run's stored report),
// one warm-up and --runs timed calls each (median), with how each report was had, the machine's load average before
// and after, against the 2 s target. Numbers only, no assertions. The database is dropped at the end, unless --keep: then it stays and its
// name is printed, and --reuse <name> times that database again without seeding, after applying pending migrations
// (on DATABASE_URL's server: the embedded one is thrown away when the bench exits).
//   npm run bench:span-agreement [-- --videos 50000 --spans 10 --runs 3 --keep --reuse <name>]
import { execFile } from "node:child_process";
import os from "node:os";
import { parseArgs, promisify } from "node:util";

const { values } = parseArgs({
  options: {
    videos: { type: "string", default: "50000" },
    spans: { type: "string", default: "10" },
    runs: { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
    reuse: { type: "string" },
    // Internal: this process times one report as a new process's first request and prints it (JSON of ProcessJob).
    "first-of-process": { type: "string" },
  },
});
const VIDEOS = Number(values.videos);
const SPANS = Number(values.spans);
const RUNS = Math.max(1, Number(values.runs));
const TARGET_MS = 2000;
const FRAMES = 300;

/** What a child process times: one report of the scope with `seed`, on the database at `url`, as `ownerId`. */
interface ProcessJob {
  url: string;
  projectId: string;
  runId: string;
  ownerId: string;
  seed: number;
  /** One label's report, when named. */
  label?: string;
}

const timed = async <T>(work: () => Promise<T> | T) => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(cpu);
  return { result, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
};

/** A new process's first report: nothing of the scope in memory, the stored snapshot read (span-agreement-snapshot.ts). */
async function firstReportOfProcess(job: ProcessJob) {
  process.env.DATABASE_URL = job.url;
  (await import("../lib/app-context/app-context")).appContext();
  const { prisma } = await import("../lib/db/prisma");
  const { builtInCatalogue } = await import("../lib/task-modules/task-catalogue");
  const { projectAccess } = await import("../lib/authz/permissions");
  const { spanAgreementReport } = await import("../lib/spans/agreement/load-span-agreement");
  const actor = { userId: job.ownerId, email: "owner@seed", name: "Owner", isAdmin: false };
  // Also opens the database connection, which a running web process holds already.
  const access = await projectAccess(prisma, actor, job.projectId, "export.read");
  const query = { task: "hallucination", runId: job.runId, ...(job.label ? { label: job.label } : {}) };
  const t = await timed(() => spanAgreementReport(prisma, access, query, builtInCatalogue(), { seed: job.seed }));
  await t.result.stored;
  const { how, keptIn, videosMatched } = t.result;
  console.log(JSON.stringify({ ms: t.ms, cpuMs: t.cpuMs, how, keptIn, videosMatched }));
  await prisma.$disconnect();
}

if (values["first-of-process"]) {
  await firstReportOfProcess(JSON.parse(values["first-of-process"]) as ProcessJob);
  process.exit(0);
}

const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
const server = await startTestServer();
const { databaseUrl } = await import("../lib/db/embedded-postgres");
const database = values.reuse
  ? { name: values.reuse, url: databaseUrl(server.baseUrl, values.reuse), drop: async () => {} }
  : await createTestDatabase(server, "bench_span_agreement");
const KEEP = values.keep || values.reuse !== undefined;
if (values.reuse) {
  const { applyMigrations } = await import("../lib/db/migrate");
  const { MIGRATIONS_DIR } = await import("../lib/db/resolve-database");
  await applyMigrations(database.url, MIGRATIONS_DIR);
}
process.env.DATABASE_URL = database.url;
(await import("../lib/app-context/app-context")).appContext();
const { prisma } = await import("../lib/db/prisma");
const { seedLargeProject } = await import("./lib/seed-large-project");
const { builtInCatalogue } = await import("../lib/task-modules/task-catalogue");
const { projectAccess } = await import("../lib/authz/permissions");
const { taskSpanLabels } = await import("../lib/spans/span-labels");
const { spanAgreementReport } = await import("../lib/spans/agreement/load-span-agreement");
const { SpanAgreementKeeper } = await import("../lib/spans/agreement/span-agreement-keeper");
const { loadSpanAgreementInput, spanAgreement } = await import("../testkit/spans/span-agreement");

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** A deterministic uniform in [0, 1) from md5 of a key, as SQL. */
const uniform = (key: string) => `(('x' || substr(md5(${key}), 1, 8))::bit(32)::bigint / 4294967296.0)`;

async function seedSpans(projectId: string, runId: string, reviewers: string[]) {
  const catalogue = builtInCatalogue();
  const labels = taskSpanLabels(catalogue.findTask("hallucination")!)
    .slice(0, 3)
    .map((l) => l.id);
  await prisma.$executeRawUnsafe(`UPDATE "video" SET "frameCount" = ${FRAMES} WHERE "projectId" = $1`, projectId);
  // Per video and slot k: a stretch s0..s0+len; each rater moves each end by −3..3 frames.
  const inserted = await prisma.$executeRawUnsafe(
    `INSERT INTO "span" ("id", "projectId", "videoId", "task", "label", "startFrame", "endFrame", "startS", "endS", "authorKind", "authorId", "runId", "updatedAt")
     SELECT 'bench' || md5(v."id" || r."author" || k), $1, v."id", 'hallucination', ($2::text[])[k % 3 + 1], e."st", e."en",
            e."st" / 30.0, (e."en" + 1) / 30.0, r."kind"::"SpanAuthorKind", r."author", r."run", now()
     FROM "video" v
     CROSS JOIN generate_series(0, ${SPANS - 1}) k
     CROSS JOIN (VALUES ($3::text, 'reviewer', NULL::text), ($4::text, 'reviewer', NULL::text), ('run:' || $5::text, 'judge', $5::text)) r("author", "kind", "run")
     CROSS JOIN LATERAL (
       SELECT floor(${uniform(`v."id" || k || 's'`)} * ${FRAMES - 20})::int AS "s0", 5 + floor(${uniform(`v."id" || k || 'l'`)} * 15)::int AS "len",
              floor(${uniform(`v."id" || k || r."author" || 'a'`)} * 7)::int - 3 AS "j1", floor(${uniform(`v."id" || k || r."author" || 'b'`)} * 7)::int - 3 AS "j2"
     ) g
     CROSS JOIN LATERAL (
       SELECT greatest(0, g."s0" + g."j1") AS "st", greatest(greatest(0, g."s0" + g."j1"), least(${FRAMES - 1}, g."s0" + g."len" + g."j2")) AS "en"
     ) e
     WHERE v."projectId" = $1`,
    projectId,
    labels,
    reviewers[0],
    reviewers[1],
    runId,
  );
  await prisma.$executeRaw`ANALYZE`;
  return inserted;
}

async function seed() {
  const seedStart = performance.now();
  const seeded = await seedLargeProject(prisma, { videos: VIDEOS, scores: 0, reviewers: 2 });
  const spans = await seedSpans(seeded.projectId, seeded.runId, seeded.reviewerIds);
  console.log(
    `seeded ${VIDEOS.toLocaleString("en")} videos and ${spans.toLocaleString("en")} spans (${SPANS} per video and rater, 2 reviewers + a judge) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );
  return seeded;
}

/** The project an earlier --keep run seeded. */
async function seededProject() {
  const run = await prisma.judgeRun.findFirstOrThrow({
    orderBy: { createdAt: "desc" },
    select: { id: true, projectId: true },
  });
  const owner = await prisma.projectMember.findFirstOrThrow({
    where: { projectId: run.projectId, role: "owner" },
    select: { userId: true },
  });
  const spans = await prisma.span.count({ where: { projectId: run.projectId } });
  console.log(`reusing ${spans.toLocaleString("en")} spans`);
  return { projectId: run.projectId, runId: run.id, ownerId: owner.userId };
}

try {
  console.log(
    `span agreement benchmark: ${os.cpus().length} CPUs, Node ${process.version}, database ${database.name}, load average ${loadAverage()}`,
  );
  const seeded = values.reuse ? await seededProject() : await seed();
  if (KEEP) console.log(`database kept: ${database.name} (time it again with --reuse ${database.name})`);
  const actor = { userId: seeded.ownerId, email: "owner@seed", name: "Owner", isAdmin: false };
  const query = { task: "hallucination", runId: seeded.runId };
  const catalogue = builtInCatalogue();

  const access = await projectAccess(prisma, actor, seeded.projectId, "export.read");
  // An earlier run's stored reports would answer this run's first reports.
  await prisma.spanAgreementSnapshot.deleteMany({ where: { projectId: seeded.projectId } });
  const { input } = await loadSpanAgreementInput(prisma, access, query, catalogue);
  type Timing = { ms: number; cpuMs: number };
  const pure: Timing[] = [];
  const first: Timing[] = [];
  const stores: Timing[] = [];
  const processKept: Timing[] = [];
  const processWrite: Timing[] = [];
  const oneWrite: Timing[] = [];
  const manyWrites: Timing[] = [];
  const warm: Timing[] = [];
  const keeperPasses: Timing[] = [];
  const afterKeeper: Timing[] = [];
  const labelAfterKeeper: Timing[] = [];
  // Writes that change no span's content but mark their videos written: the next report matches them again.
  const spansOf = (videos: number) =>
    prisma.$queryRaw<{ id: string }[]>`
      SELECT DISTINCT ON ("videoId") "id" FROM "span" WHERE "projectId" = ${seeded.projectId}
      ORDER BY "videoId", "id" LIMIT ${videos}`;
  const [oneSpan] = await spansOf(1);
  const hundredSpans = (await spansOf(100)).map((s) => s.id);
  const touch = (ids: string[]) =>
    prisma.$executeRaw`UPDATE "span" SET "endFrame" = "endFrame" WHERE "id" = ANY(${ids})`;
  const hows = new Set<string>();
  const had = (how: string, keptIn: string | null, videosMatched: number) =>
    hows.add(`${how}${keptIn ? ` from ${keptIn}` : ""} (${videosMatched.toLocaleString("en")} videos matched)`);
  // Each report's snapshot is stored before the next is timed: the write is off the request, not off the machine.
  const report = async (timings: Timing[] | null, options: { seed?: number } = {}) => {
    const t = await timed(() => spanAgreementReport(prisma, access, query, catalogue, options));
    had(t.result.how, t.result.keptIn, t.result.videosMatched);
    timings?.push(t);
    const store = await timed(() => t.result.stored);
    if (timings === first) stores.push(store);
    return t.result;
  };
  // A new process's first report of the scope with `seed` (firstReportOfProcess), timed in that process.
  const run = promisify(execFile);
  const inNewProcess = async (timings: Timing[] | null, seed: number, label?: string) => {
    const job: ProcessJob = { url: database.url, ...seeded, seed, ...(label ? { label } : {}) };
    const child = await run(process.execPath, [
      ...process.execArgv,
      process.argv[1]!,
      "--first-of-process",
      JSON.stringify(job),
    ]);
    const t = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Timing & {
      how: string;
      keptIn: string | null;
      videosMatched: number;
    };
    had(t.how, t.keptIn, t.videosMatched);
    timings?.push(t);
  };
  let summary = "";
  for (let i = 0; i <= RUNS; i++) {
    const warmUp = i === 0;
    const compute = await timed(() => spanAgreement(input));
    if (!warmUp) pure.push(compute);
    // A seed never asked before: a scope with no kept report, in memory or stored.
    const seed = 1000 + i;
    const afresh = await report(warmUp ? null : first, { seed });
    await inNewProcess(warmUp ? null : processKept, seed);
    await touch([oneSpan!.id]);
    await inNewProcess(warmUp ? null : processWrite, seed);
    await report(null);
    await touch([oneSpan!.id]);
    await report(warmUp ? null : oneWrite);
    await touch(hundredSpans);
    await report(warmUp ? null : manyWrites);
    await report(warmUp ? null : warm);
    // The keeper with another seed never asked before: its scopes have no stored report until its pass.
    const keeper = new SpanAgreementKeeper({
      prisma,
      catalogueOf: async () => catalogue,
      options: { seed: seed + 1000 },
    });
    const pass = await timed(() => keeper.pass());
    for (const kept of pass.result) hows.add(`keeper: ${kept.runId ? "the run" : "the task"} ${String(kept.outcome)}`);
    if (!warmUp) keeperPasses.push(pass);
    await inNewProcess(warmUp ? null : afterKeeper, seed + 1000);
    await inNewProcess(warmUp ? null : labelAfterKeeper, seed + 1000, input.labels[0]!.id);
    if (warmUp) {
      const comparisons = afresh.report.labels.flatMap((l) => l.comparisons);
      summary = `${afresh.report.labels.length} labels × ${comparisons.length / afresh.report.labels.length} comparisons; e.g. ${comparisons[0]!.key}: F1 at 0.5 = ${comparisons[0]!.thresholds[2]!.f1.value?.toFixed(3)} [${comparisons[0]!.thresholds[2]!.f1.ci?.map((x) => x.toFixed(3)).join(", ")}]`;
    }
  }
  console.log(summary);
  console.log(`reports had: ${[...hows].join("; ")}`);
  const line = (name: string, xs: Timing[], target = true) => {
    const ms = median(xs.map((x) => x.ms));
    const cpu = median(xs.map((x) => x.cpuMs));
    const verdict = target ? `  ${ms < TARGET_MS ? "under" : "OVER"} the ${TARGET_MS / 1000} s target` : "";
    return `  ${name.padEnd(42)} median ${ms.toFixed(0).padStart(6)} ms wall, ${cpu.toFixed(0).padStart(6)} ms CPU (runs: ${xs.map((x) => x.ms.toFixed(0)).join(", ")} ms)${verdict}`;
  };
  console.log(line("pure compute", pure));
  console.log(line("first report of a scope (every span)", first));
  console.log(line("  its snapshot stored (off the request)", stores, false));
  console.log(line("a new process's first report", processKept));
  console.log(line("  the same after a write to 1 video", processWrite));
  console.log(line("after a write to 1 video", oneWrite));
  console.log(line("after writes to 100 videos", manyWrites));
  console.log(line("nothing changed (kept)", warm));
  console.log(line("the keeper's pass (a worker's, 2 scopes)", keeperPasses, false));
  console.log(line("a new process's first report after it", afterKeeper));
  console.log(line("  the same of one label (cut from it)", labelAfterKeeper));
  console.log(`load average after: ${loadAverage()}`);
} finally {
  await prisma.$disconnect();
  if (!KEEP) await database.drop();
  await server.stop();
}
