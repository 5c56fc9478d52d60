/**
 * A judge's spans as a pipeline derives them (PipelineDefinition.judgeSpans): where in the video its findings lie,
 * before the core checks them against the task's labels and keeps them with the run (./judge-spans-store.ts).
 * Plain data and pure functions, shared by every pipeline that says when.
 */
import { frameAtTime, type FrameTimes } from "./frame-times";
import { mergedRanges } from "./span-overlap";

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

/**
 * The video frame a sampled frame shows: the frame on screen at its timestamp (never past the last frame, since a
 * sampler's rounding may put the last sample a hair after it).
 */
export function videoFrameOfSample(times: FrameTimes, timestampS: number): number {
  return Math.min(frameAtTime(times, timestampS), Math.max(0, times.timesS.length - 1));
}

/** The video frames a set of sampled frames covers, first to last. */
export function videoFramesOfSamples(
  times: FrameTimes,
  frames: readonly Pick<SampledFrame, "timestampS">[],
): { startFrame: number; endFrame: number } | null {
  if (frames.length === 0) return null;
  const at = frames.map((f) => videoFrameOfSample(times, f.timestampS));
  return { startFrame: Math.min(...at), endFrame: Math.max(...at) };
}

/**
 * Spans of one label (and item) that overlap or touch (the next starts at most one frame after the other ends)
 * become one, from the first start to the last end; their notes are kept in time order. Output in label, item and
 * time order, so the same findings always give the same rows.
 */
export function mergeNeighbouringSpans(drafts: readonly JudgeSpanDraft[]): JudgeSpanDraft[] {
  const groups = new Map<string, JudgeSpanDraft[]>();
  for (const draft of drafts) {
    const key = JSON.stringify([draft.label, draft.itemId ?? ""]);
    const group = groups.get(key);
    if (group) group.push(draft);
    else groups.set(key, [draft]);
  }
  const merged: JudgeSpanDraft[] = [];
  for (const key of [...groups.keys()].sort())
    for (const range of mergedRanges(groups.get(key)!))
      merged.push(finished({ ...range.spans[0]!, endFrame: range.endFrame, notes: range.spans.flatMap(noteOf) }));
  return merged;
}

const noteOf = (draft: JudgeSpanDraft) => (draft.note ? [draft.note] : []);

function finished({ notes, ...span }: JudgeSpanDraft & { notes: string[] }): JudgeSpanDraft {
  const draft: JudgeSpanDraft = { ...span };
  if (notes.length > 0) draft.note = [...new Set(notes)].join("; ");
  else delete draft.note;
  return draft;
}

/** Runs of consecutive numbers (1, 2, 3, 5 → 1–3 and 5), from a sorted list without duplicates. */
export function consecutiveRuns(sorted: readonly number[]): { first: number; last: number }[] {
  const runs: { first: number; last: number }[] = [];
  for (const n of sorted) {
    const last = runs[runs.length - 1];
    if (last && n === last.last + 1) last.last = n;
    else runs.push({ first: n, last: n });
  }
  return runs;
}
