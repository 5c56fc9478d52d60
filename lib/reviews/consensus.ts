import { consensusValue } from "../tasks/task-declaration";
import { type JudgedDeclaration, judgmentDeclaration } from "./judgment-target";

/**
 * The reviewers' consensus on one target, used wherever reviewers' values are summed up (the video
 * page's "reviewers' consensus", the agreement statistics' "consensus vs judge"): by the target's
 * declared measurement level, the majority on a nominal scale (a tie is none), else the median.
 * `target` is the declaration, or a judgment's target type (and the score's category).
 */
export function consensusOf(target: string | JudgedDeclaration, values: readonly number[], category?: string | null): number | null {
  const declaration = typeof target === "string" ? judgmentDeclaration(target, category) : target;
  return consensusValue(declaration.level, values);
}
