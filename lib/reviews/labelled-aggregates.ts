import { formatValue, type TaskDeclaration } from "../task-modules/task-declaration";
import { consensusOf } from "./consensus";
import { type JudgedDeclaration, judgmentDeclaration } from "./judgment-target";

/**
 * A target's declaration, given itself or a target type ("score" for the first task's scores, or a reviewed metric's
 * id) to look up among `tasks` (the project's catalogue's).
 */
const declared = (target: string | JudgedDeclaration, tasks: readonly TaskDeclaration[]): JudgedDeclaration =>
  typeof target === "string" ? judgmentDeclaration(target, null, tasks) : target;

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

export function labelledAggregates(
  target: string | JudgedDeclaration,
  judgeValue: number | null,
  judgments: readonly JudgmentLike[],
  currentUserId: string,
  tasks: readonly TaskDeclaration[],
) {
  const own = judgments.find((j) => j.reviewer.id === currentUserId) ?? null;
  const values = judgments.map((j) => j.value);
  return {
    judge: { label: "Judge", value: judgeValue } satisfies LabelledValue,
    you: own ? ({ label: "You", value: own.value } satisfies LabelledValue) : null,
    consensus:
      values.length > 0
        ? ({
            label: `Reviewers' consensus (${values.length})`,
            value: consensusOf(declared(target, tasks), values, null, tasks),
          } satisfies LabelledValue)
        : null,
  };
}

/**
 * A value in words, on the target's declared scale: named values by name (a verdict's yes/no), numbers as every score
 * reads (formatScore: at most two decimals); null as "—" (or "no majority (tie)" for a consensus on named values).
 */
export function formatJudgmentValue(
  target: string | Pick<JudgedDeclaration, "scale">,
  value: number | null,
  tasks: readonly TaskDeclaration[],
  options: { tie?: boolean } = {},
): string {
  const declaration = typeof target === "string" ? declared(target, tasks) : target;
  if (value === null) return declaration.scale.kind === "categorical" && options.tie ? "no majority (tie)" : "—";
  return formatValue(declaration, value);
}
