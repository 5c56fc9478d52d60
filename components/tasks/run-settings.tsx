"use client";

import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";

/**
 * A run's settings in words on the video page, as the task of its pipeline words them (TaskViews.runSettings,
 * read when rendered); nothing for a pipeline whose task gives no such view.
 */
export function RunSettings({ pipeline, settings }: { pipeline: string; settings: unknown }) {
  const View = GENERATED_TASK_VIEWS.find((views) => views.runSettings?.[pipeline])?.runSettings?.[pipeline];
  return View ? <View settings={settings} /> : null;
}
