// Benchmark and cross-check of the headless import (`npm run import`, lib/bulk-import) against the browser.
//   npm run bench:import -- [--clips DIR] [--count 50] [--skip-compare] [--skip-throughput]
//
// 1. Key frames: for each clip in DIR (default /work/shared/samples, else a generated one), the Import page's
//    default frame set (density peaks, 4 fps, longest side 768) is planned from the features the browser
//    computes (Chromium through the e2e harness: WebCodecs, and ffmpeg.wasm) and from those native ffmpeg
//    gives the headless import; prints both key-frame index lists and the largest feature difference.
// 2. Throughput: a folder of COUNT clips (copies of DIR's clips, each remuxed with its own metadata comment
//    so its bytes differ) imported headlessly in-process into a fresh database (hash, local probe, resumable
//    upload, native extraction, frames stored; 2 videos at once as on the Import page), then the same clips'
//    frame extraction in Chromium (probe + sample + key-frame plan; 2 pages at once, as the Import page's 2
//    lanes; no upload, so the browser's number is an upper bound of its import), and the headless extraction
//    alone for the like-for-like comparison. Prints clips/s, CPU seconds per clip (this process and its
//    children: ffmpeg, Chromium) and the load.
// Numbers only, no assertions.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import type { Harness as HarnessApi } from "../e2e/harness/extraction-harness";
import { CHROMIUM_ARGS, CHROMIUM_PATH, startHarness } from "../e2e/harness/harness-server";

const { values } = parseArgs({
  options: {
    clips: { type: "string", default: "/work/shared/samples" },
    count: { type: "string", default: "50" },
    "skip-compare": { type: "boolean", default: false },
    "skip-throughput": { type: "boolean", default: false },
  },
});
const COUNT = Math.max(1, Number(values.count));
const PARAMETERS = { mode: "density-peaks" } as const;
type H = { harness: HarnessApi };

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const CLOCK_TICKS = 100;

/** CPU seconds (user + system) of a process and its descendants still running, plus the children they reaped. */
function treeCpuSeconds(rootPid: number): number {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the command: state ppid … utime(14) stime(15) cutime(16) cstime(17), 1-based from pid.
      stats.set(Number(entry), {
        parent: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      });
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (pid: number): boolean =>
    pid === rootPid || (pid > 1 && stats.has(pid) && inTree(stats.get(pid)!.parent));
  let ticks = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
  return ticks / CLOCK_TICKS;
}

