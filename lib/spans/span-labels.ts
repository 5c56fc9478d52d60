/**
 * The labels a span may carry: a task's own (the hallucination task's categories, a rubric's criteria, a VBench-2.0
 * dimension's questions) or the project's own list. Plain data and pure functions: the browser imports it too.
 */
import { z } from "zod";
import { targetIdOfCategory, type TaskDeclaration } from "../task-modules/task-declaration";
import { PROJECT_SPAN_TASK } from "./span-types";

export interface SpanLabel {
  id: string;
  label: string;
  definition: string;
  /**
   * A label whose spans are about one of its numbered questions (a VBench-2.0 dimension's answer target: its spans'
   * itemId is `material:q2`): the prefix every such itemId has, followed by the question's number.
   */
  itemPrefix?: string;
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

/** GET and PUT /projects/{projectId}/span-labels: the project's own span labels, as saved. */
export const spanLabelsAnswerSchema = z.object({
  labels: z.array(z.object({ id: z.string(), label: z.string(), definition: z.string() })),
});
export type SpanLabelsAnswer = z.infer<typeof spanLabelsAnswerSchema>;

/**
 * A task's span labels: its declared `spanLabels`, else its reviewable targets (each a category a person can point at
 * in time). The project's list is its own task, PROJECT_SPAN_TASK.
 */
export function taskSpanLabels(task: TaskDeclaration): SpanLabel[] {
  if (task.spanLabels) return task.spanLabels.map((l) => ({ ...l }));
  // A video task's indexed target is asked as numbered questions (VBench-2.0's `material:q2`): a span names the
  // question as its item. An item task's items are its own (a caption), so its indexed targets carry no prefix.
  const prefixes = new Map(
    task.subject === "video" ? (task.indexedTargets ?? []).map((t) => [t.targetId, t.prefix] as const) : [],
  );
  return task.targets
    .filter((t) => t.reviewable !== false)
    .map((t) => {
      const itemPrefix = prefixes.get(t.id);
      return { id: t.id, label: t.label, definition: t.definition, ...(itemPrefix ? { itemPrefix } : {}) };
    });
}

/**
 * The span label and item a reviewer marks where a judge score's category is wrong: VBench-2.0's question
 * `material:q2` is label `material_answer` with itemId `material:q2`; a plain target's category (`s3`) is its own
 * label with no item. Null when the category's target is not a span label of the task.
 */
export function spanLabelOfCategory(task: TaskDeclaration, category: string): { label: string; itemId: string } | null {
  const targetId = targetIdOfCategory(task, category);
  const label = taskSpanLabels(task).find((l) => l.id === targetId);
  if (!label) return null;
  return { label: label.id, itemId: label.itemPrefix && targetId !== category ? category : "" };
}

/** Why a span's item cannot go with its label (a question of another dimension), or null. */
export function spanItemProblem(span: { label: string; itemId: string }, label: SpanLabel | undefined): string | null {
  if (!label?.itemPrefix || span.itemId === "") return null;
  const rest = span.itemId.startsWith(label.itemPrefix) ? span.itemId.slice(label.itemPrefix.length) : "";
  if (/^[1-9]\d{0,5}$/.test(rest)) return null;
  return `"${span.itemId}" is not a question of ${span.label} (its questions are ${label.itemPrefix}1, ${label.itemPrefix}2, …).`;
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
