// The Import page's list of files: each one's path, state, progress and message, the first 1,000 of them.
import { FINISHED_IMPORT_STATES, type ImportItemState } from "@/lib/import/import-summary";
import type { ImportItem } from "./import-item";

const SHOWN = 1000;

export function ImportItemList({ projectId, items }: { projectId: string; items: readonly ImportItem[] }) {
  return (
    <ul
      className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm"
      data-testid="import-items"
    >
      {items.slice(0, SHOWN).map((item) => (
        <li
          key={item.key}
          className="flex flex-col gap-1 px-3 py-2"
          data-testid="import-item"
          data-state={item.state}
          data-path={item.relativePath}
        >
          <div className="flex items-center gap-3">
            <span className="min-w-0 flex-1 truncate font-mono text-xs" title={item.relativePath}>
              {item.relativePath}
            </span>
            <span className={`rounded px-1.5 py-0.5 text-xs ${stateClass(item.state)}`}>{item.state}</span>
            {item.videoId && (item.state === "done" || item.state === "stored") && (
              <a className="text-xs text-indigo-700 underline" href={`/projects/${projectId}/videos/${item.videoId}`}>
                open
              </a>
            )}
          </div>
          {!FINISHED_IMPORT_STATES.includes(item.state) && item.state !== "queued" && (
            <div className="h-1 w-full overflow-hidden rounded bg-slate-100">
              <div className="h-full bg-indigo-400" style={{ width: `${item.progress * 100}%` }} />
            </div>
          )}
          {item.message && (
            <span
              className={`text-xs ${item.state === "error" ? "text-red-700" : "text-slate-500"}`}
              data-testid="import-item-message"
              title={item.prompt}
            >
              {item.message}
            </span>
          )}
        </li>
      ))}
      {items.length > SHOWN && (
        <li className="px-3 py-2 text-xs text-slate-500">…and {items.length - SHOWN} more files (counted above).</li>
      )}
    </ul>
  );
}

function stateClass(state: ImportItemState): string {
  if (state === "done") return "bg-emerald-100 text-emerald-800";
  if (state === "error") return "bg-red-100 text-red-800";
  if (state === "duplicate" || state === "stored") return "bg-amber-100 text-amber-800";
  if (state === "skipped" || state === "cancelled") return "bg-slate-100 text-slate-600";
  return "bg-indigo-100 text-indigo-800";
}
