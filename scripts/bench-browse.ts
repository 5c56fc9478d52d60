// `npm run bench:browse`: the video list's queries on a large project.
// On a fresh database (on DATABASE_URL's / TEST_DATABASE_URL's server when set, else a throw-away
// embedded PostgreSQL) it seeds 50,000 videos and 1,000,000 judge scores (scripts/lib/seed-large-project.ts),
// then times browseVideos — what the videos page and GET /api/v1/projects/:id/videos run: the
// permission check, the run, the count, the page and the page's thumbnails and review flags — for the
// page's common filters, and the option lists. 3 warm-up calls, then N timed calls each (default 30);
// prints p50 / p95 per query and the worst p95, and marks each p95 at or over the 150 ms target
// (the target on a busy machine and at 200,000 videos / 4,000,000 scores; at 50,000 videos the worst
// p95 should stay under 100 ms, so the load average is printed before and after). A total past the
// list's count cap prints as "10,000+". Deep pages are timed both ways: by cursor (what the page's
// next/previous links and API clients following nextCursor do) and by page number (OFFSET).
// --explain prints EXPLAIN (ANALYZE, BUFFERS) of every statement one call runs.
// Numbers only, no assertions. The database is dropped at the end, unless --keep: then it stays and its
// name is printed, and --reuse <name> times that database again without seeding (pending migrations
// are applied first, so a new index is measured on the same data; seeding 200,000 videos takes
// minutes on a busy machine). --seed-only seeds (and keeps) without timing.
//   npm run bench:browse [-- --videos 50000 --scores 1000000 --iterations 30 --explain --keep --reuse <name> --seed-only]
import os from "node:os";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    videos: { type: "string", default: "50000" },
    scores: { type: "string", default: "1000000" },
    iterations: { type: "string", default: "30" },
    explain: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    reuse: { type: "string" },
    "seed-only": { type: "boolean", default: false },
  },
});
const VIDEOS = Number(values.videos);
const SCORES = Number(values.scores);
const ITERATIONS = Math.max(1, Number(values.iterations));
const WARM_UP = 3;
const TARGET_MS = 150;
const UNLOADED_TARGET_MS = 100;

const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
const server = await startTestServer();
const { databaseUrl } = await import("../lib/db/embedded-postgres");
const { applyMigrations } = await import("../lib/db/migrate");
const { MIGRATIONS_DIR } = await import("../lib/db/resolve-database");
const KEEP = values.keep || values["seed-only"] || values.reuse !== undefined;
const database = values.reuse
  ? { name: values.reuse, url: databaseUrl(server.baseUrl, values.reuse), drop: async () => {} }
  : await createTestDatabase(server, "bench_browse");
if (values.reuse) await applyMigrations(database.url, MIGRATIONS_DIR);
process.env.DATABASE_URL = database.url;
// The composition root first: the application context (the task catalogue the core reads) before anything reads it.
(await import("../lib/app-context/app-context")).appContext();
const { prisma } = await import("../lib/db/prisma");
const { seedLargeProject } = await import("./lib/seed-large-project");
const { browseOptions, browseVideos } = await import("../lib/videos/browse-videos");
const { projectAccess } = await import("../lib/authz/permissions");
const { videoListQuerySchema } = await import("../lib/videos/video-filter");
// The seeded project has built-in tasks only: its queries parse with the built-in catalogue.
const { builtInCatalogue } = await import("../lib/task-modules/task-catalogue");
const { Prisma } = await import("../lib/generated/prisma/client");
type Client = typeof prisma;

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ");

