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
 * Working arrays of one agreement computation, reused from one video to the next (written by index, never shrunk):
 * a video holds a handful of spans per label, and agreement over 50,000 videos matches hundreds of thousands of
 * times, where fresh arrays per call were most of its time and its garbage. One per computation, never shared.
 */
export class MatchScratch {
  ious: number[] = [];
  rs: number[] = [];
  ps: number[] = [];
  /** The matched pairs of the last greedyMatchInto: reference index, prediction index, IoU. */
  matchR: number[] = [];
  matchP: number[] = [];
  matchIou: number[] = [];
  clipped: number[] = [];
  runsA: number[] = [];
  runsB: number[] = [];
}

/** The greedy matching (see the module comment) into `s.matchR`/`matchP`/`matchIou`, in the order taken; returns how many. */
export function greedyMatchInto(
  reference: readonly AgreementSpan[],
  prediction: readonly AgreementSpan[],
  s: MatchScratch,
): number {
  const { ious, rs, ps } = s;
  let n = 0;
  for (let r = 0; r < reference.length; r++) {
    for (let p = 0; p < prediction.length; p++) {
      const iou = temporalIou(reference[r]!, prediction[p]!);
      if (iou <= 0) continue;
      // Insertion into the ordered candidates (a handful per video and label).
      let at = n++;
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
  let matched = 0;
  if (n === 0) return matched;
  // Which spans are taken: bits of two numbers while they fit (the common case), flags otherwise.
  if (reference.length <= 30 && prediction.length <= 30) {
    let usedReference = 0;
    let usedPrediction = 0;
    for (let c = 0; c < n; c++) {
      const r = 1 << rs[c]!;
      const p = 1 << ps[c]!;
      if (usedReference & r || usedPrediction & p) continue;
      usedReference |= r;
      usedPrediction |= p;
      s.matchR[matched] = rs[c]!;
      s.matchP[matched] = ps[c]!;
      s.matchIou[matched++] = ious[c]!;
    }
    return matched;
  }
  const usedReference = new Uint8Array(reference.length);
  const usedPrediction = new Uint8Array(prediction.length);
  for (let c = 0; c < n; c++) {
    if (usedReference[rs[c]!] || usedPrediction[ps[c]!]) continue;
    usedReference[rs[c]!] = 1;
    usedPrediction[ps[c]!] = 1;
    s.matchR[matched] = rs[c]!;
    s.matchP[matched] = ps[c]!;
    s.matchIou[matched++] = ious[c]!;
  }
  return matched;
}

/** The one-to-one greedy matching of overlapping spans (see the module comment), in the order the pairs were taken. */
export function greedyMatch(reference: readonly AgreementSpan[], prediction: readonly AgreementSpan[]): MatchedPair[] {
  const s = new MatchScratch();
  const n = greedyMatchInto(reference, prediction, s);
  return Array.from({ length: n }, (_, i) => ({
    reference: reference[s.matchR[i]!]!,
    prediction: prediction[s.matchP[i]!]!,
    iou: s.matchIou[i]!,
  }));
}

/** The spans' frames as sorted, disjoint runs within [0, frameCount) into `runs` (start, end, …); returns its length. */
function frameRuns(spans: readonly FrameSpan[], frameCount: number, clipped: number[], runs: number[]): number {
  let n = 0;
  for (const s of spans) {
    const start = Math.max(0, s.startFrame);
    const end = Math.min(frameCount - 1, s.endFrame);
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

/** Every frame of the video is marked or not by each rater; frames past the video's end are not counted. */
export function frameCounts(
  reference: readonly FrameSpan[],
  prediction: readonly FrameSpan[],
  frameCount: number,
  s: MatchScratch = new MatchScratch(),
): FrameCounts {
  const a = s.runsA;
  const b = s.runsB;
  const aLength = frameRuns(reference, frameCount, s.clipped, a);
  const bLength = frameRuns(prediction, frameCount, s.clipped, b);
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
  return { frames: frameCount, reference: runFrames(a, aLength), prediction: runFrames(b, bLength), both };
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
