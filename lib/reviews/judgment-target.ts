/**
 * The declaration a human judgment is about, so reviews, disagreement, consensus and agreement read
 * scales, levels and positive rules from the task instead of naming its targets. A judgment of a
 * judge score (target type "score") is about the score's target (its category); any other target
 * type is the id of a reviewed metric.
 */
import {
  disagreementGapOf,
  type MetricDeclaration,
  PRESENCE_TARGET_TYPE,
  presenceTargetOf,
  type TargetDeclaration,
  type TaskDeclaration,
  targetIdOfCategory,
} from "../task-modules/task-declaration";

export type JudgedDeclaration = TargetDeclaration | MetricDeclaration;

export const SCORE_TARGET_TYPE = "score";

export class UndeclaredJudgmentTargetError extends Error {}

const sameRules = (a: JudgedDeclaration, b: JudgedDeclaration) =>
  a.level === b.level &&
  disagreementGapOf(a) === disagreementGapOf(b) &&
  JSON.stringify(a.scale) === JSON.stringify(b.scale) &&
  JSON.stringify(a.positive) === JSON.stringify(b.positive);

export function judgmentDeclaration(
  targetType: string,
  category: string | null | undefined,
  tasks: readonly TaskDeclaration[],
): JudgedDeclaration {
  if (targetType === SCORE_TARGET_TYPE) {
    if (category) {
      const target = tasks
        .map((task) => task.targets.find((t) => t.id === targetIdOfCategory(task, category)))
        .find(Boolean);
      if (!target) throw new UndeclaredJudgmentTargetError(`No judge task declares the target "${category}".`);
      return target;
    }
    // Without the score's category, any target will do only when a task's targets all have the same
    // rules: the first such task's (callers from before targets were declared meant the first task's).
    for (const task of tasks) {
      const first = task.targets[0];
      if (first && task.targets.every((t) => sameRules(t, first))) return first;
    }
    throw new UndeclaredJudgmentTargetError("Name the score's target: the declared targets' scales differ.");
  }
  if (targetType === PRESENCE_TARGET_TYPE) {
    const presence = category ? tasks.map((task) => presenceTargetOf(task, category)).find(Boolean) : undefined;
    if (!presence)
      throw new UndeclaredJudgmentTargetError(`No judge task declares a presence target "${category ?? ""}".`);
    return presence;
  }
  const metric = tasks.flatMap((t) => t.metrics).find((m) => m.id === targetType && m.reviewed);
  if (!metric) throw new UndeclaredJudgmentTargetError(`No judge task declares a reviewed metric "${targetType}".`);
  return metric;
}

/** The task a declaration belongs to, among `tasks`. */
export function taskDeclaring(
  declaration: JudgedDeclaration,
  tasks: readonly TaskDeclaration[],
): TaskDeclaration | undefined {
  return tasks.find(
    (t) =>
      t.targets.includes(declaration as TargetDeclaration) ||
      t.metrics.includes(declaration as MetricDeclaration) ||
      presenceTargetOf(t, declaration.id) === declaration,
  );
}

/**
 * The threshold that overrides a declaration's positive rule: `thresholds[id]` when given, else the
 * value of the task's named threshold parameter (e.g. `threshold` for every 0–10 target), else none.
 */
export function thresholdOverride(
  declaration: JudgedDeclaration,
  params: { thresholds?: Readonly<Record<string, number>> } & Readonly<Record<string, unknown>>,
  tasks: readonly TaskDeclaration[],
): number | undefined {
  const own = params.thresholds?.[declaration.id];
  if (own !== undefined) return own;
  const param = taskDeclaring(declaration, tasks)?.thresholdParams?.find((p) => p.ids.includes(declaration.id));
  const value = param ? params[param.key] : undefined;
  return typeof value === "number" ? value : undefined;
}
