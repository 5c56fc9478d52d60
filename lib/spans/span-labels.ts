/**
 * The labels a span may carry: a task's own (the hallucination task's categories, a rubric's criteria, a VBench-2.0
 * dimension's questions) or the project's own list. Plain data and pure functions: the browser imports it too.
 */
import { z } from "zod";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { PROJECT_SPAN_TASK } from "./span-types";

export interface SpanLabel {
  id: string;
  label: string;
  definition: string;
}

/** A label id: what files and URLs carry, so printable and short. */
export const spanLabelIdSchema = z
  .string()
  .trim()
  .min(1, "A label needs an id.")
  .max(64, "A label id is at most 64 characters.")
  .regex(/^[^\s\u0000-\u001f\u007f]+(?: [^\s\u0000-\u001f\u007f]+)*$/, "A label id has no control characters.");

export const projectSpanLabelsSchema = z
  .array(
    z
      .object({
        id: spanLabelIdSchema,
        label: z.string().trim().min(1).max(120),
        definition: z.string().max(2000).default(""),
      })
      // A misspelt field (`defintion`) is refused, not dropped.
      .strict(),
  )
  .max(200, "A project lists at most 200 span labels.")
  .refine((labels) => new Set(labels.map((l) => l.id)).size === labels.length, "Each label id appears once.");

/**
 * A task's span labels: its declared `spanLabels`, else its reviewable targets (each a category a person can point at
 * in time). The project's list is its own task, PROJECT_SPAN_TASK.
 */
export function taskSpanLabels(task: TaskDeclaration): SpanLabel[] {
  if (task.spanLabels) return task.spanLabels.map((l) => ({ ...l }));
  return task.targets
    .filter((t) => t.reviewable !== false)
    .map((t) => ({ id: t.id, label: t.label, definition: t.definition }));
}

/** The project's own labels, read from its stored JSON (anything unreadable is no labels, never a crash). */
export function projectSpanLabels(stored: unknown): SpanLabel[] {
  const parsed = projectSpanLabelsSchema.safeParse(stored);
  return parsed.success ? parsed.data : [];
}

/** The labels of a span task: the task's, or the project's own for PROJECT_SPAN_TASK; null for an unknown task. */
export function spanLabelsFor(
  task: string,
  catalogue: { findTask(id: string): TaskDeclaration | null },
  projectLabels: readonly SpanLabel[],
): SpanLabel[] | null {
  if (task === PROJECT_SPAN_TASK) return [...projectLabels];
  const declared = catalogue.findTask(task);
  return declared ? taskSpanLabels(declared) : null;
}
