// Throughput of the headless import (`npm run import`) with native ffmpeg and with its fallback, the
// ffmpeg.wasm core in Node, side by side in one run:
//   npm run bench:bulk-import -- [--clips DIR] [--count 50] [--jobs 2]
//
// A folder of COUNT clips (copies of DIR's clips, default /work/shared/samples, else generated 1280×720 ones;
// each remuxed with its own metadata comment so its bytes differ) is imported in-process into a fresh
// database twice, once per decoder, each into its own project: hash, local probe, resumable upload, frame
// extraction, frames stored; JOBS videos at once (the command's default 2). Prints videos/min, CPU seconds per
// video (this process and the ffmpeg processes it ran) and the load average (os.loadavg) before and after each
// run, then whether both runs stored the same frames (timestamps, key frames, clusters) for every video.
// Numbers only, no assertions. Needs native ffmpeg (to make the folder and for the native run).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    clips: { type: "string", default: "/work/shared/samples" },
    count: { type: "string", default: "50" },
    jobs: { type: "string", default: "2" },
  },
});
const COUNT = Math.max(1, Number(values.count));
const JOBS = Math.max(1, Number(values.jobs));
const PARAMETERS = { mode: "density-peaks" } as const;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** CPU seconds of this process and of the children it has waited for (the ffmpeg and ffprobe runs). */
function cpuSeconds(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the command: utime(14) stime(15) cutime(16) cstime(17), 1-based from pid; 100 ticks a second.
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

function ffmpeg(args: string[]) {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-bench-bulk-import-"));
const sources = fs.existsSync(values.clips)
  ? fs
      .readdirSync(values.clips)
      .filter((name) => /\.(mp4|webm|mov|mkv)$/i.test(name))
      .sort()
      .map((name) => path.join(values.clips, name))
  : [];
if (sources.length === 0) {
  for (const [i, source] of ["testsrc2", "smptehdbars", "rgbtestsrc"].entries()) {
    const generated = path.join(work, `generated-${i}.mp4`);
    ffmpeg([
      "-f",
      "lavfi",
      "-i",
      `${source}=size=1280x720:rate=24:duration=8`,
      "-vf",
      "hue=H=t*0.8,format=yuv420p",
      "-c:v",
      "libx264",
      generated,
    ]);
    sources.push(generated);
  }
}
const folder = path.join(work, "T2VHaluBench");
fs.mkdirSync(folder);
for (let i = 0; i < COUNT; i++) {
  const source = sources[i % sources.length]!;
  ffmpeg([
    "-i",
    source,
    "-map",
    "0",
    "-c",
    "copy",
    "-metadata",
    `comment=bench copy ${i}`,
    path.join(folder, `a clip to judge number ${i}-0${path.extname(source)}`),
  ]);
}
console.log(
  `bench-bulk-import: ${os.cpus().length} cores; ${COUNT} clips (copies of ${sources.length} from ${values.clips}), ${JOBS} at once; load average ${load()}`,
);

const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
const server = await startTestServer();
const database = await createTestDatabase(server, "bench_bulk_import");
process.env.DATABASE_URL = database.url;
process.env.STORAGE_DIR = path.join(work, "storage");
delete process.env.STORAGE_URL;
const { prisma } = await import("../lib/db/prisma");
const { createUser } = await import("../lib/auth/users");
const { createProject } = await import("../lib/projects/projects");
const { getStorage } = await import("../lib/storage/storage");
const { importFolders } = await import("../lib/bulk-import/import-folder");
const { localTarget } = await import("../lib/bulk-import/import-target");
const { projectAccess } = await import("../lib/authz/permissions");
const { nativeTools, wasmTools } = await import("../lib/bulk-import/ffmpeg-tools");

interface Row {
  label: string;
  imported: number;
  wallS: number;
  cpuPerVideo: number;
  loadBefore: string;
  loadAfter: string;
  frames: Map<string, string>;
}

try {
  const user = await createUser(prisma, { email: "bench@example.test", password: "correct horse battery" });
  const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const rows: Row[] = [];
  for (const [label, tools] of [
    ["native ffmpeg", nativeTools],
    ["ffmpeg.wasm (fallback)", wasmTools],
  ] as const) {
    // Each run gets its own project: the same files in one project would be duplicates the second time.
    const project = await createProject(prisma, actor, { name: `bench bulk import ${tools.decoder}` });
    const loadBefore = load();
    const cpuBefore = cpuSeconds();
    const summary = await importFolders({
      roots: [folder],
      target: localTarget(
        { prisma, storage: getStorage() },
        await projectAccess(prisma, actor, project.id, "videos.import"),
      ),
      parameters: PARAMETERS,
      concurrency: JOBS,
      frameTools: tools,
    });
    const cpu = cpuSeconds() - cpuBefore;
    const stored = await prisma.video.findMany({
      where: { projectId: project.id },
      select: {
        relativePath: true,
        frameSets: {
          select: {
            decoder: true,
            frames: { select: { timestampS: true, isKeyFrame: true, cluster: true }, orderBy: { index: "asc" } },
          },
        },
      },
    });
    const frames = new Map(stored.map((video) => [video.relativePath, JSON.stringify(video.frameSets)]));
    const row = {
      label,
      imported: summary.counts.imported,
      wallS: summary.elapsedMs / 1000,
      cpuPerVideo: cpu / COUNT,
      loadBefore,
      loadAfter: load(),
      frames,
    };
    rows.push(row);
    console.log(
      `${label}: ${row.imported}/${COUNT} imported in ${row.wallS.toFixed(1)} s (load before ${row.loadBefore}, after ${row.loadAfter})`,
    );
  }

  console.log(
    `\n| decoder | imported | wall s | videos/min | CPU s per video | load before → after (1, 5, 15 min) |\n|---|---|---|---|---|---|`,
  );
  for (const row of rows)
    console.log(
      `| ${row.label} | ${row.imported}/${COUNT} | ${row.wallS.toFixed(1)} | ${((row.imported / row.wallS) * 60).toFixed(1)} | ${row.cpuPerVideo.toFixed(2)} | ${row.loadBefore} → ${row.loadAfter} |`,
    );
  const [native, wasm] = rows as [Row, Row];
  console.log(
    `ffmpeg.wasm takes ${(native.imported / native.wallS / (wasm.imported / wasm.wallS)).toFixed(1)}× native's wall time per video`,
  );
  let same = 0;
  for (const [relativePath, nativeFrames] of native.frames) {
    const wasmFrames = wasm.frames.get(relativePath)?.replaceAll('"decoder":"ffmpeg.wasm"', '"decoder":"ffmpeg"');
    if (wasmFrames === nativeFrames) same += 1;
  }
  console.log(
    `same frames (timestamps, key frames, clusters) from both decoders: ${same}/${native.frames.size} videos`,
  );
} finally {
  await prisma.$disconnect();
  await database.drop();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
