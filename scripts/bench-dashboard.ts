// `npm run bench:dashboard`: the agreement dashboard's server work on a large project.
// Seeds a fresh database with scripts/lib/seed-large-project.ts (default 50,000 videos, 1,000,000
// judge scores, 3 reviewers), then times:
//   - projectAgreement (what GET /api/v1/projects/:id/agreement and the dashboard page compute) for
//     every run, for the run, and for one dimension: median of 3 after a warm-up;
//   - the streamed export (GET /api/v1/projects/:id/export) as CSV and JSONL, read to the end:
//     rows/s, MiB/s, and the process's peak RSS and heap above the level before it started (target: under
//     64 MiB extra RSS). This process starts without the web process's V8 flags (lib/config/web-process-flags.ts): the
//     export sets them itself, as it does in any process that serves one.
// Numbers only, no assertions.
//   npx tsx scripts/bench-dashboard.ts [--videos 50000] [--scores 1000000] [--reviewers 3]
// To iterate on the report without seeding each time: `--keep` leaves the seeded database in place
// and prints its name; `--database <name>` times that database again (not seeded, not dropped);
// `--no-export` times the agreement report only.
import os from "node:os";
import { parseArgs } from "node:util";
import { WEB_PROCESS_V8_FLAGS } from "../lib/config/web-process-flags";
import { projectAccess } from "@/lib/authz/permissions";

