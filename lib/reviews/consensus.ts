import { consensusValue } from "../task-modules/task-declaration";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { type JudgedDeclaration, judgmentDeclaration, SCORE_TARGET_TYPE } from "./judgment-target";

/**
 * The reviewers' consensus on one target, used wherever reviewers' values are summed up (the video
 * page's "reviewers' consensus", the agreement statistics' "consensus vs judge"): by the target's
 * declared measurement level, the majority on a nominal scale (a tie is none), else the median.
 * `target` is the declaration, or a judgment's target type (and the score's category) to look up among `tasks`.
 */
export function consensusOf(
  target: string | JudgedDeclaration,
  values: readonly number[],
  category: string | null | undefined,
  tasks: readonly TaskDeclaration[],
): number | null {
  if (typeof target !== "string") return consensusValue(target.level, values);
  // Only the level matters here: a score of unnamed target is fine when every declared target has the same level.
  if (target === SCORE_TARGET_TYPE && !category) {
    const levels = new Set(tasks.flatMap((t) => t.targets.map((x) => x.level)));
    if (levels.size === 1) return consensusValue([...levels][0]!, values);
  }
  return consensusValue(judgmentDeclaration(target, category, tasks).level, values);
}
