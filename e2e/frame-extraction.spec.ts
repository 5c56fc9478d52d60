// Browser frame extraction (lib/browser-extraction) in headless Chromium, through the esbuild harness in
// e2e/harness/ (not the Next.js app: this spec ignores baseURL). Clips are generated with native ffmpeg.
//
// The test clips show their frame number N as 10 big black/white bit cells across the top quarter, so the
// frame a decoder returned can be read back exactly from its JPEG; the rest of the picture is testsrc2,
// compared pixel-wise with native ffmpeg's decode of the same frame.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { FRAME_FEATURE_LENGTH, featureDistance } from "../lib/frames/frame-features";
import type { HarnessFrame, HarnessResult } from "./harness/extraction-harness";
import { startHarness, type Harness } from "./harness/harness-server";

type Decoder = "webcodecs" | "ffmpeg.wasm";
const DECODERS: Decoder[] = ["webcodecs", "ffmpeg.wasm"];
const GW = 64;
const GH = 36;
const FPS = 25;

// Y of the top quarter encodes bit k of N in column k of 10; chroma neutral there. Bottom: testsrc2.
const BITS_FILTER =
  "format=yuv420p,geq=lum='if(lt(Y,H/4),if(mod(floor(N/pow(2,floor(X*10/W))),2),235,16),lum(X,Y))':cb='if(lt(Y,H/4),128,cb(X,Y))':cr='if(lt(Y,H/4),128,cr(X,Y))'";

