import { consensusOf } from "./consensus";

/**
 * Whose number is whose on the video page: the judge's value, the caller's own judgment and the
 * reviewers' consensus over every reviewer's current value (consensusOf), each with its label.
 */
export interface LabelledValue {
  label: string;
  value: number | null;
}

export interface JudgmentLike {
  reviewer: { id: string };
  value: number;
}

export function labelledAggregates(targetType: string, judgeValue: number | null, judgments: readonly JudgmentLike[], currentUserId: string) {
  const own = judgments.find((j) => j.reviewer.id === currentUserId) ?? null;
  const values = judgments.map((j) => j.value);
  return {
    judge: { label: "Judge", value: judgeValue } satisfies LabelledValue,
    you: own ? ({ label: "You", value: own.value } satisfies LabelledValue) : null,
    consensus: values.length > 0 ? ({ label: `Reviewers' consensus (${values.length})`, value: consensusOf(targetType, values) } satisfies LabelledValue) : null,
  };
}

/** A value in words: verdicts as yes/no, other numbers with at most one decimal; null as "—" (or "tie" for a verdict consensus). */
export function formatJudgmentValue(targetType: string, value: number | null, options: { tie?: boolean } = {}): string {
  if (value === null) return targetType === "verdict" && options.tie ? "no majority (tie)" : "—";
  if (targetType === "verdict") return value >= 0.5 ? "yes" : "no";
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
