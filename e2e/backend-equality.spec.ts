// One frame set whatever decoded the clip: the shared T2VHaluBench samples (../shared/samples, next to the
// repository) sampled for a default density-peaks set by WebCodecs and ffmpeg.wasm in headless Chromium
// (through the esbuild harness in e2e/harness/) and by native ffmpeg in Node must give the same sampled frame
// indices, the same features bit for bit, the same key frames and the same clusters (docs/guide/frames.md).
//   npx playwright test --config e2e/harness/playwright.config.ts e2e/backend-equality.spec.ts
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { BACKENDS, keyFrameSetOf, SHARED_CLIPS, SHARED_SAMPLES, type BackendSet } from "./harness/key-frame-sets";
import { startHarness, type Harness } from "./harness/harness-server";

let harness: Harness;
let browser: Browser;
let page: Page;

test.describe("one frame set whatever the backend", () => {
  test.beforeAll(async ({ playwright }) => {
    for (const clip of SHARED_CLIPS)
      expect(fs.existsSync(path.join(SHARED_SAMPLES, clip)), `${clip} in ${SHARED_SAMPLES}`).toBe(true);
    harness = await startHarness({ clipsDir: SHARED_SAMPLES });
    browser = await playwright.chromium.launch();
    page = await browser.newPage();
    await page.goto(`${harness.url}/`);
    await page.waitForFunction(() => "harness" in window);
  });
  test.afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  for (const clip of SHARED_CLIPS) {
    test(`${clip}: WebCodecs, ffmpeg.wasm and native ffmpeg sample, describe and pick the same frames`, async () => {
      test.setTimeout(180_000);
      const sets: BackendSet[] = [];
      for (const backend of BACKENDS) sets.push(await keyFrameSetOf(page, SHARED_SAMPLES, clip, backend));

      const [webcodecs, ffmpegWasm, native] = sets as [BackendSet, BackendSet, BackendSet];
      expect(webcodecs.decoderVersion).toMatch(/^Chrome \d+/);
      expect(ffmpegWasm.decoderVersion).toMatch(/^ffmpeg \d/);
      expect(native.decoderVersion).toMatch(/^ffmpeg \d/);
      expect(webcodecs.frameIndices.length).toBeGreaterThan(8);
      expect(webcodecs.keyFrameIndices.length).toBeGreaterThan(2);
      // The sampled frames are distinct pictures, so equal key frames are not an accident of flat features.
      expect(new Set(webcodecs.features.map((features) => features.join(","))).size).toBeGreaterThan(
        webcodecs.frameIndices.length / 2,
      );
      for (const other of [ffmpegWasm, native]) {
        const label = `${clip}: ${other.backend} against webcodecs`;
        expect(other.durationS, label).toBe(webcodecs.durationS);
        expect(other.frameIndices, label).toEqual(webcodecs.frameIndices);
        expect(other.features, label).toEqual(webcodecs.features);
        expect(other.keyFrameIndices, label).toEqual(webcodecs.keyFrameIndices);
        expect(other.clusters, label).toEqual(webcodecs.clusters);
      }
    });
  }

  test("a clip with rotation metadata (90° and 270°): WebCodecs turns its feature grid as ffmpeg turns the picture", async () => {
    test.setTimeout(180_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-rotated-"));
    const rotated = await startHarness({ clipsDir: dir });
    try {
      const ffmpeg = (args: string[]) => execFileSync("ffmpeg", ["-hide_banner", "-v", "error", "-y", ...args]);
      ffmpeg([
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=320x180:rate=24:duration=3",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p",
        path.join(dir, "plain.mp4"),
      ]);
      // ffmpeg 5.1 writes the display matrix from `rotate` only when remuxing.
      for (const degrees of [90, 270])
        ffmpeg([
          "-i",
          path.join(dir, "plain.mp4"),
          "-c",
          "copy",
          "-metadata:s:v:0",
          `rotate=${degrees}`,
          path.join(dir, `rot${degrees}.mp4`),
        ]);
      const rotatedPage = await browser.newPage();
      await rotatedPage.goto(`${rotated.url}/`);
      await rotatedPage.waitForFunction(() => "harness" in window);
      const firstFrames: string[] = [];
      for (const clip of ["rot90.mp4", "rot270.mp4"]) {
        const sets: BackendSet[] = [];
        for (const backend of BACKENDS) sets.push(await keyFrameSetOf(rotatedPage, dir, clip, backend));
        const [webcodecs, ...others] = sets as [BackendSet, ...BackendSet[]];
        for (const other of others) {
          expect(other.features, `${clip}: ${other.backend}`).toEqual(webcodecs.features);
          expect(other.keyFrameIndices, `${clip}: ${other.backend}`).toEqual(webcodecs.keyFrameIndices);
        }
        firstFrames.push(webcodecs.features[0]!.join(","));
      }
      // Turned both ways the picture differs, so equal features above mean both sides turned it the same way.
      expect(firstFrames[0]).not.toBe(firstFrames[1]);
    } finally {
      await rotated.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
