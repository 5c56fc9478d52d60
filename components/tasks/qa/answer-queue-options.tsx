"use client";

import type { QueueOptionsFormProps } from "../task-views";

/** An answer queue's narrowing on the new-queue form: a question format and category, and whether letter-read answers count (the body's `answers`). */
export function AnswerQueueOptions({ choices, value, onChange }: QueueOptionsFormProps) {
  const { categories = [] } = (choices ?? {}) as { categories?: string[] };
  const set = (key: "format" | "category", chosen: string) => {
    const { [key]: _dropped, ...rest } = value;
    onChange(chosen ? { ...rest, [key]: chosen } : rest);
  };
  return (
    <fieldset className="flex flex-col gap-2" data-testid="queue-answers">
      <legend className="font-medium">Reviewers mark each answer of the run correct or wrong</legend>
      <label className="flex items-center gap-2">
        Format
        <select
          aria-label="Question format"
          value={String(value.format ?? "")}
          onChange={(e) => set("format", e.target.value)}
          className="rounded-md border border-slate-300 px-2 py-1"
        >
          <option value="">every format</option>
          <option value="open">open-ended</option>
          <option value="mc">multiple choice</option>
        </select>
      </label>
      <label className="flex items-center gap-2">
        Category
        <select
          aria-label="Question category"
          value={String(value.category ?? "")}
          onChange={(e) => set("category", e.target.value)}
          className="rounded-md border border-slate-300 px-2 py-1"
        >
          <option value="">every category</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={value.letters === true}
          onChange={(e) => onChange({ ...value, letters: e.target.checked })}
        />{" "}
        also the multiple-choice answers whose letter FrameJury read (they need no review; without this, only the
        answers the judge decided)
      </label>
    </fieldset>
  );
}
