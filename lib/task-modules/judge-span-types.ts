/**
 * What a pipeline derives a judge's spans from and what it derives (PipelineDefinition.judgeSpans): plain data the
 * engine names. The video frame a sampled frame shows is lib/judge/engine/judge-span-drafts.ts'; merging and keeping
 * the spans is lib/spans' (judge-spans.ts, judge-spans-store.ts), which hears the engine's events.
 */
import type { FrameTimes } from "../frames/frame-times";

/** A span the judge found: a label of the pipeline's task over frames of the video (inclusive). */
export interface JudgeSpanDraft {
  label: string;
  /** The judged item it is about ('' or absent: the video itself). */
  itemId?: string;
  startFrame: number;
  endFrame: number;
  /** What the judge said there, in a few words (the scores that made it). */
  note?: string;
}

/** A frame of the run's frame set, as the judge saw it. */
export interface SampledFrame {
  index: number;
  timestampS: number;
  isKeyFrame: boolean;
  cluster: number | null;
}

/** What a pipeline derives its spans from: one finished video's scores and outputs, and the video's frame times. */
export interface JudgeSpanInput {
  scores: readonly { stepId: string; scopeIndex: number; category: string; value: number }[];
  context: {
    keyFrames: readonly SampledFrame[];
    /** clusters[k]: key frame k's cluster, key frame included, in time order. */
    clusters: readonly (readonly SampledFrame[])[];
    frames: readonly SampledFrame[];
    items: readonly { id: string }[];
  };
  /** The run's settings, as stored with the run. */
  settings: unknown;
  outputs: { get(stepId: string, scopeIndex: number): unknown };
  times: FrameTimes;
}