function ffmpeg(args: string[]): Buffer {
  const result = spawnSync("ffmpeg", ["-hide_banner", "-v", "error", "-y", ...args], { maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(" ")} failed: ${result.stderr.toString()}`);
  return result.stdout;
}

/** Frame number drawn in the top band of a GW×GH gray image. */
function frameNumber(gray: number[]): number {
  let n = 0;
  for (let k = 0; k < 10; k++) if ((gray[4 * GW + Math.floor(6.4 * k + 3.2)] ?? 0) > 128) n |= 1 << k;
  return n;
}

function meanAbsDiff(a: number[], b: number[]): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Native ffmpeg's decode of every shown frame of a clip, as GW×GH gray, keyed by the frame number it shows. */
function nativeFrames(file: string): Map<number, number[]> {
  const raw = ffmpeg([
    "-i",
    file,
    "-map",
    "0:v:0",
    "-vf",
    `scale=${GW}:${GH}:flags=area`,
    "-pix_fmt",
    "rgb24",
    "-f",
    "rawvideo",
    "-",
  ]);
  const size = GW * GH * 3;
  const byNumber = new Map<number, number[]>();
  for (let offset = 0; offset + size <= raw.length; offset += size) {
    const gray: number[] = [];
    for (let p = offset; p < offset + size; p += 3)
      gray.push(Math.round(0.299 * raw[p]! + 0.587 * raw[p + 1]! + 0.114 * raw[p + 2]!));
    byNumber.set(frameNumber(gray), gray);
  }
  return byNumber;
}

let clips: string;
let harness: Harness;
let page: Page;
const native = new Map<string, Map<number, number[]>>();

async function openHarness(browser: Browser, h: Harness): Promise<Page> {
  const p = await browser.newPage();
  p.on("pageerror", (error) => console.log(`[harness page error] ${error.message}`));
  await p.goto(`${h.url}/`);
  await p.waitForFunction(() => "harness" in window);
  return p;
}

type H = { harness: import("./harness/extraction-harness").Harness };

function probe(p: Page, clip: string, forceDecoder?: Decoder) {
  return p.evaluate(([url, d]) => (window as unknown as H).harness.probe(url, d), [
    `/clips/${clip}`,
    forceDecoder,
  ] as const);
}

function sample(
  p: Page,
  clip: string,
  timestampsS: number[],
  opts: { maxSide: number; jpegQuality?: number; forceDecoder?: Decoder },
) {
  return p.evaluate(
    ([url, ts, o]) =>
      (window as unknown as H).harness.sample(url, ts, { jpegQuality: 0.9, ...o, grayWidth: 64, grayHeight: 36 }),
    [`/clips/${clip}`, timestampsS, opts] as const,
  );
}

function ok<T>(result: HarnessResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return result.value;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  clips = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-clips-"));
  const c = (name: string) => path.join(clips, name);
  // 4 s 640×360 25 fps H.264 (B-frames, so an edit list) with AAC audio.
  ffmpeg([
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=640x360:rate=${FPS}:duration=4,${BITS_FILTER}`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:duration=4",
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    c("bits.mp4"),
  ]);
  ffmpeg([
    "-i",
    c("bits.mp4"),
    "-an",
    "-c:v",
    "libvpx-vp9",
    "-deadline",
    "realtime",
    "-cpu-used",
    "8",
    "-b:v",
    "600k",
    c("bits.webm"),
  ]);
  // 8 s with a keyframe every second (seeking), and a stream-copy cut whose edit list starts mid-frame.
  ffmpeg([
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=640x360:rate=${FPS}:duration=8,${BITS_FILTER}`,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-g",
    "25",
    "-pix_fmt",
    "yuv420p",
    c("gop.mp4"),
  ]);
  ffmpeg(["-ss", "1.02", "-i", c("gop.mp4"), "-c", "copy", c("cut.mp4")]);
  // Neither demuxable by mediabunny (AVI) nor decodable by WebCodecs (MPEG-4 Part 2): ffmpeg.wasm only.
  ffmpeg(["-i", c("bits.mp4"), "-an", "-c:v", "mpeg4", "-q:v", "3", c("mpeg4.avi")]);
  // Bad inputs.
  fs.writeFileSync(c("empty.mp4"), "");
  fs.writeFileSync(c("text.mp4"), "This is a plain text file that was renamed to .mp4.\nIt has no video in it.\n");
  ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", "aac", c("audio.m4a")]);
  const plain = fs.readFileSync(c("bits.mp4")); // moov at the end
  fs.writeFileSync(c("truncated.mp4"), plain.subarray(0, Math.floor(plain.length * 0.4)));
  ffmpeg(["-i", c("bits.mp4"), "-c", "copy", "-movflags", "+faststart", c("faststart.mp4")]);
  const faststart = fs.readFileSync(c("faststart.mp4"));
  fs.writeFileSync(c("truncated-faststart.mp4"), faststart.subarray(0, Math.floor(faststart.length * 0.4)));
  const garbage = Buffer.from(faststart);
  let seed = 12345;
  for (let i = Math.floor(garbage.length * 0.3); i < Math.floor(garbage.length * 0.7); i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    garbage[i] = seed & 0xff;
  }
  fs.writeFileSync(c("garbage.mp4"), garbage);

  for (const clip of ["bits.mp4", "bits.webm", "gop.mp4", "cut.mp4", "mpeg4.avi"])
    native.set(clip, nativeFrames(c(clip)));
  harness = await startHarness({ clipsDir: clips });
  page = await openHarness(browser, harness);
});

test.afterAll(async () => {
  await page?.close();
  await harness?.close();
  if (clips) fs.rmSync(clips, { recursive: true, force: true });
});

test("native reference frames carry readable frame numbers", () => {
  // Guards the comparisons below: each native frame must decode to a distinct frame number.
  expect([...native.get("bits.mp4")!.keys()]).toEqual(Array.from({ length: 100 }, (_, i) => i));
  expect([...native.get("bits.webm")!.keys()]).toEqual(Array.from({ length: 100 }, (_, i) => i));
  // The cut starts at 1.02 s, inside frame 25: like <video>, ffmpeg starts the cut at frame 26.
  const cut = [...native.get("cut.mp4")!.keys()];
  expect(cut[0]).toBe(26);
  expect(cut.at(-1)).toBe(199);
});

test("probe reports duration, fps, size, codec, container and frame count with both decoders", async () => {
  for (const decoder of DECODERS) {
    const mp4 = ok(await probe(page, "bits.mp4", decoder));
    expect(mp4.decoder).toBe(decoder);
    expect(mp4.probe.durationS).toBeCloseTo(4, 1);
    expect(mp4.probe.fps).toBeCloseTo(25, 2);
    expect(mp4.probe).toMatchObject({
      width: 640,
      height: 360,
      codec: "avc",
      container: "mp4",
      frameCount: 100,
      hasVideo: true,
      hasAudio: true,
    });

    const webm = ok(await probe(page, "bits.webm", decoder));
    expect(webm.decoder).toBe(decoder);
    expect(webm.probe.durationS).toBeCloseTo(4, 1);
    expect(webm.probe.fps).toBeCloseTo(25, 2);
    expect(webm.probe).toMatchObject({
      width: 640,
      height: 360,
      codec: "vp9",
      container: "webm",
      frameCount: 100,
      hasVideo: true,
      hasAudio: false,
    });
  }
  // Without forcing, the fast path is used when it can be, ffmpeg.wasm when it cannot.
  expect(ok(await probe(page, "bits.mp4")).decoder).toBe("webcodecs");
  const avi = ok(await probe(page, "mpeg4.avi"));
  expect(avi.decoder).toBe("ffmpeg.wasm");
  expect(avi.probe).toMatchObject({
    width: 640,
    height: 360,
    codec: "mpeg4",
    container: "avi",
    frameCount: 100,
    hasVideo: true,
    hasAudio: false,
  });
  expect(avi.probe.fps).toBeCloseTo(25, 2);
});

const TIMES = [0, 0.01, 0.5, 1.0, 1.03, 2.019, 2.021, 3.97, 10];

for (const clip of ["bits.mp4", "bits.webm", "cut.mp4"]) {
  test(`${clip}: both decoders return the frame <video> shows at each time, matching native ffmpeg's pixels`, async () => {
    test.setTimeout(90_000);
    const reference = native.get(clip)!;
    const shown = await page.evaluate(
      ([url, ts]) => (window as unknown as H).harness.videoElementFrames(url, ts, 64, 36),
      [`/clips/${clip}`, TIMES] as const,
    );
    const videoNumbers = shown.frames.map((f) => frameNumber(f.gray));
    // Expected from the clip's construction: frame floor(t·25) (offset by 26 in the cut), clamped to the last frame.
    const first = clip === "cut.mp4" ? 26 : 0;
    const last = clip === "cut.mp4" ? 199 : 99;
    const expected = TIMES.map((t) => Math.min(last, first + Math.floor(t * FPS + 1e-9)));
    expect(videoNumbers).toEqual(expected);

    const byDecoder = new Map<Decoder, HarnessFrame[]>();
    for (const decoder of DECODERS) {
      const result = ok(await sample(page, clip, TIMES, { maxSide: 320, forceDecoder: decoder }));
      expect(result.decoder).toBe(decoder);
      expect(result.frames.map((f) => f.timestampS)).toEqual(TIMES);
      expect(
        result.frames.map((f) => frameNumber(f.gray)),
        `${decoder} frame numbers`,
      ).toEqual(expected);
      // frameTimestampS is the start of the returned frame's display interval, ≤ t (first frame excepted).
      for (const [i, f] of result.frames.entries()) {
        expect(f.frameTimestampS).toBeCloseTo((expected[i]! - first) / FPS, 4);
      }
      for (const [i, f] of result.frames.entries()) {
        expect([f.width, f.height, f.decodedWidth, f.decodedHeight]).toEqual([320, 180, 320, 180]);
        expect(f.jpegType).toBe("image/jpeg");
        expect(f.features).toHaveLength(FRAME_FEATURE_LENGTH);
        expect(f.features.every(Number.isFinite)).toBe(true);
        // Pixels: close to native ffmpeg's decode of the same frame, and closer to it than to its neighbours.
        const n = expected[i]!;
        const own = meanAbsDiff(f.gray, reference.get(n)!);
        expect(own, `${decoder} t=${TIMES[i]} MAD vs native frame ${n}`).toBeLessThan(6);
        for (const other of [n - 1, n + 1]) {
          if (reference.has(other)) expect(meanAbsDiff(f.gray, reference.get(other)!)).toBeGreaterThan(own + 3);
        }
        // And close to what <video> painted.
        expect(meanAbsDiff(f.gray, shown.frames[i]!.gray)).toBeLessThan(6);
      }
      expect(result.progress.at(-1)).toEqual([TIMES.length, TIMES.length]);
      byDecoder.set(decoder, result.frames);
    }
    // Features: the same frame from both decoders is near-identical; different frames are not.
    const [a, b] = [byDecoder.get("webcodecs")!, byDecoder.get("ffmpeg.wasm")!];
    const same = featureDistance(Float32Array.from(a[2]!.features), Float32Array.from(b[2]!.features));
    const different = featureDistance(Float32Array.from(a[2]!.features), Float32Array.from(a[7]!.features));
    expect(same).toBeLessThan(different / 4);
  });
}