function ffmpeg(args: string[]) {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-bench-import-"));
let sources = fs.existsSync(values.clips)
  ? fs
      .readdirSync(values.clips)
      .filter((name) => /\.(mp4|webm|mov|mkv)$/i.test(name))
      .sort()
      .map((name) => path.join(values.clips, name))
  : [];
if (sources.length === 0) {
  const generated = path.join(work, "generated-0.mp4");
  ffmpeg([
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=1280x720:rate=24:duration=2",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    generated,
  ]);
  sources = [generated];
}
console.log(
  `bench-import: ${os.cpus().length} cores, load average ${load()}; ${sources.length} source clips from ${values.clips}`,
);

const { densityPeaksParametersSchema } = await import("../lib/frames/frame-set-parameters");
const { planFrameSet, uniformSampleTimestamps } = await import("../lib/frames/plan-frame-set");
const { planSampling } = await import("../lib/browser-extraction/ffmpeg-sampling");
const { decodePlannedFrames, extractFrameSetFromFile, inspectVideoFile } =
  await import("../lib/bulk-import/native-extraction");
const parameters = densityPeaksParametersSchema.parse(PARAMETERS);

/** The timestamps a key-frame set samples: `sampleFps` per second. */
const frameSetTimestamps = (durationS: number) => uniformSampleTimestamps(durationS, parameters.sampleFps);

/** Natively decodes the frames shown at `timestampsS`, each as a JPEG with its features, as the browser is asked to. */
async function sampleVideoFile(
  filePath: string,
  inspected: Awaited<ReturnType<typeof inspectVideoFile>>,
  timestampsS: number[],
  options: { maxSide: number; jpegQuality: number },
) {
  // Frames go to files, not memory: a segment may hold every sampled frame of a long video.
  const plan = planSampling(inspected.info, timestampsS, Number.MAX_SAFE_INTEGER);
  const decoded = await decodePlannedFrames(filePath, inspected, plan, options);
  return timestampsS.map((timestampS, i) => {
    const index = plan.requestedIndex[i]!;
    return { timestampS, frameTimestampS: inspected.info.frames[index]!.pts, ...decoded.get(index)! };
  });
}

const clipsDir = path.join(work, "clips");
fs.mkdirSync(clipsDir);
for (const source of sources) fs.copyFileSync(source, path.join(clipsDir, path.basename(source)));
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
fs.cpSync(folder, path.join(clipsDir, "T2VHaluBench"), { recursive: true });

const harness = await startHarness({ clipsDir });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
const openPage = async () => {
  const page = await browser.newPage();
  await page.goto(`${harness.url}/`);
  await page.waitForFunction(() => "harness" in window);
  return page;
};

/** The browser's key frames for a clip served at `url`: probe, sample at the frame set's times, plan. */
async function browserPlan(page: Page, url: string, forceDecoder?: "webcodecs" | "ffmpeg.wasm") {
  const probed = await page.evaluate(([u, d]) => (window as unknown as H).harness.probe(u, d), [
    url,
    forceDecoder,
  ] as const);
  if (!probed.ok) throw new Error(`${url}: ${probed.code}: ${probed.message}`);
  const durationS = probed.value.probe.durationS;
  const timestamps = frameSetTimestamps(durationS);
  const sampled = await page.evaluate(
    ([u, ts, maxSide, jpegQuality, d]) =>
      (window as unknown as H).harness.sample(u, ts, { maxSide, jpegQuality, forceDecoder: d }),
    [url, timestamps, parameters.maxSide, parameters.jpegQuality, forceDecoder] as const,
  );
  if (!sampled.ok) throw new Error(`${url}: ${sampled.code}: ${sampled.message}`);
  const frames = sampled.value.frames.map((frame) => ({
    timestampS: frame.timestampS,
    features: Float32Array.from(frame.features),
  }));
  return {
    durationS,
    frames,
    keyFrames: planFrameSet(parameters, frames, durationS).keyFrameIndices,
    decoder: sampled.value.decoder,
  };
}

try {
  if (!values["skip-compare"]) {
    console.log(
      `\nKey frames of the default frame set (density peaks, ${parameters.sampleFps} fps, longest side ${parameters.maxSide}):\n`,
    );
    const page = await openPage();
    for (const source of sources) {
      const name = path.basename(source);
      const inspected = await inspectVideoFile(source);
      const timestamps = frameSetTimestamps(inspected.probe.durationS);
      const native = await sampleVideoFile(source, inspected, timestamps, {
        maxSide: parameters.maxSide,
        jpegQuality: parameters.jpegQuality,
      });
      const nativeKeys = planFrameSet(parameters, native, inspected.probe.durationS).keyFrameIndices;
      for (const decoder of ["webcodecs", "ffmpeg.wasm"] as const) {
        const inBrowser = await browserPlan(page, `/clips/${name}`, decoder);
        let largest = 0;
        let sum = 0;
        for (const [i, frame] of inBrowser.frames.entries()) {
          const other = native[i]?.features;
          if (!other) continue;
          let squared = 0;
          for (let k = 0; k < frame.features.length; k++) {
            const difference = Math.abs(frame.features[k]! - other[k]!);
            largest = Math.max(largest, difference);
            squared += difference * difference;
          }
          sum += Math.sqrt(squared);
        }
        const same = JSON.stringify(inBrowser.keyFrames) === JSON.stringify(nativeKeys);
        console.log(
          `${name}  ${decoder.padEnd(11)} ${inBrowser.frames.length} frames (native ${native.length}), duration ${inBrowser.durationS.toFixed(3)} s (native ${inspected.probe.durationS.toFixed(3)} s)\n` +
            `    browser key frames ${JSON.stringify(inBrowser.keyFrames)}  native ${JSON.stringify(nativeKeys)}  ${same ? "SAME" : "DIFFERENT"}\n` +
            `    features: largest |difference| ${largest.toFixed(4)}, mean feature distance ${(sum / Math.max(1, inBrowser.frames.length)).toFixed(4)} (distances lie in [0, 1.414])`,
        );
      }
    }
    await page.close();
  }

  if (!values["skip-throughput"]) {
    const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
    const server = await startTestServer();
    const database = await createTestDatabase(server, "bench_import");
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
    try {
      const user = await createUser(prisma, { email: "bench@example.test", password: "correct horse battery" });
      const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
      const project = await createProject(prisma, actor, { name: "bench import" });
      const loadBefore = load();
      const cpuBefore = treeCpuSeconds(process.pid);
      const summary = await importFolders({
        roots: [folder],
        target: localTarget(
          { prisma, storage: getStorage() },
          await projectAccess(prisma, actor, project.id, "videos.import"),
        ),
        parameters: PARAMETERS,
        concurrency: 2,
      });
      const headlessS = summary.elapsedMs / 1000;
      const headlessCpu = treeCpuSeconds(process.pid) - cpuBefore;
      console.log(
        `\nHeadless import (in-process, native ffmpeg, 2 at once; hash, probe, upload, extraction, frames stored): ${summary.counts.imported}/${COUNT} imported in ${headlessS.toFixed(1)} s = ${(summary.counts.imported / headlessS).toFixed(2)} clips/s, ${(headlessCpu / COUNT).toFixed(2)} CPU s per clip without PostgreSQL's (load before ${loadBefore}, after ${load()})`,
      );
      const names = fs.readdirSync(folder).sort();
      const extractionStarted = performance.now();
      const extractionCpuBefore = treeCpuSeconds(process.pid);
      await Promise.all(
        [0, 1].map(async () => {
          for (let name = names.shift(); name; name = names.shift())
            await extractFrameSetFromFile(path.join(folder, name), PARAMETERS);
        }),
      );
      const extractionS = (performance.now() - extractionStarted) / 1000;
      console.log(
        `Headless extraction only (native ffmpeg, 2 at once): ${COUNT} in ${extractionS.toFixed(1)} s = ${(COUNT / extractionS).toFixed(2)} clips/s, ${((treeCpuSeconds(process.pid) - extractionCpuBefore) / COUNT).toFixed(2)} CPU s per clip (load after ${load()})`,
      );
      await prisma.$disconnect();
    } finally {
      await database.drop();
      await server.stop();
    }

    const names = fs.readdirSync(folder).sort();
    const pages = [await openPage(), await openPage()];
    // The files are read into the pages first: the Import page has them on the local disk too.
    for (const page of pages)
      for (const name of names)
        await page.evaluate(
          (u) => (window as unknown as H).harness.preload(u),
          `/clips/T2VHaluBench/${encodeURIComponent(name)}`,
        );
    const loadBefore = load();
    const started = performance.now();
    const browserCpuBefore = treeCpuSeconds(process.pid);
    let extracted = 0;
    await Promise.all(
      pages.map(async (page) => {
        for (let name = names.shift(); name; name = names.shift()) {
          await browserPlan(page, `/clips/T2VHaluBench/${encodeURIComponent(name)}`);
          extracted += 1;
        }
      }),
    );
    const browserS = (performance.now() - started) / 1000;
    const browserCpu = treeCpuSeconds(process.pid) - browserCpuBefore;
    console.log(
      `Browser extraction (Chromium, WebCodecs, 2 pages at once, no upload): ${extracted}/${COUNT} in ${browserS.toFixed(1)} s = ${(extracted / browserS).toFixed(2)} clips/s, ${(browserCpu / COUNT).toFixed(2)} CPU s per clip, Chromium's processes included (load before ${loadBefore}, after ${load()})`,
    );
  }
} finally {
  await browser.close();
  await harness.close();
  fs.rmSync(work, { recursive: true, force: true });
}
