/**
 * `components/tasks/<id>/views.ts`'s default export: the screens' parts a task brings, read by the
 * core's pages through components/tasks/views.ts, never by name.
 */
import type { ComponentType } from "react";
import type { OutputsViewProps } from "./output-views";
import type { SubjectViewProps } from "./subject-views";

export interface TaskViews {
  /** The folder's id (an entry of TASK_IDS). */
  id: string;
  /** How the video page reads a run's step outputs as text, by pipeline id (none: no outputs section). */
  outputs?: Readonly<Record<string, ComponentType<OutputsViewProps>>>;
  /**
   * How the review screen shows an item queue's subject beside its targets, by the key the queue item API gives
   * it (the task's queue scope's `subjectKey`, lib/queues/queue-scope.ts).
   */
  subjectViews?: Readonly<Record<string, ComponentType<SubjectViewProps>>>;
}
