"use client";

/**
 * A localising queue's item (lib/queues/localize.ts): the span editor (components/spans) in the pinned player's place,
 * marking spans under the queue's id, and what a submission still needs. With presence first, each category marked
 * present needs a saved span of it by the reviewer; the screen says which before Enter, and Enter refuses to submit
 * until there is one (the server refuses it too). The editor's keys act only while focus is inside it (keyScope
 * "focus"): a click or Tab into it marks, Esc gives the keys back to the screen, and Enter always submits.
 * On a question target (VBench-2.0), spans are marked about that question (its item), so "no" can say where.
 */
import { useState, type ReactNode, type RefObject } from "react";
import { type ShownSpan, SpanWorkbench } from "@/components/spans/span-workbench";
import { TIMELINE_KEYS } from "@/components/spans/timeline-keys";
import { type SpanLabel, spanLabelOfCategory } from "@/lib/spans/span-labels";
import type { TaskDeclaration } from "@/lib/task-modules/task-declaration";
import type { ItemView, LocalizeView, TargetView } from "@/components/queues/review-types";

/** The review screen's help lists the timeline's keys too, each marked as acting inside the timeline. */
export const LOCALIZE_SHORTCUTS: readonly (readonly [string, string])[] = TIMELINE_KEYS.filter(
  ([key]) => key !== "?",
).map(([key, what]) => [key, `${what} (in the timeline: click it first; Esc leaves it)`] as const);

/** The labels a present answer requires a span of that have none saved: `unsaved` when a span of it is on its way. */
export function missingSpans(
  localize: LocalizeView | null | undefined,
  present: Record<string, boolean> | null,
  shown: readonly ShownSpan[],
): { labels: SpanLabel[]; unsaved: boolean } {
  if (!localize || !present) return { labels: [], unsaved: false };
  const saved = new Set(shown.filter((s) => s.own && s.id !== null).map((s) => s.label));
  const drawn = new Set(shown.filter((s) => s.own).map((s) => s.label));
  const missing = localize.requiredWhenPresent.filter((id) => present[id] === true && !saved.has(id));
  return {
    labels: localize.labels.filter((l) => missing.includes(l.id)),
    unsaved: missing.some((id) => drawn.has(id)),
  };
}

/** The message Enter gives while a present label has no span. */
function named(labels: readonly SpanLabel[]): string {
  return labels.map((l) => `${l.id} (${l.label})`).join(", ");
}

export function missingSpansMessage(missing: { labels: SpanLabel[]; unsaved: boolean }): string {
  const names = named(missing.labels);
  return missing.unsaved
    ? `Your span of ${names} is still being saved: press Enter again in a moment.`
    : `Mark where each present label is before submitting: no span of ${names}. Click the timeline, then [ ] and s.`;
}

/**
 * The labels the editor's `t` cycles and new spans take: the categories the queue asks (presence first: the ones a
 * present answer needs a span of; else the item's targets'), not every label of the task.
 */
export function askedSpanLabels(localize: LocalizeView, targets: readonly TargetView[]): string[] {
  if (localize.requiredWhenPresent.length > 0) return localize.requiredWhenPresent;
  const ids = new Set(localize.labels.map((l) => l.id));
  return [...new Set(targets.flatMap((t) => (t.category && ids.has(t.category) ? [t.category] : [])))];
}

/** The span item of the focused target: a question's (VBench-2.0's `material:q2`), else the video itself (''). */
function spanItemOf(task: TaskDeclaration | null, focused: TargetView | undefined): string {
  if (!task || !focused?.question || !focused.category) return "";
  return spanLabelOfCategory(task, focused.category)?.itemId ?? "";
}

export function useLocalizeStep(input: {
  data: ItemView;
  task: TaskDeclaration | null;
  userId: string;
  focused: TargetView | undefined;
  /** The presence step's answers (null: no presence step). */
  present: Record<string, boolean> | null;
  /** The screen's player ref: the editor's video element goes there, so the screen's seeks and Space reach it. */
  player: RefObject<HTMLVideoElement | null>;
}): {
  workbench: ReactNode;
  missing: { labels: SpanLabel[]; unsaved: boolean };
  /** Why Enter cannot submit yet, or null. */
  spansMissing: () => string | null;
  line: ReactNode;
} {
  const { data, task, userId, focused, present, player } = input;
  const localize = data.localize ?? null;
  const [shown, setShown] = useState<ShownSpan[]>([]);
  const itemId = spanItemOf(task, focused);
  const missing = missingSpans(localize, present, shown);
  const spansMissing = () => (missing.labels.length ? missingSpansMessage(missing) : null);
  if (!localize) return { workbench: null, missing, spansMissing, line: null };
  const workbench = (
    <SpanWorkbench
      videoId={data.video.id}
      projectId={data.queue.projectId}
      task={localize.task}
      runId={data.queue.runId}
      labels={localize.labels}
      markLabels={askedSpanLabels(localize, data.targets)}
      currentUserId={userId}
      itemId={itemId}
      queueId={data.queue.id}
      onSpansChange={setShown}
      keyScope="focus"
      videoRef={player}
    />
  );
  const line = (
    <p
      className={`rounded p-2 text-xs ${missing.labels.length ? "bg-amber-50 text-amber-900" : "bg-slate-50 text-slate-600"}`}
      data-testid="localize-status"
    >
      {missing.labels.length
        ? `Mark where: ${named(missing.labels)} ${missing.labels.length === 1 ? "is" : "are"} marked present with no span yet.`
        : localize.requiredWhenPresent.length
          ? "Each category you mark present needs a span of it on the timeline (click it, then [ ] and s)."
          : "Mark where on the timeline (click it, then [ ] and s); spans are optional here."}
      {itemId ? ` Spans now are about ${itemId}.` : ""}
    </p>
  );
  return { workbench, missing, spansMissing, line };
}