test("resizing keeps aspect, never upscales, and the JPEG quality setting is applied", async () => {
  for (const decoder of DECODERS) {
    const big = ok(await sample(page, "bits.mp4", [1], { maxSide: 4096, forceDecoder: decoder })).frames[0]!;
    expect([big.width, big.height, big.decodedWidth, big.decodedHeight]).toEqual([640, 360, 640, 360]);
    const small = ok(await sample(page, "bits.mp4", [1], { maxSide: 100, forceDecoder: decoder })).frames[0]!;
    expect([small.width, small.height, small.decodedWidth, small.decodedHeight]).toEqual([100, 56, 100, 56]);
    const low = ok(await sample(page, "bits.mp4", [1], { maxSide: 640, jpegQuality: 0.3, forceDecoder: decoder }))
      .frames[0]!;
    const high = ok(await sample(page, "bits.mp4", [1], { maxSide: 640, jpegQuality: 0.95, forceDecoder: decoder }))
      .frames[0]!;
    expect(high.jpegBytes).toBeGreaterThan(low.jpegBytes * 1.5);
    expect(frameNumber(small.gray)).toBe(25);
  }
});

test("sparse samples on a long-GOP clip (ffmpeg.wasm seeks) and unsorted/duplicate timestamps", async () => {
  const times = [7.5, 0.1, 4.0, 4.0, 0.11, 6.999];
  const expected = times.map((t) => Math.floor(t * FPS + 1e-9));
  for (const decoder of DECODERS) {
    const result = ok(await sample(page, "gop.mp4", times, { maxSide: 320, forceDecoder: decoder }));
    expect(result.frames.map((f) => f.timestampS)).toEqual(times);
    expect(
      result.frames.map((f) => frameNumber(f.gray)),
      decoder,
    ).toEqual(expected);
    for (const [i, f] of result.frames.entries())
      expect(meanAbsDiff(f.gray, native.get("gop.mp4")!.get(expected[i]!)!)).toBeLessThan(6);
  }
});

