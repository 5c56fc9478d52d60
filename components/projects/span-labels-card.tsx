"use client";

import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { ApiError, apiFetch } from "@/lib/api-client";
import type { SpanLabel, SpanLabelsAnswer } from "@/lib/spans/span-labels";

const input = "w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

/**
 * The project's own span labels on the Settings page (owners): each an id (what files and the API carry), a name
 * and a definition reviewers read. Saved whole with PUT /api/v1/projects/{projectId}/span-labels; the server's
 * refusal (a repeated id, a label spans still carry) is shown as it words it.
 */
export function SpanLabelsCard({ projectId, initial }: { projectId: string; initial: readonly SpanLabel[] }) {
  // Each row keeps a key of its own, so removing a row never moves another row's half-typed text.
  const [rows, setRows] = useState(() => initial.map((label, key) => ({ key, ...label })));
  const [nextKey, setNextKey] = useState(initial.length);
  const [state, setState] = useState<{ kind: "idle" | "saving" | "saved" } | { kind: "error"; message: string }>({
    kind: "idle",
  });

  const edit = (key: number, field: keyof SpanLabel, value: string) => {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
    setState({ kind: "idle" });
  };

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setState({ kind: "saving" });
    try {
      const saved = await apiFetch<SpanLabelsAnswer>(`/api/v1/projects/${projectId}/span-labels`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ labels: rows.map(({ id, label, definition }) => ({ id, label, definition })) }),
      });
      setRows(saved.labels.map((label, key) => ({ key, ...label })));
      setNextKey(saved.labels.length);
      setState({ kind: "saved" });
    } catch (error) {
      setState({ kind: "error", message: error instanceof ApiError ? error.message : "The labels were not saved." });
    }
  };

  return (
    <form className="flex flex-col gap-3 text-sm" onSubmit={save} data-testid="span-labels">
      <p className="text-slate-600">
        Labels for spans of any video in this project, beside each task&apos;s own (its categories or criteria). A label
        spans carry stays in the list until those spans are changed or withdrawn.
      </p>
      {rows.length === 0 ? (
        <p className="text-slate-500">No labels of the project&apos;s own yet.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {rows.map((row, index) => (
            <SpanLabelRow
              key={row.key}
              row={row}
              number={index + 1}
              onEdit={(field, value) => edit(row.key, field, value)}
              onRemove={() => {
                setRows((current) => current.filter((r) => r.key !== row.key));
                setState({ kind: "idle" });
              }}
            />
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={buttonClass("secondary")}
          onClick={() => {
            setRows((current) => [...current, { key: nextKey, id: "", label: "", definition: "" }]);
            setNextKey(nextKey + 1);
            setState({ kind: "idle" });
          }}
        >
          Add label
        </button>
        <button type="submit" className={buttonClass()} disabled={state.kind === "saving"}>
          Save labels
        </button>
        {state.kind === "saved" && (
          <span role="status" className="text-emerald-700">
            Saved.
          </span>
        )}
        {state.kind === "error" && (
          <span role="alert" className="text-red-700">
            {state.message}
          </span>
        )}
      </div>
    </form>
  );
}

/** One label's row: its id, name and definition, and a button that removes it. */
function SpanLabelRow({
  row,
  number,
  onEdit,
  onRemove,
}: {
  row: SpanLabel;
  number: number;
  onEdit: (field: keyof SpanLabel, value: string) => void;
  onRemove: () => void;
}) {
  return (
    <li className="grid grid-cols-[8rem_10rem_1fr_auto] items-start gap-2">
      <input
        aria-label={`Id of label ${number}`}
        className={`${input} font-mono`}
        value={row.id}
        maxLength={64}
        onChange={(e) => onEdit("id", e.target.value)}
      />
      <input
        aria-label={`Name of label ${number}`}
        className={input}
        value={row.label}
        maxLength={120}
        onChange={(e) => onEdit("label", e.target.value)}
      />
      <textarea
        aria-label={`Definition of label ${number}`}
        className={input}
        rows={1}
        value={row.definition}
        maxLength={2000}
        onChange={(e) => onEdit("definition", e.target.value)}
      />
      <button type="button" className={buttonClass("secondary")} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}
