/**
 * When reviewers disagree with each other on a target, so an owner should settle it with a gold value.
 * Plain data and pure functions: the browser imports it too.
 */
import { consensusValue, disagreementGapOf, type TargetDeclaration } from "../task-modules/task-declaration";

export type ReviewerDisagreement = "tie" | "spread";

/**
 * `tie`: a nominal target whose reviewers have no majority (the consensus is none, lib/reviews/consensus.ts).
 * `spread`: any other target whose highest and lowest reviewer values differ by at least the target's
 * disagreement gap, the same rule by which a reviewer disagrees with the judge. Null when fewer than
 * two reviewers judged it or they agree. A nominal target's values are labels, so only a tie counts there.
 */
export function reviewerDisagreement(
  declaration: Pick<TargetDeclaration, "level" | "scale" | "disagreementGap">,
  values: readonly number[],
): ReviewerDisagreement | null {
  if (values.length < 2) return null;
  if (declaration.level === "nominal") return consensusValue("nominal", values) === null ? "tie" : null;
  const spread = Math.max(...values) - Math.min(...values);
  return spread >= disagreementGapOf(declaration) - 1e-9 ? "spread" : null;
}
