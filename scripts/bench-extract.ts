// Benchmark of the browser frame extraction (lib/browser-extraction) against native ffmpeg.
//   npm run bench:extract            (tsx scripts/bench-extract.ts)
// Generates a 10 s 720p and a 10 s 1080p H.264 clip (30 fps) with native ffmpeg, then samples 2 frames per
// second (20 frames, at 0, 0.5, … 9.5 s) at the app's default output size (longest side 768, JPEG ≈ q 0.85):
//   - in headless Chromium through the e2e harness (e2e/harness/): the WebCodecs path, and the ffmpeg.wasm
//     path (single-thread core; and the multi-thread core on a cross-origin isolated page) for reference;
//   - with native ffmpeg on the same files: fps=2:round=up (the same frames), scaled to the same size,
//     -q:v 3, one process per run (wall time including process start).
// Each configuration is warmed up once, then timed 3 times; the median is printed. Numbers only, no assertions.
//
// Then agreement: the three shared T2VHaluBench samples (../shared/samples, next to the repository) extracted as a
// default density-peaks key-frame set by WebCodecs, ffmpeg.wasm and native ffmpeg (e2e/harness/key-frame-sets.ts),
// each backend's time beside how often its sampled frame indices, features, key frames and clusters equal the
// WebCodecs ones (the backend-equality spec, e2e/backend-equality.spec.ts, asserts 100%).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import type { Harness as HarnessApi } from "../e2e/harness/extraction-harness";
import { CHROMIUM_ARGS, CHROMIUM_PATH, startHarness } from "../e2e/harness/harness-server";
import {
  agreement,
  BACKENDS,
  DEFAULT_PARAMETERS,
  keyFrameSetOf,
  SHARED_CLIPS,
  SHARED_SAMPLES,
  type BackendSet,
} from "../e2e/harness/key-frame-sets";

const RUNS = 3;
const MAX_SIDE = 768;
const JPEG_QUALITY = 0.85;
const SAMPLE_FPS = 2;
const DURATION_S = 10;
const CLIP_FPS = 30;
const TIMESTAMPS = Array.from({ length: DURATION_S * SAMPLE_FPS }, (_, i) => i / SAMPLE_FPS);

type Decoder = "webcodecs" | "ffmpeg.wasm";
type H = { harness: HarnessApi };

function ffmpeg(args: string[]) {
  const result = spawnSync("ffmpeg", ["-hide_banner", "-v", "error", "-y", ...args]);
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(" ")}: ${result.stderr.toString()}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function outputSize(width: number, height: number) {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** One native run: wall time in ms and the number of JPEGs written. */
function nativeRun(file: string, width: number, height: number, outDir: string): { ms: number; frames: number } {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir);
  const size = outputSize(width, height);
  const scale = size.width === width && size.height === height ? "" : `,scale=${size.width}:${size.height}:flags=area`;
  const start = performance.now();
  ffmpeg(["-i", file, "-vf", `fps=${SAMPLE_FPS}:round=up${scale}`, "-q:v", "3", path.join(outDir, "out%03d.jpg")]);
  const ms = performance.now() - start;
  return { ms, frames: fs.readdirSync(outDir).length };
}

