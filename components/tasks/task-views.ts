/**
 * `components/tasks/<id>/views.ts`'s default export: the screens' parts a task brings, read by the
 * core's pages through components/tasks/views.ts, never by name.
 */
import type { ComponentType } from "react";
import type { OutputsViewProps } from "./output-views";

export interface TaskViews {
  /** The folder's id (an entry of TASK_IDS). */
  id: string;
  /** How the video page reads a run's step outputs as text, by pipeline id (none: no outputs section). */
  outputs?: Readonly<Record<string, ComponentType<OutputsViewProps>>>;
  /** How the video page's run header describes a run's stored settings (untrusted JSON), by pipeline id (none: no settings line). */
  runSettings?: Readonly<Record<string, ComponentType<{ settings: unknown }>>>;
}
