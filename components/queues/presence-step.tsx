"use client";

import { useState, type ReactNode } from "react";
import { PRESENCE_KEY_SET } from "@/lib/queues/presence-keys";
import type { PresenceJudgment } from "@/lib/queues/submit-item.validation";

/** A presence-first item's category, as the item API sends it (`judge` absent while blind). */
export interface PresenceCategoryView {
  id: string;
  /** The key that toggles it (its number, or a letter), null past the last key. */
  key: string | null;
  label: string;
  definition: string;
  /** The score targets (item target keys) of this category. */
  targetKeys: string[];
  mine: { value: number; note: string | null; version: number } | null;
  /** The judge's presence at the declared threshold; absent while the queue is blind to the reviewer. */
  judge?: number | null;
}

export interface PresenceView {
  absentValue: number;
  threshold: number;
  categories: PresenceCategoryView[];
}

/** Shown in the review screen's key help while a queue asks presence first. */
export const PRESENCE_SHORTCUTS: [string, string][] = [
  ["1–9, 0, letters", "presence step: toggle the category with that key"],
  ["Enter", "presence step: go on to grade the present categories (submits when none needs a value)"],
  ["p", "grading step: back to the presence step"],
];

/**
 * The presence step of a presence-first queue item: which categories are present in the video. The
 * review screen hands it every key first; it takes the category keys, j/k and Enter while the step is
 * on screen, and `p` afterwards to come back. Values are then asked only for the score targets of
 * categories the reviewer marked present or the judge (when shown) says are present; the server stores
 * the declared absent value for the others.
 */
/**
 * `restored`: the presence answers of a submission of this item that was not saved (it failed in the background);
 * they win over the stored ones, and the step opens on the grading, where the reviewer left it.
 */
export function usePresenceStep(
  presence: PresenceView | null | undefined,
  targetKeys: readonly string[],
  restored: Record<string, boolean> | null = null,
  /** Toggles typed on this item and not submitted yet (kept in the browser): they win over the stored answers, the step stays open. */
  draft: Record<string, boolean> | null = null,
) {
  const [active, setActive] = useState(Boolean(presence) && !restored);
  const [present, setPresent] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(
      (presence?.categories ?? []).map((c) => [c.id, restored?.[c.id] ?? draft?.[c.id] ?? c.mine?.value === 1]),
    ),
  );
  const [focus, setFocus] = useState(0);
  const categories = presence?.categories ?? [];
  const asked = (c: PresenceCategoryView) => present[c.id] === true || c.judge === 1;
  const notAsked = new Set(categories.filter((c) => !asked(c)).flatMap((c) => c.targetKeys));
  const toggle = (id: string) => setPresent((p) => ({ ...p, [id]: !p[id] }));

  /** Takes a key meant for the presence step; false leaves it to the screen (Enter with nothing to grade submits there). */
  const handleKey = (key: string): boolean => {
    if (!presence) return false;
    if (!active) {
      if (key !== "p") return false;
      setActive(true);
      return true;
    }
    const category = categories.find((c) => c.key === key);
    if (category) {
      toggle(category.id);
      setFocus(categories.indexOf(category));
      return true;
    }
    if (key === "j" || key === "ArrowDown") return (setFocus((f) => Math.min(f + 1, categories.length - 1)), true);
    if (key === "k" || key === "ArrowUp") return (setFocus((f) => Math.max(f - 1, 0)), true);
    if (key === "Enter") {
      if (targetKeys.every((k) => notAsked.has(k))) return false;
      setActive(false);
      return true;
    }
    // Scoring, accepting and notes wait for the grading step (their targets are not on screen yet).
    return PRESENCE_KEY_SET.has(key) || /^[0-9aAmyn]$/.test(key);
  };

  const element: ReactNode = presence ? (
    <PresenceList
      presence={presence}
      present={present}
      focus={focus}
      onPick={(index) => {
        toggle(categories[index]!.id);
        setFocus(index);
      }}
    />
  ) : null;
  const summary: ReactNode = presence ? (
    <PresenceSummary categories={categories} present={present} onChange={() => setActive(true)} />
  ) : null;

  return {
    /** The presence step is on screen (the targets wait). */
    active: Boolean(presence) && active,
    handleKey,
    /** Whether a score target is asked: not one of a category nobody says is present. */
    isAsked: (targetKey: string) => !notAsked.has(targetKey),
    /** The submission's `presence`, or undefined for a queue that grades every score. */
    /** The reviewer's answers by category, to keep with an unsent submission. */
    answers: (): Record<string, boolean> | null => (presence ? { ...present } : null),
    /** True when the answers differ from the stored ones (something typed and not submitted). */
    changed: Boolean(presence) && categories.some((c) => (present[c.id] === true) !== (c.mine?.value === 1)),
    judgments: (): PresenceJudgment[] | undefined =>
      presence
        ? categories.map((c) => ({ category: c.id, value: present[c.id] ? 1 : 0, expectedVersion: c.mine?.version }))
        : undefined,
    element,
    summary,
  };
}

