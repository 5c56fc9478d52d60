import {
  FINISHED_IMPORT_STATES,
  importSummary,
  importSummaryLine,
  type ImportItemState,
} from "@/lib/import/import-summary";
import type { PickedKind } from "@/lib/import/classify-file";

const BAR_COLOUR = {
  running: "bg-indigo-600",
  success: "bg-emerald-600",
  warning: "bg-amber-500",
  failure: "bg-red-600",
} as const;
const BOX_COLOUR = {
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  failure: "border-red-200 bg-red-50 text-red-900",
} as const;

/**
 * The import's overall progress bar and, once an import has finished, its summary: how many files were
 * imported, skipped and failed. A finished bar takes the outcome's colour, so an import that stored nothing
 * does not end on a full bar in the running colour (issue 38 §5.11).
 */
export function ImportProgress({
  items,
  running,
  finished,
}: {
  items: readonly { kind: PickedKind; state: ImportItemState; progress: number }[];
  running: boolean;
  /** An import ran to its end (or was cancelled) since files were last added. */
  finished: boolean;
}) {
  const offered = items.filter((i) => i.kind !== "other");
  if (offered.length === 0 && !finished) return null;
  const summary = importSummary(items);
  const overall = offered.length
    ? offered.reduce((sum, i) => sum + (FINISHED_IMPORT_STATES.includes(i.state) ? 1 : i.progress), 0) / offered.length
    : 0;
  const done = finished && !running;
  const colour = done ? BAR_COLOUR[summary.tone] : BAR_COLOUR.running;
  return (
    <>
      {offered.length > 0 && (
        <div
          className="h-2 w-full overflow-hidden rounded bg-slate-200"
          role="progressbar"
          aria-label="Overall progress"
          aria-valuenow={Math.round(overall * 100)}
          aria-valuetext={done ? `finished: ${importSummaryLine(summary)}` : `${Math.round(overall * 100)}%`}
          data-testid="import-progress"
          data-tone={done ? summary.tone : "running"}
        >
          <div className={`h-full ${colour} transition-all`} style={{ width: `${overall * 100}%` }} />
        </div>
      )}
      {done && (
        <p
          role="status"
          className={`rounded-md border px-3 py-2 text-sm ${BOX_COLOUR[summary.tone]}`}
          data-testid="import-finished"
          data-tone={summary.tone}
        >
          <b>{summary.tone === "failure" ? "Import finished: nothing was imported." : "Import finished."}</b>{" "}
          {importSummaryLine(summary)}.
        </p>
      )}
    </>
  );
}
