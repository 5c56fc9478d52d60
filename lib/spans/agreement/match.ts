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

/** What frame counting reads of a span. */
export type FrameSpan = Pick<AgreementSpan, "startFrame" | "endFrame">;

const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Spans as columns: span i holds frames start[i]..end[i] (inclusive); `spanOf(i)` is the span itself, read only to
 * break ties by id and for the boxes of matched pairs. Agreement over a whole project matches from columns, so it
 * never builds a list of span objects per video and label.
 */
export interface SpanTable {
  readonly start: ArrayLike<number>;
  readonly end: ArrayLike<number>;
  /** 1 when span i has boxes. */
  readonly boxed: ArrayLike<number>;
  spanOf(i: number): AgreementSpan;
}

/** The matching's order of two candidates (reference r, prediction p, IoU): see the module comment. */
function compareCandidates(
  t: SpanTable,
  iouX: number,
  rX: number,
  pX: number,
  iouY: number,
  rY: number,
  pY: number,
): number {
  const { start, end } = t;
  return (
    iouY - iouX ||
    start[rX]! - start[rY]! ||
    start[pX]! - start[pY]! ||
    end[rX]! - start[rX]! - (end[rY]! - start[rY]!) ||
    end[pX]! - start[pX]! - (end[pY]! - start[pY]!) ||
    byId(t.spanOf(rX).id, t.spanOf(rY).id) ||
    byId(t.spanOf(pX).id, t.spanOf(pY).id)
  );
}

/**
 * Working arrays of one agreement computation, reused from one video to the next (written by index, never shrunk):
 * a video holds a handful of spans per label, and agreement over 50,000 videos matches hundreds of thousands of
 * times, where fresh arrays per call were most of its time and its garbage. One per computation, never shared.
 */
export class MatchScratch {
  ious: number[] = [];
  rs: number[] = [];
  ps: number[] = [];
  /** The matched pairs of the last greedyMatchColumns: reference index, prediction index, IoU. */
  matchR: number[] = [];
  matchP: number[] = [];
  matchIou: number[] = [];
  clipped: number[] = [];
  runsA: number[] = [];
  runsB: number[] = [];
  /** The frame counts of the last countFramesInto. */
  referenceFrames = 0;
  predictionFrames = 0;
  bothFrames = 0;
}

/**
 * The greedy matching (see the module comment) of the reference spans at positions rFrom..rTo−1 of `t` with the
 * predicted ones at pFrom..pTo−1, into `s.matchR`/`matchP` (positions in `t`)/`matchIou`, in the order taken; returns
 * how many.
 */
