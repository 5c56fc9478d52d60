"use client";

import { buttonClass } from "@/components/class-names";

export interface ColumnMapState {
  video: string;
  annotator: string;
  targets: { column: string; target: string }[];
}

/** The column map's JSON for the import request (blank rows left out), as genericColumnMapSchema reads it. */
export function columnMapJson(map: ColumnMapState): string {
  const targets = Object.fromEntries(
    map.targets.filter((t) => t.column.trim() && t.target).map((t) => [t.column.trim(), t.target]),
  );
  return JSON.stringify({
    video: map.video.trim(),
    ...(map.annotator.trim() ? { annotator: map.annotator.trim() } : {}),
    targets,
  });
}

/**
 * A wide generic file's columns: which holds the video, which the annotator (optional), and which criterion each
 * other column gives. `headers` (from a dry run) are offered as column names.
 */
export function ColumnMapEditor({
  map,
  onChange,
  choices,
  headers,
}: {
  map: ColumnMapState;
  onChange: (map: ColumnMapState) => void;
  choices: { value: string; label: string }[];
  headers: string[];
}) {
  const input = "rounded-md border border-slate-300 px-2 py-1";
  const setTarget = (i: number, change: Partial<{ column: string; target: string }>) =>
    onChange({ ...map, targets: map.targets.map((t, k) => (k === i ? { ...t, ...change } : t)) });
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-slate-200 p-3" data-testid="label-set-column-map">
      <legend className="px-1 text-slate-700">Columns (one per criterion)</legend>
      <datalist id="label-set-wide-headers">
        {headers.map((h) => (
          <option key={h} value={h} />
        ))}
      </datalist>
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1">
          Video column
          <input
            className={input}
            value={map.video}
            list="label-set-wide-headers"
            data-testid="label-set-video-column"
            onChange={(e) => onChange({ ...map, video: e.target.value })}
          />
        </label>
        <label className="flex flex-col gap-1">
          Annotator column (optional)
          <input
            className={input}
            value={map.annotator}
            list="label-set-wide-headers"
            data-testid="label-set-annotator-column"
            onChange={(e) => onChange({ ...map, annotator: e.target.value })}
          />
        </label>
      </div>
      {map.targets.map((t, i) => (
        <div key={i} className="flex flex-wrap items-center gap-2" data-testid="label-set-column-row">
          <input
            className={input}
            placeholder="column"
            aria-label={`Column ${i + 1}`}
            value={t.column}
            list="label-set-wide-headers"
            onChange={(e) => setTarget(i, { column: e.target.value })}
          />
          <span aria-hidden>→</span>
          <select
            className={input}
            aria-label={`Criterion of column ${i + 1}`}
            value={t.target}
            onChange={(e) => setTarget(i, { target: e.target.value })}
          >
            <option value="">(choose a criterion)</option>
            {choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className={buttonClass("secondary")}
            onClick={() => onChange({ ...map, targets: map.targets.filter((_, k) => k !== i) })}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className={buttonClass("secondary")}
          data-testid="label-set-add-column"
          onClick={() => onChange({ ...map, targets: [...map.targets, { column: "", target: "" }] })}
        >
          Add a column
        </button>
      </div>
      <p className="text-xs text-slate-500">
        Values are numbers, or a categorical criterion&apos;s label by name (yes/no, present/absent); an empty cell is
        no label.
      </p>
    </fieldset>
  );
}
