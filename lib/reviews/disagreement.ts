/**
 * When a reviewer's value counts as disagreeing with the judge's. A gap of 2 on the 0–10 category
 * and inconsistency scores (a fifth of the scale: 6 vs 7 is noise between two careful humans too),
 * 10 on the 0–100 overall, and any difference on the yes/no verdict. The migration
 * `review_workspace` backfills with the same numbers.
 */
export const DISAGREEMENT_GAP: Record<string, number> = { score: 2, overall: 10, verdict: 1 };

export type JudgmentTargetType = "score" | "verdict" | "overall";

export function disagreesWithJudge(targetType: string, value: number, judgeValue: number | null): boolean {
  if (judgeValue === null) return false;
  const gap = DISAGREEMENT_GAP[targetType] ?? DISAGREEMENT_GAP.score!;
  return Math.abs(value - judgeValue) >= gap - 1e-9;
}
