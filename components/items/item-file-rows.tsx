"use client";

/**
 * What the Import page's sections for a task's item files share (each task's panel: components/tasks/<id>/):
 * one row per dropped file, checked with a dry run and then imported, each row showing its state, the
 * import's refusal and every problem of the file with its line, and the file's videos missing from the project.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { ApiError } from "@/lib/api-client";

export type ItemFileState = "new" | "checking" | "checked" | "invalid" | "importing" | "imported" | "error";

/** A dropped item file on its way in; a task's row adds its own fields (the summary, a model name…). */
export interface ItemFileRow {
  key: string;
  file: File;
  relativePath: string;
  state: ItemFileState;
  errors?: { line: number | null; message: string }[];
  unmatched?: string[];
  message?: string;
}

export const fileNameOf = (path: string) => path.split("/").pop() ?? path;

/** The row's change when an import or its dry run failed: a refused file (`invalid_file`, with its problems) or any other error. */
export function itemFileFailure(error: unknown): Pick<ItemFileRow, "state" | "message" | "errors" | "unmatched"> {
  const details =
    error instanceof ApiError
      ? (error.body as { error?: { details?: { errors?: ItemFileRow["errors"]; unmatched?: string[] } } } | null)?.error
          ?.details
      : undefined;
  return {
    state: error instanceof ApiError && error.code === "invalid_file" ? "invalid" : "error",
    message: error instanceof Error ? error.message : String(error),
    errors: details?.errors,
    unmatched: details?.unmatched,
  };
}

/**
 * The rows of the files dropped so far, one per path (a file dropped again is not added twice): `toRow`
 * makes a new file's row, `arrange` may then adjust all rows (say, link a file to another dropped along).
 * `current` reads the latest rows at once (the state catches up on the next render).
 */
export function useItemFileRows<Dropped, Row extends ItemFileRow>(
  files: readonly Dropped[],
  pathOf: (dropped: Dropped) => string,
  toRow: (dropped: Dropped) => Row,
  arrange: (rows: Row[]) => Row[] = (rows) => rows,
) {
  const [rows, setRows] = useState<Row[]>([]);
  const seen = useRef(new Set<string>());
  const current = useRef(rows);
  current.current = rows;
  useEffect(() => {
    const added = files.filter((dropped) => !seen.current.has(pathOf(dropped)));
    if (added.length === 0) return;
    for (const dropped of added) seen.current.add(pathOf(dropped));
    setRows((old) => arrange([...old, ...added.map(toRow)]));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only newly dropped files matter; the callbacks are the panel's fixed rules
  }, [files]);
  const patch = (key: string, change: Partial<Row>) =>
    setRows((old) => old.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return { rows, current, patch };
}

/** One file's row: its path, the task's controls (`children`), its state, `summary`, then its message, problems and missing videos. */
export function ItemFileRowView({
  row,
  testId,
  children,
  summary,
}: {
  row: ItemFileRow;
  testId: string;
  children?: ReactNode;
  summary?: ReactNode;
}) {
  return (
    <li
      className="flex flex-col gap-2 px-3 py-2"
      data-testid={testId}
      data-state={row.state}
      data-path={row.relativePath}
    >
      <div className="flex flex-wrap items-center gap-3">
        <span className="min-w-0 flex-1 truncate font-mono text-xs" title={row.relativePath}>
          {row.relativePath}
        </span>
        {children}
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs" data-testid={`${testId}-state`}>
          {row.state}
        </span>
      </div>
      {summary}
      {row.message && (
        <p
          className={`text-xs ${row.state === "invalid" || row.state === "error" ? "text-red-700" : "text-slate-500"}`}
          data-testid={`${testId}-message`}
        >
          {row.message}
        </p>
      )}
      {row.errors && row.errors.length > 0 && (
        <ul className="max-h-48 overflow-y-auto text-xs text-red-700" data-testid={`${testId}-errors`}>
          {row.errors.map((e, i) => (
            <li key={i}>
              {e.line !== null ? `line ${e.line}: ` : ""}
              {e.message}
            </li>
          ))}
        </ul>
      )}
      {row.unmatched && row.unmatched.length > 0 && (
        <p className="text-xs text-red-700" data-testid={`${testId}-unmatched`}>
          Not in the project: {row.unmatched.join(", ")}
        </p>
      )}
    </li>
  );
}
