"use client";

import type { ComponentType } from "react";
import type { OutputsViewProps } from "./task-views";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";

export type { OutputsViewProps } from "./task-views";

/**
 * How the video page reads each task's step outputs as text, by pipeline id. A task's view lives in
 * its own folder (it knows its steps); a task without one shows no outputs section.
 */
export const OUTPUT_VIEWS: Readonly<Record<string, ComponentType<OutputsViewProps>>> = Object.assign(
  {},
  ...GENERATED_TASK_VIEWS.map((views) => views.outputs ?? {}),
);

/** The pipeline's outputs view, or nothing when its task has none. */
export function OutputsView({ pipeline, ...props }: OutputsViewProps & { pipeline: string }) {
  const View = OUTPUT_VIEWS[pipeline];
  return View ? <View {...props} /> : null;
}
