import { SCORE_TARGET_TYPE } from "../../reviews/judgment-target";
import { PRESENCE_TARGET_TYPE } from "../../task-modules/task-declaration";
import { cohensKappa } from "../../stats/cohens-kappa";
import { spearman } from "../../stats/correlation";
import { meanAbsoluteError } from "../../stats/error-metrics";
import type { AgreementItem, AgreementOptions, ByTargetType, HumanAgreement, ReviewerPair, StatBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { binaryMetrics, confusionCells, confusionOf, confusionOfSample } from "./confusion";
import type { Declarations } from "./declarations";
import { humanBlock } from "./human-block";
import { finite } from "./numbers";
import { oncePerTarget } from "./pairs";

/** Among reviewers: per target type on its own scale, binarised over all targets, and each pair of reviewers. */
export function compareReviewers(
  all: readonly AgreementItem[],
  reviewers: readonly { id: string; label: string }[],
  options: AgreementOptions,
  d: Declarations,
): HumanAgreement {
  const items = oncePerTarget(all);
  const native = {} as ByTargetType<StatBlock>;
  for (const type of d.targetTypes()) {
    native[type] = humanBlock(
      items.filter((i) => i.targetType === type),
      (_, v) => v,
      d.level(type, items),
      options,
      true,
    );
  }
  const binary = humanBlock(items, (item, v) => d.binarise(item, v), "nominal", options, true);
  const pairs: ReviewerPair[] = [];
  for (let x = 0; x < reviewers.length; x++) {
    for (let y = x + 1; y < reviewers.length; y++) {
      const a = reviewers[x]!;
      const b = reviewers[y]!;
      const both: { item: AgreementItem; va: number; vb: number }[] = [];
      for (const item of items) {
        const va = item.ratings.find((r) => r.reviewerId === a.id)?.value;
        const vb = item.ratings.find((r) => r.reviewerId === b.id)?.value;
        if (va !== undefined && vb !== undefined) both.push({ item, va, vb });
      }
      if (both.length === 0) continue;
      const ba = Uint8Array.from(both, (p) => d.binarise(p.item, p.va));
      const bb = Uint8Array.from(both, (p) => d.binarise(p.item, p.vb));
      const m = binaryMetrics(confusionOf(ba, bb));
      const cells = confusionCells(ba, bb);
      const ci = bootstrapMany(
        both.length,
        ["kappa"],
        (sample) => [binaryMetrics(confusionOfSample(cells, sample)).kappa],
        options,
      );
      const scores = both.filter((p) => p.item.targetType === SCORE_TARGET_TYPE);
      const presence = both.filter((p) => p.item.targetType === PRESENCE_TARGET_TYPE);
      const pa = Uint8Array.from(presence, (p) => d.binarise(p.item, p.va));
      const pb = Uint8Array.from(presence, (p) => d.binarise(p.item, p.vb));
      const pm = binaryMetrics(confusionOf(pa, pb));
      const presenceCells = confusionCells(pa, pb);
      const sa = Float64Array.from(scores, (p) => p.va);
      const sb = Float64Array.from(scores, (p) => p.vb);
      pairs.push({
        a: a.id,
        b: b.id,
        labelA: a.label,
        labelB: b.label,
        binary: { n: both.length, values: { kappa: m.kappa, percentAgreement: m.accuracy }, ci },
        score: {
          n: scores.length,
          values: {
            kappaQuadratic: scores.length ? finite(cohensKappa(Array.from(sa), Array.from(sb), "quadratic")) : null,
            spearman: scores.length ? finite(spearman(sa, sb)) : null,
            mae: finite(meanAbsoluteError(sa, sb)),
          },
          ci: {},
        },
        presence: {
          n: presence.length,
          values: { kappa: presence.length ? pm.kappa : null, percentAgreement: pm.accuracy },
          ci: bootstrapMany(
            presence.length,
            ["kappa"],
            (sample) => [binaryMetrics(confusionOfSample(presenceCells, sample)).kappa],
            options,
          ),
        },
      });
    }
  }
  return { items: items.filter((i) => i.ratings.length >= 2).length, native, binary, pairs };
}