/** The client, with every raw statement run also as EXPLAIN (ANALYZE, BUFFERS) and its plan printed. */
function explainingClient(client: Client): Client {
  return new Proxy(client, {
    get(target, property) {
      if (property !== "$queryRaw") {
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (first: TemplateStringsArray | InstanceType<typeof Prisma.Sql>, ...values: unknown[]) => {
        const sql = "raw" in first ? Prisma.sql(first, ...(values as Parameters<typeof Prisma.sql>[1][])) : first;
        const plan = await target.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS) ${sql}`);
        console.log(
          `  ${sql.sql.replace(/\s+/g, " ").slice(0, 140)}…\n${plan.map((row) => `    ${row["QUERY PLAN"]}`).join("\n")}`,
        );
        return target.$queryRaw(sql);
      };
    },
  });
}

/** The project an earlier --keep run seeded, found again for --reuse. */
async function seededProject() {
  const project = await prisma.project.findFirstOrThrow({
    where: { name: { startsWith: "Large project" } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  const run = await prisma.judgeRun.findFirstOrThrow({
    where: { projectId: project.id },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  const members = await prisma.projectMember.findMany({
    where: { projectId: project.id, role: "reviewer" },
    orderBy: { userId: "asc" },
    select: { userId: true },
  });
  // ANALYZE: a migration's new index (or a new table) has no statistics yet.
  await prisma.$executeRaw`ANALYZE`;
  return { projectId: project.id, runId: run.id, reviewerIds: members.map((member) => member.userId) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

try {
  console.log(
    `video list benchmark: ${os.cpus().length} CPUs, Node ${process.version}, database ${database.name}, load average ${loadAverage()}`,
  );
  const seeded = values.reuse
    ? await seededProject()
    : await seedLargeProject(prisma, { videos: VIDEOS, scores: SCORES, log: (line) => console.log(line) });
  if (KEEP)
    console.log(
      `database kept: ${database.name} (time it again with --reuse ${database.name}; drop it with DROP DATABASE when done)`,
    );
  if (values["seed-only"]) process.exit(0);
  const { projectId, runId } = seeded;
  const reviewer = seeded.reviewerIds[0]!;
  const actor = {
    userId: reviewer,
    email: `${reviewer}@seed.framejury.local`,
    name: "Seed reviewer 1",
    isAdmin: false,
  };
  const access = await projectAccess(prisma, actor, projectId, "project.view");
  const [videoCount, runVideoCount, scoreCount, judgmentCount] = await Promise.all([
    prisma.video.count({ where: { projectId } }),
    prisma.runVideo.count({ where: { runId } }),
    prisma.score.count({ where: { runId } }),
    prisma.humanJudgment.count({ where: { runId } }),
  ]);
  console.log(
    `project: ${videoCount.toLocaleString("en")} videos, ${runVideoCount.toLocaleString("en")} in the run, ${scoreCount.toLocaleString("en")} scores, ${judgmentCount.toLocaleString("en")} human judgments`,
  );
  const sample = await prisma.video.findFirstOrThrow({
    where: { projectId },
    orderBy: { id: "asc" },
    select: { dimensions: true, model: true },
  });
  // Page 500 reached by following nextCursor: the cursor page 499 hands out.
  const cursorTo500 = async (query: Record<string, string>) => {
    const page499 = await browseVideos(
      prisma,
      access,
      videoListQuerySchema(builtInCatalogue()).parse({ ...query, page: "499" }),
    );
    return page499.nextCursor;
  };
  const [cursorByPath, cursorByOverall] = [await cursorTo500({}), await cursorTo500({ sort: "overall", dir: "desc" })];

  const scenarios: { name: string; query?: Record<string, string>; run?: () => Promise<unknown> }[] = [
    { name: "default first page", query: {} },
    { name: "sort by overall desc", query: { sort: "overall", dir: "desc" } },
    { name: `dimension = ${sample.dimensions[0]}`, query: { dimension: sample.dimensions[0]! } },
    { name: `model = ${sample.model}`, query: { model: sample.model! } },
    { name: "prompt contains 'ball'", query: { prompt: "ball" } },
    { name: "prompt contains 'zzz' (no match)", query: { prompt: "zzz" } },
    { name: "run + s3 ≥ 5", query: { runId, category: "s3", categoryMin: "5" } },
    { name: "run + s3 ≥ 5, sort S desc", query: { runId, category: "s3", categoryMin: "5", sort: "S", dir: "desc" } },
    { name: "overall 40–70", query: { overallMin: "40", overallMax: "70" } },
    { name: "min.overall 40, max.overall 70 (generic keys)", query: { "min.overall": "40", "max.overall": "70" } },
    { name: "judge verdict yes", query: { verdict: "yes" } },
    { name: "reviewers' verdict yes", query: { humanVerdict: "yes" } },
    { name: "review: unreviewed", query: { review: "unreviewed" } },
    { name: "review: reviewed by me", query: { review: "reviewed_by_me" } },
    { name: "review: disagreement", query: { review: "disagreement" } },
    {
      name: "dimension + I ≥ 5, sort I desc",
      query: { dimension: sample.dimensions[0]!, iMin: "5", sort: "I", dir: "desc" },
    },
    // (Only when the project has a page 500.)
    ...(cursorByPath ? [{ name: "page 500 by path, cursor", query: { cursor: cursorByPath } }] : []),
    ...(cursorByOverall
      ? [{ name: "page 500 by overall desc, cursor", query: { sort: "overall", dir: "desc", cursor: cursorByOverall } }]
      : []),
    { name: "page=500 by path (OFFSET)", query: { page: "500" } },
    { name: "page=500 by overall desc (OFFSET)", query: { page: "500", sort: "overall", dir: "desc" } },
    { name: "option lists", run: () => browseOptions(prisma, access) },
  ];

  const rows: { name: string; total: string; p50: number; p95: number }[] = [];
  for (const scenario of scenarios) {
    const query = scenario.query ? videoListQuerySchema(builtInCatalogue()).parse(scenario.query) : null;
    const call = scenario.run ?? (() => browseVideos(prisma, access, query!));
    let total = "";
    for (let i = 0; i < WARM_UP; i++) {
      const result = await call();
      if (result && typeof result === "object" && "total" in result) {
        const counted = result as { total: number; totalExact: boolean };
        total = `${counted.total.toLocaleString("en")}${counted.totalExact ? "" : "+"}`;
      }
    }
    const times: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    rows.push({ name: scenario.name, total, p50: percentile(times, 50), p95: percentile(times, 95) });
    if (values.explain && query) {
      console.log(`\n${scenario.name}:`);
      await browseVideos(explainingClient(prisma), access, query);
    }
  }

  const width = Math.max(...rows.map((row) => row.name.length));
  console.log(
    `\nbrowseVideos on ${videoCount.toLocaleString("en")} videos / ${scoreCount.toLocaleString("en")} scores, ${ITERATIONS} timed calls each after ${WARM_UP} warm-up calls (target p95 < ${TARGET_MS} ms)\n`,
  );
  console.log(`${"query".padEnd(width)}  ${"matches".padStart(9)}  ${"p50 ms".padStart(7)}  ${"p95 ms".padStart(7)}`);
  for (const row of rows) {
    const mark = row.p95 >= TARGET_MS ? "  ✗ over target" : "";
    console.log(
      `${row.name.padEnd(width)}  ${row.total.padStart(9)}  ${row.p50.toFixed(1).padStart(7)}  ${row.p95.toFixed(1).padStart(7)}${mark}`,
    );
  }
  const worst = rows.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  console.log(
    `\nworst p95: ${worst.p95.toFixed(1)} ms (${worst.name}) — target < ${TARGET_MS} ms: ${worst.p95 < TARGET_MS ? "met" : "NOT met"}; < ${UNLOADED_TARGET_MS} ms (the target at 50,000 videos, when unloaded): ${worst.p95 < UNLOADED_TARGET_MS ? "met" : "NOT met"}`,
  );
  console.log(`load average (1, 5, 15 min) at the end: ${loadAverage()} on ${os.cpus().length} CPUs`);
} finally {
  await prisma.$disconnect();
  if (!KEEP) await database.drop();
  await server.stop();
}
