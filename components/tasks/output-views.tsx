"use client";

import type { ComponentType } from "react";
import type { CellFocus, StepRow } from "@/components/videos/judge-scores-panel";
import { GENERATED_TASK_VIEWS } from "@/lib/generated/tasks/views";

/** Props every task's outputs view gets: the run's steps for the video, and the video page's frame focus. */
export interface OutputsViewProps {
  steps: StepRow[];
  keyFrameCount: number;
  onFocus: (focus: CellFocus) => void;
}

/**
 * How the video page reads each task's step outputs as text, by pipeline id. A task's view lives in
 * its own folder (it knows its steps); a task without one shows no outputs section.
 */
export const OUTPUT_VIEWS: Readonly<Record<string, ComponentType<OutputsViewProps>>> = Object.assign({}, ...GENERATED_TASK_VIEWS.map((views) => views.outputs ?? {}));

/** The pipeline's outputs view, or nothing when its task has none. */
export function OutputsView({ pipeline, ...props }: OutputsViewProps & { pipeline: string }) {
  const View = OUTPUT_VIEWS[pipeline];
  return View ? <View {...props} /> : null;
}
