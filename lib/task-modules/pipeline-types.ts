/**
 * The pipeline contract a task module registers (RegisteredPipeline) and everything its steps see: plain types the
 * catalogue names and lib/judge's engine runs (lib/judge/engine/pipeline.ts plans the steps).
 */
import type { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { InputMode } from "./input-mode";
import type { JudgeSpanDraft, JudgeSpanInput } from "./judge-span-types";
import type { TaskDeclaration } from "./task-declaration";

/** A frame the judge sees, as stored. */
export interface FrameRef {
  id: string;
  index: number;
  timestampS: number;
  isKeyFrame: boolean;
  cluster: number | null;
  storageKey: string;
  sha256: string;
}

/** The judged video's file, for a call that sends the clip itself (the `video-file` input mode). */
export interface ClipRef {
  storageKey: string;
  sha256: string;
  sizeBytes: number;
  contentType: string;
  durationS: number | null;
}

/** An item of the video that the run judges (a caption, a question), with the item it answers. */
export interface ItemRef {
  id: string;
  /** The item's id in its imported file. */
  externalId: string;
  kind: string;
  /** The item's value of the task's grouping (for captions: the caption type). */
  group: string;
  /** The producer, e.g. the model that wrote a caption. */
  model: string | null;
  payload: unknown;
  reference: { id: string; externalId: string; payload: unknown } | null;
}

/** What every step of every pipeline can draw on for one video. */
export interface VideoContext {
  videoId: string;
  prompt: string | null;
  dimensions: string[];
  model: string | null;
  /** The video's average frame rate and decoded frame count, when known (VBench-2.0's `avg_fps` and `len(vr)`). */
  fps: number | null;
  frameCount: number | null;
  /**
   * Each decoded frame's time (video_frame_times), when they were read already: what names the frame a call showed,
   * exact for a variable frame rate. Absent or null: not known (the average rate names it).
   */
  frameTimesS?: readonly number[] | null;
  /** Per-dimension data a benchmark's evaluator needs (VBench-2.0's `auxiliary_info`), by dimension; {} when none. */
  auxiliaryInfo: Record<string, unknown>;
  /** The most images the run's endpoint takes in one request (its probe), or null when unknown or unlimited. */
  imageLimit: number | null;
  keyFrames: FrameRef[];
  /** clusters[k] = the frames of key frame k's cluster, in time order (key frame included). */
  clusters: FrameRef[][];
  /** Every frame of the run's frame set for the video, in time order. */
  frames: FrameRef[];
  /** The run's items of this video, in their run_item position order (an item step's scope index). */
  items: ItemRef[];
  /** The run's settings, as stored with the run. */
  settings: unknown;
  /** How the run shows videos to the judge, fixed at its start (lib/judge/engine/video-media.ts); absent: images. */
  inputMode?: InputMode;
  /** The video's file, for `video-file` runs; absent or null: not known (its steps send frames). */
  clip?: ClipRef | null;
}

export type StepScope = "video" | "key_frame" | "cluster" | "item";

export interface StepRef {
  stepId: string;
  scopeIndex: number;
}

/** Outputs of finished steps of the same video, for building later steps' inputs. */
export interface StepOutputs {
  get(stepId: string, scopeIndex: number): unknown;
  all(stepId: string): unknown[];
}

export interface StepInput {
  values: Record<string, string>;
  frames: FrameRef[];
  /** Structured input that scoring and computed steps read (say, the counts a length rule needs). */
  data?: unknown;
  /**
   * Goes into the response cache key and nowhere else (the request is unchanged): steps that render the same
   * prompt on purpose, to get another answer (a retried attempt), are asked apart instead of reading the first answer.
   */
  cacheSalt?: string;
  /**
   * The longest side, in px, each frame is scaled down to before it is sent (never up; lib/judge/media/frame-resize.ts):
   * a rubric's frame size for key frames and clusters. Part of the cache key, with each frame's hash.
   */
  imageMaxSide?: number;
  /**
   * "images": the frames go as images whatever the run's input mode (a rubric criterion judged on stills); absent or
   * "video": in a video mode, two or more frames go as one video part (lib/judge/engine/video-media.ts).
   */
  sendAs?: "images" | "video";
  /**
   * How many of `frames`, from the first, are the judged video's own; the rest are few-shot examples of other
   * videos (a rubric's), which go as images after any video part. Absent: all of them.
   */
  ownFrames?: number;
}

/** A raw-answer step's output: the model's answer as given (see StepDefinition.rawAnswer). */
export interface RawAnswer {
  text: string;
  refusal: string | null;
  finishReason: string | null;
}

export interface ScoreValue {
  category: string;
  value: number;
  /** The logprob-weighted score beside this argmax value (lib/judge/calls/expected-score.ts); absent or null when unknown. */
  expected?: number | null;
}

/**
 * One step of a pipeline: which template it renders, for which scope, from which inputs, and how
 * its output is validated and turned into scores. Nothing here is specific to one pipeline.
 *
 * A step with `compute` makes no LLM call: its output is computed from its input (and the outputs it
 * depends on) and recorded like any other step's, with no llm_call row; `templateId` then names the
 * computation (e.g. "computed/caption-length-rules").
 */
export interface StepDefinition<Output = unknown> {
  id: string;
  label: string;
  scope: StepScope;
  templateId: string;
  schema: z.ZodType<Output>;
  /** A schema that depends on the step's input (say, an answer checked against the item's key points); wins over `schema`. */
  schemaFor?(input: StepInput): z.ZodType<Output>;
  compute?(input: StepInput, context: VideoContext, outputs: StepOutputs): Output;
  /** JSON schema for structured output, when the endpoint supports it. */
  responseFormat?: Record<string, unknown>;
  /** The JSON schema when it depends on the step's input (a rubric run's pinned criteria); wins over `responseFormat`. */
  responseFormatFor?(input: StepInput): Record<string, unknown>;
  dependsOn(scopeIndex: number, context: VideoContext): StepRef[];
  /**
   * Why this step cannot be run for this video at all (say, it compares the video with a prompt
   * the video does not have): the step is then `skipped` with this reason and makes no call.
   */
  skipReason?(scopeIndex: number, context: VideoContext): string | null;
  input(scopeIndex: number, context: VideoContext, outputs: StepOutputs): StepInput;
  scores?(output: Output, input: StepInput): ScoreValue[];
  /**
   * The JSON key of the answer that holds each score category's value, where it is not the category
   * itself (a rubric's `r3_quality` is answered as `"quality"`): read to find the value's token for the
   * logprob-weighted score (lib/judge/calls/expected-score.ts).
   */
  scoreKeys?(input: StepInput): Record<string, string>;
  /**
   * The template itself when its text is data the run carries (a rubric task's prompt, pinned in the run's
   * settings), not a file under prompts/: wins over the file `templateId` names, which then only labels it.
   */
  inlineTemplate?(context: VideoContext): InlineTemplate;
  /** The template for this scope when it depends on the item (a multiple-choice or an open question); wins over `templateId`. */
  templateIdFor?(scopeIndex: number, context: VideoContext): string;
  /** The endpoint role the step calls (PipelineDefinition.endpointIds); the run's own endpoint when absent or unassigned. */
  endpoint?: string;
  /**
   * The output is the answer as the model gave it (a RawAnswer): no JSON, no validation and no repair
   * request, since an evaluated model's answer is the result, not something to correct. Answers with a
   * refusal are not cached.
   */
  rawAnswer?: boolean;
  /** The output when the step's finished inputs already settle it (recorded like a computed step, no call), else null to make the call. */
  settle?(input: StepInput, context: VideoContext, outputs: StepOutputs): Output | null;
  /** False when the run's settings leave the step out: it gets no row at all. */
  planned?(context: VideoContext): boolean;
}

/** A template given as data: its hash goes into the step's record and the cache key like a file's. */
export interface InlineTemplate {
  hash: string;
  meta?: Readonly<Record<string, string>>;
  render(values: Record<string, string>): string;
}

/**
 * Which frame set of a video a run uses: the latest one with key frames, the latest of any mode, or the latest uniform set of
 * `count` frames (that `accepts`, when given: say, frames of a planned size; `label` then says which).
 */
export type FrameRequirement =
  | { mode: "key_frames" }
  /** The video's latest frame set of any mode: for runs that send no frames but whose results point at times in the video. */
  | { mode: "any" }
  | {
      mode: "uniform";
      count: number;
      accepts?(
        video: { width: number | null; height: number | null },
        set: { maxSide: number | null; width: number; height: number },
      ): boolean;
      label?: string;
    };

/** A pipeline that judges items attached to videos rather than the videos themselves. */
export interface ItemRequirement {
  /** The kind of item it judges (e.g. "caption"). */
  kind: string;
  /** Why this pipeline cannot judge the item (say, a caption whose reference has no key points), or null. */
  excludeReason?(item: ItemRef): string | null;
  /** What a set of these items is called in errors ("caption" for "No such caption set"); the kind when absent. */
  setNoun?: string;
  /**
   * The createRun field older clients name the set with (e.g. "captionSetId"), accepted as an alias of
   * `itemSetId` and named in the error for a run without a set; `itemSetId` when absent.
   */
  setField?: string;
}

export interface ScoreRow {
  stepId: string;
  scopeIndex: number;
  category: string;
  value: number;
}

export interface PipelineDefinition {
  id: string;
  label: string;
  /** What the pipeline scores: its targets, headline metrics and groupings, read by everything downstream. */
  task: TaskDeclaration;
  /** The one project whose runs may use it (a task a project defined as data, lib/rubrics); any project's when absent. */
  projectId?: string;
  steps: StepDefinition[];
  /** Per-video aggregates from the steps' scores; must never invent values. */
  summarize(scores: ScoreRow[], context: VideoContext, settings: unknown, outputs: StepOutputs): unknown;
  /**
   * The summary's headline numbers by declared metric id (a yes/no metric as 1/0), stored as
   * run_metric rows so lists filter and sort on an index; null: unknown, no row.
   */
  metricValues(summary: unknown): Record<string, number | null>;
  /** The frame set it needs; the latest set with key frames when absent. */
  frames?(settings: unknown): FrameRequirement;
  /** Present when the pipeline judges items of the videos (its steps then have scope "item"). */
  items?: ItemRequirement;
  /** Per-item headline metrics from the summary, by declared metric id (null: unknown), stored as run_metric rows with the item's id. */
  itemMetrics?(summary: unknown): { itemId: string; values: Record<string, number | null> }[];
  /**
   * Work that follows a finished run (say, turning its answers into items), done by the worker that finishes
   * the run's last video; it may be asked more than once (two workers finishing the last two videos at once),
   * so it must be idempotent. A failure is logged: the run stays done.
   */
  afterRun?(prisma: PrismaClient, runId: string): Promise<void>;
  /**
   * The settings stored with a new run, from the parsed ones and the run's items: for state kept outside the
   * run that its steps depend on (a curator's restores), read once at the start so the run's results follow
   * from what it stored.
   */
  settingsAtStart?(prisma: PrismaClient, settings: unknown, itemIds: string[]): Promise<unknown>;
  /** Endpoints of the project other than the run's, by the role steps name (StepDefinition.endpoint), from the run's settings. */
  endpointIds?(settings: unknown): Record<string, string | undefined>;
  /**
   * Settings an alignment may try for a reviewed metric (its thresholds and aggregation, lib/alignment): each the
   * settings it changes (merged over the candidate's own before the settings schema parses them), and each one that
   * changes only how stored scores are summarised, never what is asked, so trying one costs no call
   * (lib/judge/engine/resummarise.ts). Absent or empty: the metric is not aligned.
   */
  alignmentSettings?(metricId: string): unknown[];
  /**
   * Where in the video the judge's findings lie, from a finished video's scores and outputs: the run's judge spans
   * (labels of the pipeline's task, frames of the video). Pure: the engine keeps them with the run when the video
   * ends, and re-deriving a finished run's reads the same stored answers (lib/spans/judge-spans-store.ts).
   */
  judgeSpans?(input: JudgeSpanInput): JudgeSpanDraft[];
}

/** A pipeline as a task module registers it: its definition, and the schema of its per-run settings. */
export type RegisteredPipeline = PipelineDefinition & { settingsSchema?: z.ZodType };
