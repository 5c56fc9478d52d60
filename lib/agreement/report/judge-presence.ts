import { judgePresence, PRESENCE_TARGET_TYPE, type TaskDeclaration } from "../../task-modules/task-declaration";
import type { AgreementItem, AgreementOptions } from "../types";
import type { Declarations } from "./declarations";

/** The threshold t of a task's presence targets: the request's, else the task's declared default. */
export function presenceThresholdOf(
  task: TaskDeclaration,
  options: Pick<AgreementOptions, "presenceThreshold">,
): number {
  return options.presenceThreshold ?? task.presence!.defaultThreshold;
}

/** Presence items with the judge's presence at the report's threshold (from its highest score of the category). */
export function withJudgePresence(
  items: readonly AgreementItem[],
  d: Declarations,
  options: AgreementOptions,
): AgreementItem[] {
  return items.map((item) => {
    if (item.targetType !== PRESENCE_TARGET_TYPE) return item;
    const task =
      d.tasks.find((t) => t.id === item.taskId && t.presence) ??
      d.tasks.find((t) => t.presence?.of.includes(item.category));
    const score = item.judgeScore ?? null;
    return {
      ...item,
      judge: task && score !== null ? judgePresence([score], presenceThresholdOf(task, options)) : null,
    };
  });
}