test("files WebCodecs cannot handle fall back to ffmpeg.wasm automatically", async () => {
  const result = ok(await sample(page, "mpeg4.avi", [0.5, 2.02], { maxSide: 320 }));
  expect(result.decoder).toBe("ffmpeg.wasm");
  expect(result.frames.map((f) => frameNumber(f.gray))).toEqual([12, 50]);
  for (const f of result.frames)
    expect(meanAbsDiff(f.gray, native.get("mpeg4.avi")!.get(frameNumber(f.gray))!)).toBeLessThan(6);
  // Forcing WebCodecs on it fails clearly instead.
  const forced = await sample(page, "mpeg4.avi", [0.5], { maxSide: 320, forceDecoder: "webcodecs" });
  expect(forced.ok ? "resolved" : forced.code).toBe("unsupported_codec");
});

const BAD: [string, string, RegExp][] = [
  ["empty.mp4", "corrupt", /empty \(0 bytes\)/],
  ["text.mp4", "not_a_video", /not a video/i],
  ["audio.m4a", "audio_only", /only contains audio/],
  ["truncated.mp4", "corrupt", /damaged or truncated/],
  ["truncated-faststart.mp4", "corrupt", /damaged or truncated/],
];

for (const [clip, code, message] of BAD) {
  test(`${clip} is rejected as ${code} by probe and sample, with either decoder`, async () => {
    for (const decoder of [undefined, "ffmpeg.wasm"] as const) {
      const p = await probe(page, clip, decoder);
      expect(p.ok ? "resolved" : [p.name, p.code], `probe ${decoder ?? "auto"}`).toEqual(["ExtractionError", code]);
      if (!p.ok) expect(p.message).toMatch(message);
      const s = await sample(page, clip, [0.5, 1.5], { maxSide: 320, forceDecoder: decoder });
      expect(s.ok ? "resolved" : [s.name, s.code], `sample ${decoder ?? "auto"}`).toEqual(["ExtractionError", code]);
      if (!s.ok) expect(s.message).toMatch(message);
    }
  });
}

test("garbage bytes in the video data make sampling fail as corrupt with either decoder", async () => {
  for (const decoder of DECODERS) {
    const s = await sample(page, "garbage.mp4", [0.2, 1.5, 2.5, 3.5], { maxSide: 320, forceDecoder: decoder });
    expect(s.ok ? "resolved" : s.code, decoder).toBe("corrupt");
    if (!s.ok) expect(s.message).toMatch(/^The file is damaged or truncated: /);
  }
});

