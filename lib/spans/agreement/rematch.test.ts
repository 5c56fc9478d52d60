/**
 * Matching only the changed videos again must give what matching every video afresh gives: the same rows of every
 * pair, the same left-out videos, and so the same report, intervals included.
 */
import { describe, expect, it } from "vitest";
import { seededSpanInput } from "../../../testkit/spans/seeded-span-input";
import { spanAgreement } from "../../../testkit/spans/span-agreement";
import { rematchVideos } from "./rematch";
import { agreementOfMatched, comparisonsOfPairs, markedLabels, matchPairs } from "./span-agreement";
import type { SpanAgreementInput } from "./types";

/**
 * `before` with the `changed` videos as `after` has them (their spans, who looked at them, their frame count where
 * both know one), everything else as before.
 */
function changedInput(before: SpanAgreementInput, after: SpanAgreementInput, changed: ReadonlySet<string>) {
  const coverage = new Map(
    [...before.coverage].map(([rater, videos]) => {
      const now = new Set([...videos].filter((v) => !changed.has(v)));
      for (const v of after.coverage.get(rater) ?? []) if (changed.has(v)) now.add(v);
      return [rater, now] as const;
    }),
  );
  const frameCounts = new Map(
    [...before.frameCounts].map(([v, n]) => [v, changed.has(v) ? (after.frameCounts.get(v) ?? n) : n] as const),
  );
  const spans = [
    ...before.spans.filter((s) => !changed.has(s.videoId)),
    ...after.spans.filter((s) => changed.has(s.videoId)),
  ];
  return { ...before, coverage, frameCounts, spans };
}

describe("matching the changed videos again", () => {
  for (const [seed, changes] of [
    [3, 1],
    [5, 7],
    [8, 60],
  ] as const)
    it(`equals matching every video afresh (${changes} of 200 videos changed)`, () => {
      const before = seededSpanInput(seed, 200).input;
      const other = seededSpanInput(seed + 100, 200).input;
      const ids = [...new Set([...before.coverage.values()].flatMap((v) => [...v]))].sort();
      const changed = new Set(ids.filter((_, i) => (i * 7919) % ids.length < changes));
      expect(changed.size).toBe(changes);
      const after = changedInput(before, other, changed);
      const labels = markedLabels(before);
      expect(markedLabels(after)).toEqual(labels);

      const kept = matchPairs(before, labels);
      const rematched = rematchVideos(
        kept,
        { ...after, spans: after.spans.filter((s) => changed.has(s.videoId)) },
        changed,
      );
      const afresh = matchPairs(after, labels);
      expect(rematched.pairs).toEqual(afresh.pairs);
      expect(rematched.leftOut).toEqual(afresh.leftOut);
      expect(rematched.videoIds).toEqual(afresh.videoIds);
      // The change moved something: the kept rows are not the new ones.
      expect(kept.pairs).not.toEqual(afresh.pairs);
      const options = { iterations: 100, seed: 3 };
      expect(agreementOfMatched(comparisonsOfPairs(rematched), options)).toEqual(spanAgreement(after, options));
    });
});
