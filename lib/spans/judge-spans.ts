/**
 * A judge's spans as a pipeline derives them (PipelineDefinition.judgeSpans): where in the video its findings lie,
 * before the core checks them against the task's labels and keeps them with the run (./judge-spans-store.ts).
 * Plain data and pure functions, shared by every pipeline that says when.
 */
import type { JudgeSpanDraft } from "../task-modules/judge-span-types";
import { mergedRanges } from "./span-overlap";

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
