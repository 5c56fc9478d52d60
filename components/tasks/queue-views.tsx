"use client";

import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import type { QueueOptionsFormProps, SubjectValueKeys } from "./task-views";

/**
 * The new-queue form's options controls of an item queue type, as its task's views give them (TaskViews.queueOptionsForms,
 * read when rendered, so a registered toy task's count); nothing for a scope without any.
 */
export function QueueTypeOptions({ scopeId, ...props }: QueueOptionsFormProps & { scopeId: string }) {
  const View = GENERATED_TASK_VIEWS.find((views) => views.queueOptionsForms?.[scopeId])?.queueOptionsForms?.[scopeId];
  return View ? <View {...props} /> : null;
}

/** Every task's subject value keys, by the queue item's subject key. */
export function subjectValueKeys(): Record<string, SubjectValueKeys> {
  return Object.assign({}, ...GENERATED_TASK_VIEWS.map((views) => views.subjectValueKeys ?? {}));
}
