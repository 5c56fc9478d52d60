/**
 * Agreement on where, for one label on one video between a reference rater and a predicting rater: temporal IoU on
 * frames, one-to-one matching, the frames both mark, and the boxes of matched spans. Pure functions.
 *
 * Matching is greedy by IoU: every pair of overlapping spans is a candidate, taken in order of IoU descending, a pair
 * kept when neither of its spans is matched yet. Ties are broken by the earlier start (the reference span's, then the
 * predicted span's), then the shorter span (reference, then prediction), then the ids. Greedy rather than Hungarian
 * because its matches at a higher IoU threshold are exactly its matches at a lower one that reach it (the candidates
 * at IoU ≥ t come first in the order), so one matching serves every threshold and counts never fall as the threshold
 * falls; it is deterministic with the stated ties; and a person can follow it by hand. Matching again per threshold
 * over only the pairs with IoU ≥ t gives the same matches, since greedy never looks past a pair below t before it has
 * seen every pair at or above it.
 */
import { boxAt, boxIou } from "../boxes";
import type { BoxKeyframe } from "../span-types";

/** A span as agreement reads it: frames inclusive, boxes sorted by frame. */
export interface AgreementSpan {
  id: string;
  startFrame: number;
  endFrame: number;
  boxes: readonly BoxKeyframe[];
}

export interface MatchedPair {
  reference: AgreementSpan;
  prediction: AgreementSpan;
  iou: number;
}

/** |A ∩ B| / |A ∪ B| in frames, both ends inclusive; 0 when they do not overlap. */
export function temporalIou(a: AgreementSpan, b: AgreementSpan): number {
  const inter = Math.min(a.endFrame, b.endFrame) - Math.max(a.startFrame, b.startFrame) + 1;
  if (inter <= 0) return 0;
  const union = a.endFrame - a.startFrame + 1 + (b.endFrame - b.startFrame + 1) - inter;
  return inter / union;
}

const length = (s: AgreementSpan) => s.endFrame - s.startFrame + 1;
const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

function compareCandidates(x: MatchedPair, y: MatchedPair): number {
  return (
    y.iou - x.iou ||
    x.reference.startFrame - y.reference.startFrame ||
    x.prediction.startFrame - y.prediction.startFrame ||
    length(x.reference) - length(y.reference) ||
    length(x.prediction) - length(y.prediction) ||
    byId(x.reference.id, y.reference.id) ||
    byId(x.prediction.id, y.prediction.id)
  );
}

/** The one-to-one greedy matching of overlapping spans (see the module comment), in the order the pairs were taken. */
export function greedyMatch(reference: readonly AgreementSpan[], prediction: readonly AgreementSpan[]): MatchedPair[] {
  const candidates: MatchedPair[] = [];
  for (const r of reference) {
    for (const p of prediction) {
      const iou = temporalIou(r, p);
      if (iou > 0) candidates.push({ reference: r, prediction: p, iou });
    }
  }
  candidates.sort(compareCandidates);
  const usedReference = new Set<AgreementSpan>();
  const usedPrediction = new Set<AgreementSpan>();
  const matched: MatchedPair[] = [];
  for (const c of candidates) {
    if (usedReference.has(c.reference) || usedPrediction.has(c.prediction)) continue;
    usedReference.add(c.reference);
    usedPrediction.add(c.prediction);
    matched.push(c);
  }
  return matched;
}

/** The spans' frames as sorted, disjoint [start, end] runs within [0, frameCount). */
function frameRuns(spans: readonly AgreementSpan[], frameCount: number): number[] {
  const sorted = spans
    .map((s) => [Math.max(0, s.startFrame), Math.min(frameCount - 1, s.endFrame)] as const)
    .filter(([start, end]) => start <= end)
    .sort((x, y) => x[0] - y[0]);
  const runs: number[] = [];
  for (const [start, end] of sorted) {
    const last = runs.length - 1;
    if (last > 0 && start <= runs[last]! + 1) runs[last] = Math.max(runs[last]!, end);
    else runs.push(start, end);
  }
  return runs;
}

const runFrames = (runs: readonly number[]) => {
  let n = 0;
  for (let i = 0; i < runs.length; i += 2) n += runs[i + 1]! - runs[i]! + 1;
  return n;
};

/** Frames of a video each rater marks with the label (any span of it) and the frames both mark. */
export interface FrameCounts {
  frames: number;
  reference: number;
  prediction: number;
  both: number;
}

/** Every frame of the video is marked or not by each rater; frames past the video's end are not counted. */
export function frameCounts(
  reference: readonly AgreementSpan[],
  prediction: readonly AgreementSpan[],
  frameCount: number,
): FrameCounts {
  const a = frameRuns(reference, frameCount);
  const b = frameRuns(prediction, frameCount);
  let both = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]!, b[j]!);
    const hi = Math.min(a[i + 1]!, b[j + 1]!);
    if (lo <= hi) both += hi - lo + 1;
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return { frames: frameCount, reference: runFrames(a), prediction: runFrames(b), both };
}

/** The mean box IoU over the frames where both spans show a box; null when they share no such frame. */
export function matchedBoxIou(reference: AgreementSpan, prediction: AgreementSpan): number | null {
  if (reference.boxes.length === 0 || prediction.boxes.length === 0) return null;
  const from = Math.max(reference.boxes[0]!.frame, prediction.boxes[0]!.frame);
  const to = Math.min(reference.endFrame, prediction.endFrame);
  let sum = 0;
  let frames = 0;
  for (let frame = from; frame <= to; frame++) {
    const a = boxAt(reference.boxes, frame, reference.endFrame);
    const b = boxAt(prediction.boxes, frame, prediction.endFrame);
    if (!a || !b) continue;
    sum += boxIou(a, b);
    frames++;
  }
  return frames === 0 ? null : sum / frames;
}
