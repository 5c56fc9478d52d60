/**
 * The task views the Judge page uses, looked up by pipeline id in the registered views
 * (lib/generated/tasks/views.ts) when asked. No "use client": the page (a server component) calls these too.
 */
import type { ComponentType } from "react";
import { GENERATED_TASK_VIEWS } from "@/lib/generated/tasks/views";
import type { DefaultsFormProps, RunSettingsFormProps } from "./run-settings-form";

/** The run form's controls for the pipeline, or null when its runs take the project's defaults. */
export function runSettingsFormOf(pipelineId: string): ComponentType<RunSettingsFormProps> | null {
  return GENERATED_TASK_VIEWS.find((views) => views.runSettingsForms?.[pipelineId])?.runSettingsForms?.[pipelineId] ?? null;
}

/** The card that saves the pipeline's defaults for new runs, or null. */
export function defaultsFormOf(pipelineId: string): { title: string; Form: ComponentType<DefaultsFormProps> } | null {
  return GENERATED_TASK_VIEWS.find((views) => views.defaultsForms?.[pipelineId])?.defaultsForms?.[pipelineId] ?? null;
}
