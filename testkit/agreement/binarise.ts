import { type JudgedDeclaration, judgmentDeclaration, thresholdOverride } from "../../lib/reviews/judgment-target";
import { binariseValue, type TaskDeclaration } from "../../lib/task-modules/task-declaration";
import type { TargetType } from "../../lib/agreement/types";
import type { Binary, ThresholdOptions } from "../../lib/agreement/report/declarations";

/** 1 when the value is the target's positive class (its declared rule, with the request's threshold override). */
export function binarise(
  targetType: TargetType,
  value: number,
  options: ThresholdOptions,
  declaration: JudgedDeclaration | undefined,
  tasks: readonly TaskDeclaration[],
): Binary {
  const target = declaration ?? judgmentDeclaration(targetType, null, tasks);
  return binariseValue(
    target.positive,
    value,
    thresholdOverride(target, options as ThresholdOptions & Record<string, unknown>, tasks),
  );
}
