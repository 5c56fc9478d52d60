import type { ComponentType } from "react";
import { GENERATED_TASK_VIEWS } from "@/lib/generated/tasks/views";
import type { QueueOptionsFormProps, SubjectValueKeys } from "./task-views";

/** The new-queue form's options controls of an item queue scope (null: it has none); read at render, so a registered toy task's count. */
export function queueOptionsForm(scopeId: string): ComponentType<QueueOptionsFormProps> | null {
  return GENERATED_TASK_VIEWS.find((views) => views.queueOptionsForms?.[scopeId])?.queueOptionsForms?.[scopeId] ?? null;
}

/** Every task's subject value keys, by the queue item's subject key. */
export function subjectValueKeys(): Record<string, SubjectValueKeys> {
  return Object.assign({}, ...GENERATED_TASK_VIEWS.map((views) => views.subjectValueKeys ?? {}));
}