test("abort cancels promptly with code cancelled, and the extractor keeps working", async () => {
  const many = Array.from({ length: 80 }, (_, i) => i * 0.1);
  for (const [decoder, abortAfterMs] of [
    ["ffmpeg.wasm", 150],
    ["webcodecs", -1], // at the first progress event
  ] as const) {
    const result = ok(
      await page.evaluate(
        ([ts, d, ms]) =>
          (window as unknown as H).harness.cancel("/clips/gop.mp4", ts, {
            maxSide: 640,
            jpegQuality: 0.9,
            forceDecoder: d,
            abortAfterMs: ms,
          }),
        [many, decoder, abortAfterMs] as const,
      ),
    );
    expect(result.code, decoder).toBe("cancelled");
    // Rejected before anything queued after the abort ran, and no frame reported after it.
    expect(result.settledBeforeNextTask, decoder).toBe(true);
    expect(result.progressAfterAbort, decoder).toBe(0);
  }
  // An already-aborted signal rejects at once.
  const pre = ok(
    await page.evaluate(
      ([ts]) =>
        (window as unknown as H).harness.cancel("/clips/gop.mp4", ts, {
          maxSide: 640,
          jpegQuality: 0.9,
          abortAfterMs: 0,
        }),
      [many] as const,
    ),
  );
  expect(pre.code).toBe("cancelled");
  expect(pre.settledBeforeNextTask).toBe(true);
  expect(pre.progressAfterAbort).toBe(0);
  const after = ok(await sample(page, "bits.mp4", [2], { maxSide: 320 }));
  expect(frameNumber(after.frames[0]!.gray)).toBe(50);
  const afterFfmpeg = ok(await sample(page, "bits.mp4", [2], { maxSide: 320, forceDecoder: "ffmpeg.wasm" }));
  expect(frameNumber(afterFfmpeg.frames[0]!.gray)).toBe(50);
});

test("the single-thread ffmpeg core is used without cross-origin isolation", async () => {
  expect(await page.evaluate(() => (window as unknown as H).harness.crossOriginIsolated())).toBe(false);
  expect(harness.requests).toContain("/ffmpeg/core/ffmpeg-core.wasm");
  expect(harness.requests).not.toContain("/ffmpeg/core-mt/ffmpeg-core.wasm");
});

test("with COOP/COEP the multi-thread ffmpeg core is used and gives the same frames", async ({ browser }) => {
  test.setTimeout(120_000);
  const isolated = await startHarness({ clipsDir: clips, isolated: true });
  const isolatedPage = await openHarness(browser, isolated);
  try {
    expect(await isolatedPage.evaluate(() => (window as unknown as H).harness.crossOriginIsolated())).toBe(true);
    const result = ok(await sample(isolatedPage, "bits.mp4", TIMES, { maxSide: 320, forceDecoder: "ffmpeg.wasm" }));
    expect(result.frames.map((f) => frameNumber(f.gray))).toEqual(
      TIMES.map((t) => Math.min(99, Math.floor(t * FPS + 1e-9))),
    );
    expect(isolated.requests).toContain("/ffmpeg/core-mt/ffmpeg-core.wasm");
    expect(isolated.requests).toContain("/ffmpeg/core-mt/ffmpeg-core.worker.js");
    expect(isolated.requests).not.toContain("/ffmpeg/core/ffmpeg-core.wasm");
  } finally {
    await isolatedPage.close();
    await isolated.close();
  }
});

test("isolated page whose server forgets COEP on worker scripts: clear error, or single-thread fallback", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // ffmpeg's thread worker script lacks COEP: the multi-thread core would hang, so the single-thread core is used.
  const noThreads = await startHarness({ clipsDir: clips, isolated: true, omitWorkerCoep: "ffmpeg" });
  const noThreadsPage = await openHarness(browser, noThreads);
  try {
    expect(await noThreadsPage.evaluate(() => (window as unknown as H).harness.crossOriginIsolated())).toBe(true);
    const result = ok(await sample(noThreadsPage, "bits.mp4", [1.5], { maxSide: 320, forceDecoder: "ffmpeg.wasm" }));
    expect(frameNumber(result.frames[0]!.gray)).toBe(37);
    expect(noThreads.requests).toContain("/ffmpeg/core/ffmpeg-core.wasm");
    expect(noThreads.requests).not.toContain("/ffmpeg/core-mt/ffmpeg-core.wasm");
  } finally {
    await noThreadsPage.close();
    await noThreads.close();
  }
  // The extraction worker's own script lacks COEP: the browser refuses it; the caller gets a clear error.
  const blocked = await startHarness({ clipsDir: clips, isolated: true, omitWorkerCoep: "all" });
  const blockedPage = await openHarness(browser, blocked);
  try {
    const result = await sample(blockedPage, "bits.mp4", [1.5], { maxSide: 320 });
    expect(result.ok ? "resolved" : result.code).toBe("internal");
    if (!result.ok) expect(result.message).toMatch(/could not start.*Cross-Origin-Embedder-Policy/);
  } finally {
    await blockedPage.close();
    await blocked.close();
  }
});
