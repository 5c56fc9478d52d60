"use client";

import { buttonClass } from "@/components/class-names";

/**
 * A file field in the app's own style: a button ("Choose file…") and the chosen file's name, in place of the
 * browser's raw control, whose look and words ("No file chosen") differ per browser and theme. The input stays
 * in the label (screen readers and the keyboard reach it; Playwright's setInputFiles too) but is visually hidden.
 */
export function FilePicker({
  label,
  accept,
  file,
  onChange,
  testId,
}: {
  label: string;
  accept?: string;
  file: File | null;
  onChange: (file: File | null) => void;
  /** On the input itself, so tests can set files on it. */
  testId?: string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <span>{label}</span>
      <div className="flex items-center gap-2">
        <label
          className={`${buttonClass("secondary")} cursor-pointer focus-within:ring-2 focus-within:ring-indigo-400`}
        >
          {file ? "Choose another file…" : "Choose file…"}
          <input
            type="file"
            accept={accept}
            className="sr-only"
            aria-label={label}
            data-testid={testId}
            onChange={(e) => onChange(e.target.files?.[0] ?? null)}
          />
        </label>
        <span
          className={`max-w-56 truncate text-xs ${file ? "font-mono text-slate-700" : "text-slate-500"}`}
          title={file?.name}
          data-testid={testId ? `${testId}-name` : undefined}
        >
          {file ? file.name : "no file chosen"}
        </span>
      </div>
    </div>
  );
}
