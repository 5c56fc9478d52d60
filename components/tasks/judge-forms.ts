/**
 * The task views the Judge page uses, looked up by pipeline id in the registered views
 * (components/generated/task-views.ts) when asked. No "use client": the page (a server component) calls these too.
 */
import type { ComponentType } from "react";
import { RubricItemRunForm } from "@/components/rubrics/rubric-item-run-form";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import { isRubricItemKind } from "@/lib/rubrics/rubric-declaration";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import type { DefaultsFormProps, RunSettingsFormProps } from "./run-settings-form";

/** The run form's controls for the pipeline (of the project's catalogue), or null when its runs take the project's defaults. */
export function runSettingsFormOf(
  catalogue: DeclarationCatalogue,
  pipelineId: string,
): ComponentType<RunSettingsFormProps> | null {
  const own = GENERATED_TASK_VIEWS.find((views) => views.runSettingsForms?.[pipelineId])?.runSettingsForms?.[
    pipelineId
  ];
  if (own) return own;
  // A rubric task that judges items (defined as data, no views of its own) asks which of its item sets to judge.
  const task = catalogue.findTask(pipelineId);
  return task && isRubricItemKind(task.subject) ? RubricItemRunForm : null;
}

/** The card that saves the pipeline's defaults for new runs, or null. */
export function defaultsFormOf(pipelineId: string): { title: string; Form: ComponentType<DefaultsFormProps> } | null {
  return GENERATED_TASK_VIEWS.find((views) => views.defaultsForms?.[pipelineId])?.defaultsForms?.[pipelineId] ?? null;
}
