/**
 * The cost estimate's pure core on a toy pipeline: calls per step and scope as planned, steps computed or skipped
 * making none, a settled step counted as asked, and what the frames cost in each input mode by the stub's rule.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { estimateRun, type EstimatePlan } from "./cost-estimate";
import type { FrameRef, PipelineDefinition, StepDefinition, VideoContext } from "../../task-modules/pipeline-types";
import type { InputMode } from "../input-modes/index";
import { tilingNote } from "../media/frame-tiling";
import { tokenRuleFor } from "../endpoints/token-rules";

const frame = (index: number, cluster: number | null, isKeyFrame: boolean): FrameRef => ({
  id: `f${index}`,
  index,
  timestampS: index / 2,
  isKeyFrame,
  cluster,
  storageKey: `k${index}`,
  sha256: `h${index}`,
});

// Two key frames (0 and 3), each with a cluster of three frames.
const frames = [frame(0, null, true), frame(1, 0, false), frame(2, 0, false), frame(3, null, true), frame(4, 3, false)];
const context: VideoContext = {
  videoId: "v1",
  prompt: "a cat",
  dimensions: [],
  model: null,
  fps: 2,
  frameCount: 20,
  auxiliaryInfo: {},
  imageLimit: null,
  keyFrames: [frames[0]!, frames[3]!],
  clusters: [
    [frames[0]!, frames[1]!, frames[2]!],
    [frames[3]!, frames[4]!],
  ],
  frames,
  items: [],
  settings: {},
  // The clip's own duration unknown: its length is its frame count at its frame rate.
  clip: { storageKey: "v1.mp4", sha256: "c".repeat(64), sizeBytes: 1000, contentType: "video/mp4", durationS: null },
};

const step = (id: string, scope: StepDefinition["scope"], extra: Partial<StepDefinition> = {}): StepDefinition => ({
  id,
  label: id,
  scope,
  templateId: `toy/${id}`,
  schema: z.unknown(),
  dependsOn: () => [],
  input: (i, c) => ({
    values: {},
    frames: scope === "key_frame" ? [c.keyFrames[i]!] : scope === "cluster" ? c.clusters[i]! : c.keyFrames,
  }),
  ...extra,
});

const pipeline: PipelineDefinition = {
  id: "toy",
  label: "toy",
  task: {} as PipelineDefinition["task"],
  steps: [
    step("still", "key_frame"),
    step("moves", "cluster"),
    step("whole", "video"),
    step("gate", "video", { settle: (_input, _context, outputs) => (outputs.get("whole", 0) ? { no: true } : null) }),
    step("counted", "video", { compute: () => ({}) }),
    step("never", "video", { skipReason: () => "no prompt" }),
  ],
  summarize: () => ({}),
  metricValues: () => ({}),
};

/** Every template renders 40 characters: 10 tokens. */
const templates: EstimatePlan["templates"] = { get: () => ({ hash: "t", render: () => "x".repeat(40) }) };

function plan(inputMode: InputMode, overrides: Partial<EstimatePlan> = {}): EstimatePlan {
  return {
    pipeline,
    videos: [context],
    templates,
    endpoint: {
      baseUrl: "http://stub/v1",
      model: "stub-vision",
      imageDetail: "low",
      tokenRule: null,
      pricePer1kInput: 1,
      pricePer1kOutput: 2,
      capabilities: null,
    },
    inputMode,
    batch: false,
    frameSize: () => ({ width: 768, height: 432 }),
    outputHistory: new Map([["still", { mean: 50, low: 30, high: 80 }]]),
    standIns: new Map(),
    ...overrides,
  };
}

/** The text tokens of a call whose 40-character prompt ends with the engine's note (joined by a blank line). */
const textTokens = (note: string) => Math.ceil((40 + 2 + note.length) / 4);
const framesNote = (count: number, from: string, to: string) =>
  `(The ${count} frames are sent as one video, in order, from ${from} s to ${to} s: where this prompt speaks of images or frames, it means the frames of this video.)`;
const clipNote =
  "(The video is sent as one video clip, played from its first frame to its last: where this prompt speaks of images or frames, it means the frames of this video.)";

const byStep = (e: ReturnType<typeof estimateRun>) => new Map(e.steps.map((s) => [s.stepId, s]));

