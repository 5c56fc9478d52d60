// One frame set whatever decoded the clip: the shared T2VHaluBench samples (../shared/samples, next to the
// repository) sampled for a default density-peaks set by WebCodecs and ffmpeg.wasm in headless Chromium
// (through the esbuild harness in e2e/harness/) and by native ffmpeg in Node must give the same sampled frame
// indices, the same features bit for bit, the same key frames and the same clusters (docs/guide/frames.md).
//   npx playwright test --config e2e/harness/playwright.config.ts e2e/backend-equality.spec.ts
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { BACKENDS, keyFrameSetOf, SHARED_CLIPS, SHARED_SAMPLES, type BackendSet } from "./harness/key-frame-sets";
import { startHarness, type Harness } from "./harness/harness-server";

let harness: Harness;
let browser: Browser;
let page: Page;

test.describe("one frame set whatever the backend", () => {
  test.beforeAll(async ({ playwright }) => {
    for (const clip of SHARED_CLIPS) expect(fs.existsSync(path.join(SHARED_SAMPLES, clip)), `${clip} in ${SHARED_SAMPLES}`).toBe(true);
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
      expect(new Set(webcodecs.features.map((features) => features.join(","))).size).toBeGreaterThan(webcodecs.frameIndices.length / 2);
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
});
