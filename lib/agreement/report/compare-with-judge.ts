import type { AgreementItem, AgreementOptions, ByTargetType, JudgeComparison, StatBlock } from "../types";
import { binaryBlock } from "./binary-block";
import type { Declarations } from "./declarations";
import { nativeBlock } from "./native-block";
import { binaryArrays, pairsOf } from "./pairs";

/** One human side (a reviewer, the consensus, the gold) against the judge: per target type on its own scale, and binarised over all targets. */
export function compareWithJudge(
  items: readonly AgreementItem[],
  human: (item: AgreementItem) => number | null,
  options: AgreementOptions,
  d: Declarations,
): JudgeComparison {
  const pairs = pairsOf(items, human);
  const native = {} as ByTargetType<StatBlock>;
  for (const type of d.targetTypes()) {
    const ofType = pairs.filter((p) => p.item.targetType === type);
    native[type] = nativeBlock(
      Float64Array.from(ofType, (p) => p.judge),
      Float64Array.from(ofType, (p) => p.human),
      d.level(type, items),
      options,
    );
  }
  const { truth, predicted } = binaryArrays(pairs, d);
  return { n: pairs.length, native, binary: binaryBlock(truth, predicted, options) };
}