async function browserRun(page: Page, clip: string, decoder: Decoder) {
  const result = await page.evaluate(
    ([url, ts, maxSide, jpegQuality, forceDecoder]) =>
      (window as unknown as H).harness.sample(url, ts, { maxSide, jpegQuality, forceDecoder }),
    [`/clips/${clip}`, TIMESTAMPS, MAX_SIDE, JPEG_QUALITY, decoder] as const,
  );
  if (!result.ok) throw new Error(`${clip} ${decoder}: ${result.code}: ${result.message}`);
  const first = result.value.frames[0]!;
  return {
    ms: result.ms,
    frames: result.value.frames.length,
    size: `${first.width}x${first.height}`,
    decoder: result.value.decoder,
  };
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-bench-"));
  const clips = [
    { name: "720p.mp4", width: 1280, height: 720 },
    { name: "1080p.mp4", width: 1920, height: 1080 },
  ];
  console.log(
    `bench-extract: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; generating clips in ${work}`,
  );
  for (const clip of clips) {
    ffmpeg([
      "-f",
      "lavfi",
      "-i",
      `testsrc2=size=${clip.width}x${clip.height}:rate=${CLIP_FPS}:duration=${DURATION_S}`,
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
      "-pix_fmt",
      "yuv420p",
      "-movflags",
      "+faststart",
      path.join(work, clip.name),
    ]);
  }

  const plain = await startHarness({ clipsDir: work });
  const isolated = await startHarness({ clipsDir: work, isolated: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const rows: string[][] = [];
  try {
    const open = async (url: string) => {
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await page.waitForFunction(() => "harness" in window);
      for (const clip of clips)
        await page.evaluate((u) => (window as unknown as H).harness.preload(u), `/clips/${clip.name}`);
      return page;
    };
    const plainPage = await open(plain.url);
    const isolatedPage = await open(isolated.url);
    if (!(await isolatedPage.evaluate(() => (window as unknown as H).harness.crossOriginIsolated())))
      throw new Error("the isolated harness page is not cross-origin isolated");

    for (const clip of clips) {
      const clipFile = path.join(work, clip.name);
      const outDir = path.join(work, "native-out");
      const size = outputSize(clip.width, clip.height);
      nativeRun(clipFile, clip.width, clip.height, outDir); // warm-up
      const native = Array.from({ length: RUNS }, () => nativeRun(clipFile, clip.width, clip.height, outDir));
      const nativeMs = median(native.map((r) => r.ms));
      const configs: [string, Page, Decoder][] = [
        ["webcodecs", plainPage, "webcodecs"],
        ["ffmpeg.wasm (1 thread)", plainPage, "ffmpeg.wasm"],
        ["ffmpeg.wasm (threads, isolated)", isolatedPage, "ffmpeg.wasm"],
      ];
      const add = (decoder: string, ms: number, frames: number, outSize: string) =>
        rows.push([
          clip.name.replace(".mp4", ""),
          decoder,
          (ms / 1000).toFixed(2),
          (frames / (ms / 1000)).toFixed(1),
          ((DURATION_S * CLIP_FPS) / (ms / 1000)).toFixed(0),
          (ms / nativeMs).toFixed(2),
          `${frames} @ ${outSize}`,
        ]);
      for (const [label, page, decoder] of configs) {
        await browserRun(page, clip.name, decoder); // warm-up (also loads the ffmpeg core once)
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await browserRun(page, clip.name, decoder));
        const last = runs.at(-1)!;
        if (last.decoder !== decoder) throw new Error(`${clip.name}: asked for ${decoder}, got ${last.decoder}`);
        add(label, median(runs.map((r) => r.ms)), last.frames, last.size);
      }
      add("native ffmpeg", nativeMs, native.at(-1)!.frames, `${size.width}x${size.height}`);
    }
  } finally {
    await browser.close();
    await plain.close();
    await isolated.close();
    fs.rmSync(work, { recursive: true, force: true });
  }

  const header = ["clip", "decoder", "wall s", "frames/s", "video fps decoded", "ratio vs native", "output"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(
    `\nSampling ${TIMESTAMPS.length} frames (${SAMPLE_FPS} fps) from ${DURATION_S} s ${CLIP_FPS} fps H.264 clips, longest side ${MAX_SIDE}, median of ${RUNS} after 1 warm-up:\n`,
  );
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  console.log(
    "\nframes/s = sampled JPEGs per second; video fps decoded = the clip's frames (all decoded) per second; ratio = browser wall time / native wall time.",
  );
}

/** The shared samples through every backend: speed and agreement with WebCodecs. */
async function agreementOnSharedSamples() {
  const missing = SHARED_CLIPS.filter((clip) => !fs.existsSync(path.join(SHARED_SAMPLES, clip)));
  if (missing.length > 0) {
    console.log(`\nAgreement: skipped, ${missing.join(", ")} not in ${SHARED_SAMPLES}.`);
    return;
  }
  const harness = await startHarness({ clipsDir: SHARED_SAMPLES });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const rows: string[][] = [];
  const totals = new Map<string, { same: number; of: number }>();
  try {
    const page = await browser.newPage();
    await page.goto(`${harness.url}/`);
    await page.waitForFunction(() => "harness" in window);
    for (const clip of SHARED_CLIPS)
      await page.evaluate((u) => (window as unknown as H).harness.preload(u), `/clips/${clip}`);
    // Warm-up: loads the ffmpeg core once, so its time is not counted against the first clip.
    await keyFrameSetOf(page, SHARED_SAMPLES, SHARED_CLIPS[0]!, "ffmpeg.wasm");
    for (const clip of SHARED_CLIPS) {
      const sets: BackendSet[] = [];
      for (const backend of BACKENDS) sets.push(await keyFrameSetOf(page, SHARED_SAMPLES, clip, backend));
      const reference = sets[0]!;
      for (const set of sets) {
        const agreed = agreement(reference, set);
        const cells = Object.entries(agreed).map(([what, { same, of }]) => {
          const total = totals.get(what) ?? { same: 0, of: 0 };
          if (set !== reference) totals.set(what, { same: total.same + same, of: total.of + of });
          return `${same}/${of}`;
        });
        rows.push([
          clip.replace(".mp4", ""),
          set.backend,
          set.decoderVersion,
          (set.ms / 1000).toFixed(2),
          ...cells,
          `${set.keyFrameIndices.join(",")}`,
        ]);
      }
    }
  } finally {
    await browser.close();
    await harness.close();
  }
  const header = [
    "clip",
    "backend",
    "version",
    "wall s",
    "sampled",
    "features",
    "key frames",
    "clusters",
    "key frame indices",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(
    `\nAgreement with WebCodecs on ${SHARED_CLIPS.length} shared samples (default density-peaks set: ${DEFAULT_PARAMETERS.sampleFps} fps, ${DEFAULT_PARAMETERS.keyFrames} key frames, ±${DEFAULT_PARAMETERS.neighbours} neighbours), one run each:\n`,
  );
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  const percent = (what: string) => {
    const { same, of } = totals.get(what) ?? { same: 0, of: 0 };
    return of === 0 ? "n/a" : `${((100 * same) / of).toFixed(1)}%`;
  };
  console.log(
    `\nffmpeg.wasm and native ffmpeg against WebCodecs: sampled frames ${percent("sampledFrames")}, features ${percent("features")}, key frames ${percent("keyFrames")}, clusters ${percent("clusters")} agree.`,
  );
}

await main();
await agreementOnSharedSamples();
