/**
 * The reviewers' consensus on one target, used wherever reviewers' values are summed up (the video
 * page's "reviewers' consensus", the agreement statistics' "consensus vs judge").
 *
 * - Scores and overall: the median of the reviewers' current values. The median rather than the mean,
 *   so one outlying reviewer moves it least, and with two reviewers it is their midpoint.
 * - Verdict (1 yes / 0 no): the majority; a tie is no consensus (null), never a coin toss.
 */
export function consensusOf(targetType: string, values: readonly number[]): number | null {
  if (values.length === 0) return null;
  if (targetType === "verdict") {
    const yes = values.filter((v) => v >= 0.5).length;
    const no = values.length - yes;
    return yes === no ? null : yes > no ? 1 : 0;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
