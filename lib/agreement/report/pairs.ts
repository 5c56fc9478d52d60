import type { AgreementItem } from "../types";
import type { Declarations } from "./declarations";

// The human values a comparison reads, paired with the judge's.

export function reviewerValue(reviewerId: string) {
  return (item: AgreementItem) => item.ratings.find((r) => r.reviewerId === reviewerId)?.value ?? null;
}

export interface Pair {
  item: AgreementItem;
  judge: number;
  human: number;
}

export function pairsOf(items: readonly AgreementItem[], human: (item: AgreementItem) => number | null): Pair[] {
  const pairs: Pair[] = [];
  for (const item of items) {
    if (item.judge === null) continue;
    const value = human(item);
    if (value === null) continue;
    pairs.push({ item, judge: item.judge, human: value });
  }
  return pairs;
}

export function binaryArrays(pairs: readonly Pair[], d: Declarations) {
  const truth = new Uint8Array(pairs.length);
  const predicted = new Uint8Array(pairs.length);
  pairs.forEach((p, i) => {
    truth[i] = d.binarise(p.item, p.human);
    predicted[i] = d.binarise(p.item, p.judge);
  });
  return { truth, predicted };
}

/**
 * Each judged target once: a judgment counts against every run that scored its target, so the same
 * ratings appear once per run; agreement among reviewers must count them once.
 */
export function oncePerTarget(items: readonly AgreementItem[]): AgreementItem[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.targetKey) && (seen.add(item.targetKey), true));
}