export function greedyMatchColumns(
  t: SpanTable,
  rFrom: number,
  rTo: number,
  pFrom: number,
  pTo: number,
  s: MatchScratch,
): number {
  const { ious, rs, ps } = s;
  const { start, end } = t;
  let n = 0;
  for (let r = rFrom; r < rTo; r++) {
    const rStart = start[r]!;
    const rEnd = end[r]!;
    for (let p = pFrom; p < pTo; p++) {
      const inter = Math.min(rEnd, end[p]!) - Math.max(rStart, start[p]!) + 1;
      if (inter <= 0) continue;
      const iou = inter / (rEnd - rStart + 1 + (end[p]! - start[p]! + 1) - inter);
      // Insertion into the ordered candidates (a handful per video and label).
      let at = n++;
      while (at > 0 && compareCandidates(t, iou, r, p, ious[at - 1]!, rs[at - 1]!, ps[at - 1]!) < 0) {
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
  let matched = 0;
  if (n === 0) return matched;
  // Which spans are taken: bits of two numbers while they fit (the common case), flags otherwise.
  if (rTo - rFrom <= 30 && pTo - pFrom <= 30) {
    let usedReference = 0;
    let usedPrediction = 0;
    for (let c = 0; c < n; c++) {
      const r = 1 << (rs[c]! - rFrom);
      const p = 1 << (ps[c]! - pFrom);
      if (usedReference & r || usedPrediction & p) continue;
      usedReference |= r;
      usedPrediction |= p;
      s.matchR[matched] = rs[c]!;
      s.matchP[matched] = ps[c]!;
      s.matchIou[matched++] = ious[c]!;
    }
    return matched;
  }
  const usedReference = new Uint8Array(rTo - rFrom);
  const usedPrediction = new Uint8Array(pTo - pFrom);
  for (let c = 0; c < n; c++) {
    if (usedReference[rs[c]! - rFrom] || usedPrediction[ps[c]! - pFrom]) continue;
    usedReference[rs[c]! - rFrom] = 1;
    usedPrediction[ps[c]! - pFrom] = 1;
    s.matchR[matched] = rs[c]!;
    s.matchP[matched] = ps[c]!;
    s.matchIou[matched++] = ious[c]!;
  }
  return matched;
}

/** Two lists of spans as one table: the reference at 0..reference.length−1, the prediction after them. */
export function tableOf(reference: readonly FrameSpan[], prediction: readonly FrameSpan[]): SpanTable {
  const spans = [...reference, ...prediction];
  return {
    start: spans.map((x) => x.startFrame),
    end: spans.map((x) => x.endFrame),
    boxed: spans.map((x) => ((x as Partial<AgreementSpan>).boxes?.length ? 1 : 0)),
    spanOf: (i) => spans[i] as AgreementSpan,
  };
}

/** The frames of the spans at from..to−1 of `t` as sorted, disjoint runs within [0, frameCount) into `runs` (start, end, …); returns its length. */
function frameRuns(
  t: Pick<SpanTable, "start" | "end">,
  from: number,
  to: number,
  frameCount: number,
  clipped: number[],
  runs: number[],
): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const start = Math.max(0, t.start[i]!);
    const end = Math.min(frameCount - 1, t.end[i]!);
    if (start > end) continue;
    // Insertion by start: a rater marks a handful of spans per label and video.
    let at = n;
    n += 2;
    while (at > 0 && clipped[at - 2]! > start) {
      clipped[at] = clipped[at - 2]!;
      clipped[at + 1] = clipped[at - 1]!;
      at -= 2;
    }
    clipped[at] = start;
    clipped[at + 1] = end;
  }
  let length = 0;
  for (let i = 0; i < n; i += 2) {
    if (length > 0 && clipped[i]! <= runs[length - 1]! + 1)
      runs[length - 1] = Math.max(runs[length - 1]!, clipped[i + 1]!);
    else {
      runs[length] = clipped[i]!;
      runs[length + 1] = clipped[i + 1]!;
      length += 2;
    }
  }
  return length;
}

const runFrames = (runs: readonly number[], length: number) => {
  let n = 0;
  for (let i = 0; i < length; i += 2) n += runs[i + 1]! - runs[i]! + 1;
  return n;
};

/** Frames of a video each rater marks with the label (any span of it) and the frames both mark. */
export interface FrameCounts {
  frames: number;
  reference: number;
  prediction: number;
  both: number;
}

/**
 * The frames the reference spans at rFrom..rTo−1 of `t` mark, those the predicted ones at pFrom..pTo−1 mark, and
 * those both mark, into `s.referenceFrames`/`predictionFrames`/`bothFrames`; frames past the video's end are not
 * counted.
 */
export function countFramesInto(
  t: Pick<SpanTable, "start" | "end">,
  rFrom: number,
  rTo: number,
  pFrom: number,
  pTo: number,
  frameCount: number,
  s: MatchScratch,
): void {
  const a = s.runsA;
  const b = s.runsB;
  const aLength = frameRuns(t, rFrom, rTo, frameCount, s.clipped, a);
  const bLength = frameRuns(t, pFrom, pTo, frameCount, s.clipped, b);
  let both = 0;
  let i = 0;
  let j = 0;
  while (i < aLength && j < bLength) {
    const lo = Math.max(a[i]!, b[j]!);
    const hi = Math.min(a[i + 1]!, b[j + 1]!);
    if (lo <= hi) both += hi - lo + 1;
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  s.referenceFrames = runFrames(a, aLength);
  s.predictionFrames = runFrames(b, bLength);
  s.bothFrames = both;
}

/** Every frame of the video is marked or not by each rater; frames past the video's end are not counted. */
export function frameCounts(
  reference: readonly FrameSpan[],
  prediction: readonly FrameSpan[],
  frameCount: number,
  s: MatchScratch = new MatchScratch(),
): FrameCounts {
  const r = reference.length;
  countFramesInto(tableOf(reference, prediction), 0, r, r, r + prediction.length, frameCount, s);
  return { frames: frameCount, reference: s.referenceFrames, prediction: s.predictionFrames, both: s.bothFrames };
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
