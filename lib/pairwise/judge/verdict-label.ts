/**
 * The verdict label a pairwise judge ends its answer with (prompts/pairwise/compare.md): `[[A>B]]`, `[[B>A]]`,
 * `[[A=B=good]]`, `[[A=B=bad]]`, and on a five-level aspect `[[A>>B]]` / `[[B>>A]]`. The answer's LAST label counts
 * (a judge that reasons may quote the labels before deciding); case and spaces inside the brackets do not matter.
 * The label is in the terms of the videos as shown: "A" is the video shown first.
 */
import type { Aspect } from "../aspects";
import type { Strength, Verdict } from "../verdicts";

export type LabelRead =
  { ok: true; verdict: Verdict; strength: Strength; label: string } | { ok: false; reason: string };

const LABEL = /\[\[\s*([ab])\s*(>>|>|<<|<|=)\s*([ab])\s*(?:=\s*(good|bad)\s*)?\]\]/gi;

/** The verdict of the answer's last label, or why there is none (no label, or a label this aspect does not allow). */
export function readVerdictLabel(answer: string | null, levels: Aspect["levels"] = 4): LabelRead {
  if (!answer?.trim()) return { ok: false, reason: "empty answer" };
  const found = [...answer.matchAll(LABEL)];
  const last = found[found.length - 1];
  if (!last)
    return { ok: false, reason: "no verdict label ([[A>B]], [[B>A]], [[A=B=good]], [[A=B=bad]]) in the answer" };
  const [label, left, op, right, tie] = [last[0], last[1]!.toUpperCase(), last[2]!, last[3]!.toUpperCase(), last[4]];
  if (left === right) return { ok: false, reason: `${label} compares a video with itself` };
  if (op === "=") {
    if (!tie) return { ok: false, reason: `${label} says neither both good nor both bad` };
    return { ok: true, verdict: tie.toLowerCase() === "good" ? "tie_good" : "tie_bad", strength: 1, label };
  }
  if (tie) return { ok: false, reason: `${label} mixes a preference with a tie` };
  // "A<B" is "B>A": the winner is the side the arrow opens to.
  const winner = op.startsWith(">") ? left : right;
  const strong = op.length === 2;
  if (strong && levels !== 5) return { ok: true, verdict: winner as Verdict, strength: 1, label };
  return { ok: true, verdict: winner as Verdict, strength: strong ? 2 : 1, label };
}

/** The labels the prompt offers for an aspect, one "[[label]]: meaning" line each. */
export function verdictLabelLines(levels: Aspect["levels"]): string {
  const lines = [
    ...(levels === 5 ? ["[[A>>B]]: Video A is much better"] : []),
    "[[A>B]]: Video A is better",
    "[[B>A]]: Video B is better",
    ...(levels === 5 ? ["[[B>>A]]: Video B is much better"] : []),
    "[[A=B=good]]: both are equally good",
    "[[A=B=bad]]: both are equally bad",
  ];
  return lines.join("\n");
}
