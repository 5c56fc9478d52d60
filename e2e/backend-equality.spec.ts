// One frame set whatever decoded the clip: the shared T2VHaluBench samples (../shared/samples, next to the
// repository) sampled for a default density-peaks set by WebCodecs and ffmpeg.wasm in headless Chromium
// (through the esbuild harness in e2e/harness/) and by native ffmpeg in Node must give the same sampled frame
// indices, the same features bit for bit, the same key frames and the same clusters (docs/guide/frames.md).
//   npx playwright test --config e2e/harness/playwright.config.ts e2e/backend-equality.spec.ts
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { nativeTools } from "../lib/bulk-import/ffmpeg-tools";
import { inspectVideoFile, sampleKeyFrameSetFile } from "../lib/bulk-import/native-extraction";
import { densityPeaksParametersSchema } from "../lib/frames/frame-set-parameters";
import { planFrameSet } from "../lib/frames/plan-frame-set";
import type { Harness as HarnessApi } from "./harness/extraction-harness";
import { startHarness, type Harness } from "./harness/harness-server";

const SAMPLES = path.resolve(import.meta.dirname, "..", "..", "shared", "samples");
const CLIPS = ["t2vhalubench-5.mp4", "t2vhalubench-12.mp4", "t2vhalubench-31.mp4"];
const PARAMETERS = densityPeaksParametersSchema.parse({ mode: "density-peaks" });
type H = { harness: HarnessApi };

interface BackendSet {
  decoder: string;
  durationS: number;
  frameIndices: number[];
  features: number[][];
  keyFrameIndices: number[];
  clusters: (number | null)[];
}

function planned(decoder: string, durationS: number, frames: { timestampS: number; frameIndex: number; features: ArrayLike<number> }[]): BackendSet {
  const plan = planFrameSet(
    PARAMETERS,
    frames.map((frame) => ({ timestampS: frame.timestampS, features: Float32Array.from(frame.features) })),
    durationS,
  );
  return {
    decoder,
    durationS,
    frameIndices: frames.map((frame) => frame.frameIndex),
    features: frames.map((frame) => Array.from(frame.features)),
    keyFrameIndices: plan.keyFrameIndices,
    clusters: plan.frames.map((frame) => frame.cluster),
  };
}

let harness: Harness;
let browser: Browser;
let page: Page;

test.describe("one frame set whatever the backend", () => {
  test.beforeAll(async ({ playwright }) => {
    for (const clip of CLIPS) expect(fs.existsSync(path.join(SAMPLES, clip)), `${clip} in ${SAMPLES}`).toBe(true);
    harness = await startHarness({ clipsDir: SAMPLES });
    browser = await playwright.chromium.launch();
    page = await browser.newPage();
    await page.goto(`${harness.url}/`);
    await page.waitForFunction(() => "harness" in window);
  });
  test.afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  for (const clip of CLIPS) {
    test(`${clip}: WebCodecs, ffmpeg.wasm and native ffmpeg sample, describe and pick the same frames`, async () => {
      test.setTimeout(180_000);
      const sets: BackendSet[] = [];
      for (const decoder of ["webcodecs", "ffmpeg.wasm"] as const) {
        const result = await page.evaluate(
          ([url, fps, maxSide, jpegQuality, forceDecoder]) => (window as unknown as H).harness.keyFrameSet(url, fps, { maxSide, jpegQuality, forceDecoder }),
          [`/clips/${clip}`, PARAMETERS.sampleFps, PARAMETERS.maxSide, PARAMETERS.jpegQuality, decoder] as const,
        );
        if (!result.ok) throw new Error(`${clip} with ${decoder}: ${result.code}: ${result.message}`);
        expect(result.value.decoder).toBe(decoder);
        expect(result.value.decoderVersion).toMatch(decoder === "webcodecs" ? /^Chrome \d+/ : /^ffmpeg \S+/);
        sets.push(planned(decoder, result.value.durationS, result.value.frames));
      }
      const file = path.join(SAMPLES, clip);
      const inspected = await inspectVideoFile(file, undefined, nativeTools);
      const native = await sampleKeyFrameSetFile(file, inspected, PARAMETERS.sampleFps, { maxSide: PARAMETERS.maxSide, jpegQuality: PARAMETERS.jpegQuality, tools: nativeTools });
      sets.push(planned("native ffmpeg", native.durationS, native.frames));

      const [webcodecs, ...others] = sets;
      expect(webcodecs!.frameIndices.length).toBeGreaterThan(8);
      expect(webcodecs!.keyFrameIndices.length).toBeGreaterThan(2);
      // The sampled frames are distinct pictures, so equal key frames are not an accident of flat features.
      expect(new Set(webcodecs!.features.map((features) => features.join(","))).size).toBeGreaterThan(webcodecs!.frameIndices.length / 2);
      for (const other of others) {
        const label = `${clip}: ${other.decoder} against webcodecs`;
        expect(other.durationS, label).toBe(webcodecs!.durationS);
        expect(other.frameIndices, label).toEqual(webcodecs!.frameIndices);
        expect(other.features, label).toEqual(webcodecs!.features);
        expect(other.keyFrameIndices, label).toEqual(webcodecs!.keyFrameIndices);
        expect(other.clusters, label).toEqual(webcodecs!.clusters);
      }
    });
  }
});
