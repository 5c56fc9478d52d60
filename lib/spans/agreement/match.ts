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

/** The matching's order of two candidates (reference r, prediction p, IoU): see the module comment. */
function compareCandidates(
  iouX: number,
  rX: AgreementSpan,
  pX: AgreementSpan,
  iouY: number,
  rY: AgreementSpan,
  pY: AgreementSpan,
): number {
  return (
    iouY - iouX ||
    rX.startFrame - rY.startFrame ||
    pX.startFrame - pY.startFrame ||
    length(rX) - length(rY) ||
    length(pX) - length(pY) ||
    byId(rX.id, rY.id) ||
    byId(pX.id, pY.id)
  );
}

/**
 * The greedy matching as indices: `visit(r, p, iou)` for each matched pair in the order taken. Candidates live in
 * flat arrays and are ordered by insertion sort: a video holds a handful of spans per label, and agreement over
 * 50,000 videos runs this hundreds of thousands of times, where objects per candidate were most of its time.
 */
export function forEachGreedyMatch(
  reference: readonly AgreementSpan[],
  prediction: readonly AgreementSpan[],
  visit: (r: number, p: number, iou: number) => void,
): void {
  const ious: number[] = [];
  const rs: number[] = [];
  const ps: number[] = [];
  for (let r = 0; r < reference.length; r++) {
    for (let p = 0; p < prediction.length; p++) {
      const iou = temporalIou(reference[r]!, prediction[p]!);
      if (iou <= 0) continue;
      // Insertion into the ordered candidates.
      let at = ious.length;
      ious.push(iou);
      rs.push(r);
      ps.push(p);
      while (
        at > 0 &&
        compareCandidates(
          iou,
          reference[r]!,
          prediction[p]!,
          ious[at - 1]!,
          reference[rs[at - 1]!]!,
          prediction[ps[at - 1]!]!,
        ) < 0
      ) {
        ious[at] = ious[at - 1]!;
        rs[at] = rs[at - 1]!;
        ps[at] = ps[at - 1]!;
        at--;
      }
      ious[at] = iou;
      rs[at] = r;
      ps[at] = p;
    }
  }
  if (ious.length === 0) return;
  // Which spans are taken: bits of two numbers while they fit (the common case), flags otherwise.
  if (reference.length <= 30 && prediction.length <= 30) {
    let usedReference = 0;
    let usedPrediction = 0;
    for (let c = 0; c < ious.length; c++) {
      const r = 1 << rs[c]!;
      const p = 1 << ps[c]!;
      if (usedReference & r || usedPrediction & p) continue;
      usedReference |= r;
      usedPrediction |= p;
      visit(rs[c]!, ps[c]!, ious[c]!);
    }
    return;
  }
  const usedReference = new Uint8Array(reference.length);
  const usedPrediction = new Uint8Array(prediction.length);
  for (let c = 0; c < ious.length; c++) {
    const r = rs[c]!;
    const p = ps[c]!;
    if (usedReference[r] || usedPrediction[p]) continue;
    usedReference[r] = 1;
    usedPrediction[p] = 1;
    visit(r, p, ious[c]!);
  }
}

/** The one-to-one greedy matching of overlapping spans (see the module comment), in the order the pairs were taken. */
export function greedyMatch(reference: readonly AgreementSpan[], prediction: readonly AgreementSpan[]): MatchedPair[] {
  const matched: MatchedPair[] = [];
  forEachGreedyMatch(reference, prediction, (r, p, iou) =>
    matched.push({ reference: reference[r]!, prediction: prediction[p]!, iou }),
  );
  return matched;
}

/** The spans' frames as sorted, disjoint runs within [0, frameCount), flat: start, end, start, end, … */
function frameRuns(spans: readonly AgreementSpan[], frameCount: number): number[] {
  const clipped: number[] = [];
  for (const s of spans) {
    const start = Math.max(0, s.startFrame);
    const end = Math.min(frameCount - 1, s.endFrame);
    if (start > end) continue;
    // Insertion by start: a rater marks a handful of spans per label and video.
    let at = clipped.length;
    clipped.push(start, end);
    while (at > 0 && clipped[at - 2]! > start) {
      clipped[at] = clipped[at - 2]!;
      clipped[at + 1] = clipped[at - 1]!;
      at -= 2;
    }
    clipped[at] = start;
    clipped[at + 1] = end;
  }
  const runs: number[] = [];
  for (let i = 0; i < clipped.length; i += 2) {
    const last = runs.length - 1;
    if (last > 0 && clipped[i]! <= runs[last]! + 1) runs[last] = Math.max(runs[last]!, clipped[i + 1]!);
    else runs.push(clipped[i]!, clipped[i + 1]!);
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