describe("the cost estimate's core", () => {
  it("counts a call per planned step that asks, and none for computed or skipped ones", () => {
    const estimate = estimateRun(plan("images"));
    expect(estimate.steps.map((s) => [s.stepId, s.calls])).toEqual([
      ["still", 2],
      ["moves", 2],
      ["whole", 1],
      // Settled only by an answer not known before the run: counted as asked.
      ["gate", 1],
    ]);
    expect(estimate.calls).toBe(6);
    // 2 + 5 + 2 + 2 pictures at 255, and 10 text tokens a call.
    expect(estimate.images).toBe(11);
    expect(estimate.inputTokens).toBe(11 * 255 + 6 * 10);
    // 50 tokens a call from history for "still", 300 for the rest.
    expect(estimate.outputTokens).toBe(2 * 50 + 4 * 300);
    expect(byStep(estimate).get("still")!.outputFrom).toBe("history");
    expect(estimate.costUsd).toBeCloseTo(estimate.inputTokens / 1000 + (estimate.outputTokens / 1000) * 2, 9);
    // The range: the history's 10th-90th percentiles for "still", 50-1,500 a call for steps with neither history nor schema.
    expect(byStep(estimate).get("still")!.outputTokensRange).toEqual([2 * 30, 2 * 80]);
    expect(estimate.outputTokensRange).toEqual([2 * 30 + 4 * 50, 2 * 80 + 4 * 1500]);
    expect(estimate.costUsdRange![0]).toBeCloseTo(
      estimate.inputTokens / 1000 + (estimate.outputTokensRange[0] / 1000) * 2,
      9,
    );
    expect(estimate.costUsdRange![1]).toBeCloseTo(
      estimate.inputTokens / 1000 + (estimate.outputTokensRange[1] / 1000) * 2,
      9,
    );
  });

  it("reads a step's answer length from its answer schema when the endpoint has no history of it", () => {
    const scored = step("scored", "video", {
      responseFormat: {
        type: "json_schema",
        json_schema: {
          name: "scored",
          strict: true,
          schema: {
            type: "object",
            properties: { score: { type: "integer" }, reason: { type: "string", maxLength: 200 } },
            required: ["score", "reason"],
          },
        },
      },
    });
    const estimate = estimateRun(plan("images", { pipeline: { ...pipeline, steps: [scored] } }));
    const only = estimate.steps[0]!;
    expect(only.outputFrom).toBe("schema");
    // {"score": 3, "reason": "…"}: braces 2, "score" 2 + 1 (2 at most) and 1-3 for the integer, "reason" 2 + 1
    // (2 at most) and 1-50 for the text.
    expect(only.outputTokensRange).toEqual([2 + 3 + 1 + 3 + 1, 2 + 4 + 3 + 4 + 50]);
    expect(only.outputTokens).toBe(2 + 4 + 2 + 4 + 25);
  });

  it("sends a step's frames as one video part in video-frames mode, a single frame still as a picture", () => {
    const e = byStep(estimateRun(plan("video-frames")));
    expect(e.get("still")).toMatchObject({ images: 2, videoFrames: 0, inputTokens: 2 * (255 + 10) });
    // Each video part's prompt ends with the engine's note on it, counted like the rest of the text.
    const moves = [framesNote(3, "0.00", "1.00"), framesNote(2, "1.50", "2.00")];
    expect(e.get("moves")).toMatchObject({
      images: 0,
      videoFrames: 5,
      inputTokens: 5 * 128 + textTokens(moves[0]!) + textTokens(moves[1]!),
    });
  });

  it("sends a whole-video step's clip in video-file mode (frames sampled and seconds), a cluster as a video part", () => {
    const e = byStep(estimateRun(plan("video-file")));
    // 20 frames at 2 fps: a 10 s clip, sampled at the step's 2 frames.
    expect(e.get("whole")).toMatchObject({
      videoFrames: 2,
      videoSeconds: 10,
      inputTokens: 2 * 128 + 10 * 16 + textTokens(clipNote),
    });
    expect(e.get("moves")).toMatchObject({ videoFrames: 5, videoSeconds: 0 });
  });

  it("sends pictures in every mode for a batch run, and one grid past the endpoint's image limit", () => {
    expect(byStep(estimateRun(plan("video-frames", { batch: true }))).get("moves")!.images).toBe(5);
    const capabilities = {
      images: "yes" as const,
      maxImages: 2,
      jsonMode: null,
      topLogprobs: null,
      usage: null,
      contextLength: null,
      latencyMs: 1,
      notes: [],
    } as unknown as EstimatePlan["endpoint"]["capabilities"];
    const limited = plan("images");
    const grid = byStep(estimateRun({ ...limited, endpoint: { ...limited.endpoint, capabilities } }));
    expect(grid.get("moves")).toMatchObject({ calls: 2, images: 1 + 2 });
    // The tiled call shows one picture of unknown size, and its prompt ends with the grid's description; the
    // 2-frame cluster goes as its two pictures.
    const tiled = tokenRuleFor(limited.endpoint).image(null) + textTokens(tilingNote(3, { columns: 2, rows: 2 }));
    expect(grid.get("moves")!.inputTokens).toBe(tiled + 2 * 255 + 10);
  });

  it("prices and counts a step that calls another endpoint by role at that endpoint's rule and prices", () => {
    const base = plan("images");
    const judge = { ...base.endpoint, model: "gpt-4o", baseUrl: "https://api.openai.com/v1", pricePer1kInput: 10 };
    const roled = { ...pipeline, steps: [step("whole", "video", { endpoint: "judge" }), step("still", "key_frame")] };
    const e = estimateRun({ ...base, pipeline: roled, roleEndpoints: new Map([["judge", judge]]) });
    const whole = byStep(e).get("whole")!;
    // OpenAI at low detail: 85 a picture; two key frames and 10 text tokens.
    expect(whole.inputTokens).toBe(2 * 85 + 10);
    expect(whole.costUsd).toBeCloseTo((whole.inputTokens / 1000) * 10 + (whole.outputTokens / 1000) * 2, 9);
    const still = byStep(e).get("still")!;
    expect(still.costUsd).toBeCloseTo((still.inputTokens / 1000) * 1 + (still.outputTokens / 1000) * 2, 9);
    expect(e.costUsd).toBeCloseTo(whole.costUsd! + still.costUsd!, 9);
    // A role no endpoint was assigned to calls the run's own.
    const unassigned = byStep(estimateRun({ ...base, pipeline: roled })).get("whole")!;
    expect(unassigned.inputTokens).toBe(2 * 255 + 10);
  });

  it("has no cost without prices, and is empty for no video", () => {
    const free = plan("images");
    expect(
      estimateRun({ ...free, endpoint: { ...free.endpoint, pricePer1kInput: null, pricePer1kOutput: null } }).costUsd,
    ).toBeNull();
    expect(estimateRun(plan("images", { videos: [] }))).toMatchObject({ calls: 0, inputTokens: 0, steps: [] });
  });
});