/** The presence step on screen: each category with its key, the reviewer's answer and the judge's (unless blind). */
function PresenceList({
  presence,
  present,
  focus,
  onPick,
}: {
  presence: PresenceView;
  present: Record<string, boolean>;
  focus: number;
  onPick: (index: number) => void;
}) {
  const categories = presence.categories;
  return (
    <section
      className="flex flex-col gap-2"
      data-testid="presence-step"
      aria-label="Which categories are present in the video?"
    >
      <p className="text-sm font-medium text-slate-800">Which categories are present anywhere in the video?</p>
      <p className="text-xs text-slate-500">
        Press a category&apos;s key to mark it present (again: absent). Enter goes on to grade the present ones; absent
        ones are stored as {presence.absentValue}.
        {categories.some((c) => "judge" in c)
          ? ` The judge's presence: its highest score of the category ≥ ${presence.threshold}.`
          : " The judge's presence is hidden until you submit."}
      </p>
      <ol className="flex max-h-[60vh] flex-col gap-1 overflow-y-auto">
        {categories.map((c, index) => (
          <PresenceRow
            key={c.id}
            category={c}
            isPresent={present[c.id] === true}
            isFocused={index === focus}
            onPick={() => onPick(index)}
          />
        ))}
      </ol>
    </section>
  );
}

function PresenceRow({
  category: c,
  isPresent,
  isFocused,
  onPick,
}: {
  category: PresenceCategoryView;
  isPresent: boolean;
  isFocused: boolean;
  onPick: () => void;
}) {
  return (
    <li
      data-testid="presence-category"
      data-category={c.id}
      data-present={isPresent}
      data-focused={isFocused}
      onClick={onPick}
      className={`cursor-pointer rounded-md border p-2 text-sm ${isPresent ? "border-amber-500 bg-amber-50" : "border-slate-200 bg-white"} ${isFocused ? "ring-1 ring-indigo-400" : ""}`}
    >
      <div className="flex items-center gap-2">
        <kbd
          className="w-6 rounded border border-slate-300 bg-slate-50 text-center font-mono text-xs"
          data-testid="presence-key"
        >
          {c.key ?? "·"}
        </kbd>
        <span className="min-w-0 flex-1">
          <b className="font-mono">{c.id}</b> · {c.label}
        </span>
        <span
          className={`text-xs font-semibold ${isPresent ? "text-amber-800" : "text-slate-500"}`}
          data-testid="presence-mine"
        >
          {isPresent ? "present" : "absent"}
        </span>
        {"judge" in c ? (
          <span className="w-24 text-right text-xs text-slate-600" data-testid="presence-judge">
            judge: {c.judge === 1 ? "present" : c.judge === 0 ? "absent" : "—"}
          </span>
        ) : (
          <span className="w-24 text-right text-xs text-slate-500" data-testid="presence-judge-hidden">
            judge hidden
          </span>
        )}
      </div>
      <p
        className={`mt-0.5 text-xs text-slate-500 ${isFocused ? "" : "truncate"}`}
        title={c.definition}
        data-testid="presence-definition"
      >
        {c.definition}
      </p>
    </li>
  );
}

/** The grading step's reminder of the presence answers (and the judge's, when it says more), with the way back. */
function PresenceSummary({
  categories,
  present,
  onChange,
}: {
  categories: PresenceCategoryView[];
  present: Record<string, boolean>;
  onChange: () => void;
}) {
  const judgeAlso = categories.filter((c) => c.judge === 1 && !present[c.id]).map((c) => c.id);
  return (
    <p className="text-xs text-slate-600" data-testid="presence-summary">
      Present:{" "}
      {categories
        .filter((c) => present[c.id])
        .map((c) => c.id)
        .join(", ") || "none"}
      {judgeAlso.length > 0 ? ` · the judge also says: ${judgeAlso.join(", ")}` : ""} ·{" "}
      <button type="button" className="text-indigo-700 underline" onClick={onChange}>
        change (p)
      </button>
    </p>
  );
}