const { values } = parseArgs({
  options: {
    videos: { type: "string", default: "50000" },
    scores: { type: "string", default: "1000000" },
    reviewers: { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
    database: { type: "string" },
    "no-export": { type: "boolean", default: false },
  },
});
const VIDEOS = Number(values.videos);
const SCORES = Number(values.scores);
const REVIEWERS = Number(values.reviewers);

const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
const server = await startTestServer();
const { databaseUrl } = await import("../lib/db/embedded-postgres");
const reused = values.database;
const database = reused
  ? { name: reused, url: databaseUrl(server.baseUrl, reused), drop: async () => {} }
  : await createTestDatabase(server, "benchdash");
process.env.DATABASE_URL = database.url;

// The composition root first: the application context (the task catalogue the core reads) before anything reads it.
(await import("../lib/app-context/app-context")).appContext();
const { prisma } = await import("../lib/db/prisma");
const { seedLargeProject } = await import("./lib/seed-large-project");
const { projectAgreement } = await import("../lib/agreement/load");
const { projectExport } = await import("../lib/agreement/export");
const { agreementQuerySchema, exportQuerySchema, resolveReportFilter } = await import("../lib/agreement/report-filter");
// The seeded project has built-in tasks only: its queries parse with the built-in catalogue.
const { builtInCatalogue } = await import("../lib/task-modules/task-catalogue");
const { loadAgreementInput } = await import("../lib/agreement/load");
const { agreementReport } = await import("../lib/agreement/report/agreement-report");
const { DEFAULT_AGREEMENT_OPTIONS } = await import("../lib/agreement/types");

/** Seeds the large project (the seeder logs each step and its total time). */
async function seed() {
  console.log(
    `seeding ${VIDEOS.toLocaleString("en")} videos, ${SCORES.toLocaleString("en")} scores, ${REVIEWERS} reviewers…`,
  );
  const seeded = await seedLargeProject(prisma, {
    videos: VIDEOS,
    scores: SCORES,
    reviewers: REVIEWERS,
    log: (line) => console.log(line),
  });
  if (values.keep) console.log(`kept database ${database.name} (time it again with --database ${database.name})`);
  return seeded;
}

/** The project a kept database holds (its only one, seeded with one run). */
async function seededProject() {
  const project = await prisma.project.findFirstOrThrow({
    select: {
      id: true,
      runs: { select: { id: true }, take: 1 },
      members: { where: { role: "owner" }, select: { userId: true }, take: 1 },
    },
  });
  return { projectId: project.id, runId: project.runs[0]!.id, ownerId: project.members[0]!.userId };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

try {
  const seeded = reused ? await seededProject() : await seed();
  const owner = await prisma.user.findUniqueOrThrow({ where: { id: seeded.ownerId } });
  const actor = { userId: owner.id, email: owner.email, name: owner.name, isAdmin: false };
  const judgments = await prisma.humanJudgment.count({ where: { projectId: seeded.projectId } });
  const dimension = (
    await prisma.video.findFirstOrThrow({ where: { projectId: seeded.projectId }, select: { dimensions: true } })
  ).dimensions[0];
  console.log(`${judgments.toLocaleString("en")} human judgments\n`);

  console.log(
    `agreement report (projectAgreement), median of 3 after a warm-up; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}:`,
  );
  for (const [label, params] of [
    ["every run", {}],
    ["runId", { runId: seeded.runId }],
    [`dimension=${dimension}`, { dimension }],
  ] as const) {
    const query = agreementQuerySchema(builtInCatalogue()).parse(params);
    await projectAgreement(prisma, await projectAccess(prisma, actor, seeded.projectId, "export.read"), query);
    const runs: { total: number; load: number; report: number; reportCpu: number; reviewed: number }[] = [];
    for (let i = 0; i < 3; i++) {
      // The same steps as projectAgreement, timed apart: reading the judgments (SQL) and the statistics (JS).
      const t0 = performance.now();
      const { threshold, overallThreshold, format: _format, ...filter } = query;
      const scope = await resolveReportFilter(prisma, seeded.projectId, filter, actor.userId);
      const input = await loadAgreementInput(prisma, scope);
      const t1 = performance.now();
      const cpu = process.cpuUsage();
      const report = agreementReport(input, { ...DEFAULT_AGREEMENT_OPTIONS, threshold, overallThreshold });
      const t2 = performance.now();
      const { user, system } = process.cpuUsage(cpu);
      runs.push({
        total: t2 - t0,
        load: t1 - t0,
        report: t2 - t1,
        reportCpu: (user + system) / 1000,
        reviewed: report.summary.reviewedItems,
      });
    }
    runs.sort((a, b) => a.total - b.total);
    const [min, median, max] = runs as [(typeof runs)[number], (typeof runs)[number], (typeof runs)[number]];
    console.log(
      `  ${label.padEnd(32)} ${median.total.toFixed(0).padStart(6)} ms   (load ${median.load.toFixed(0)} ms + statistics ${median.report.toFixed(0)} ms, their CPU time ${median.reportCpu.toFixed(0)} ms; ${median.reviewed.toLocaleString("en")} reviewed targets; min ${min.total.toFixed(0)}, max ${max.total.toFixed(0)})`,
    );
  }

  // --no-export: the report only.
  const formats = values["no-export"] ? [] : (["csv", "jsonl"] as const);
  if (formats.length)
    console.log(
      `\nexport (streamed, read to the end, in a process started without flags; the export sets ${WEB_PROCESS_V8_FLAGS.join(" ")}; target < 64 MiB extra peak RSS):`,
    );
  const extra: string[] = [];
  for (const format of formats) {
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const t = performance.now();
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, actor, seeded.projectId, "export.read"),
      exportQuerySchema(builtInCatalogue()).parse({ format }),
    );
    const reader = stream.getReader();
    let bytes = 0;
    let lines = 0;
    let firstByteMs = -1;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (firstByteMs < 0) firstByteMs = performance.now() - t;
      bytes += value.length;
      for (let i = 0; i < value.length; i++) if (value[i] === 0x0a) lines++;
    }
    const seconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    const rows = format === "csv" ? lines - 1 : lines;
    extra.push(
      `${format.toUpperCase()} +${mib(peakRss - before.rss)} MiB${peakRss - before.rss < 64 * 1024 * 1024 ? "" : " (over the 64 MiB target)"}`,
    );
    console.log(
      `  ${format.padEnd(6)} ${rows.toLocaleString("en")} rows, ${mib(bytes)} MiB in ${seconds.toFixed(1)} s: ${Math.round(rows / seconds).toLocaleString("en")} rows/s, ${(bytes / 1024 / 1024 / seconds).toFixed(1)} MiB/s; first bytes after ${firstByteMs.toFixed(0)} ms; peak RSS +${mib(peakRss - before.rss)} MiB (${mib(peakRss)} MiB), peak heap +${mib(peakHeap - before.heapUsed)} MiB`,
    );
  }
  if (formats.length) console.log(`\nexport extra peak RSS: ${extra.join(", ")}`);
} finally {
  await prisma.$disconnect();
  if (!values.keep && !reused) await database.drop();
  await server.stop();
}
