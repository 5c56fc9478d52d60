"use client";

import Link from "next/link";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { EXPORT_FORMATS, type ExportFormat, makeQaSet } from "./construction-requests";

const FORMAT_LABELS: Record<ExportFormat, string> = { mc: "multiple choice", open: "open-ended", both: "both" };
const select = "rounded-md border border-slate-300 px-2 py-1.5";

/** Turns the set's accepted questions into a question set of a project the user may import into. */
export function MakeQaSetForm({
  candidateSetId,
  candidateSetName,
  projects,
  defaultProjectId,
}: {
  candidateSetId: string;
  candidateSetName: string;
  projects: { id: string; name: string }[];
  defaultProjectId: string;
}) {
  const [projectId, setProjectId] = useState(
    projects.some((p) => p.id === defaultProjectId) ? defaultProjectId : (projects[0]?.id ?? ""),
  );
  const [format, setFormat] = useState<ExportFormat>("both");
  const [name, setName] = useState(`${candidateSetName} (curated)`);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ questionSetId: string; projectId: string; count: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (projects.length === 0)
    return <p className="text-xs text-slate-500">You may import into no project, so you cannot make a QA set.</p>;
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-xs"
      data-testid="make-qa-set"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        setResult(null);
        try {
          setResult(await makeQaSet(candidateSetId, { projectId, format, name: name.trim() }));
        } catch (err) {
          setError(err instanceof Error ? err.message : String(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label className="flex flex-col gap-1">
        Target project
        <select
          className={select}
          value={projectId}
          onChange={(e) => setProjectId(e.target.value)}
          data-testid="make-qa-set-project"
        >
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Format
        <select
          className={select}
          value={format}
          onChange={(e) => setFormat(e.target.value as ExportFormat)}
          data-testid="make-qa-set-format"
        >
          {EXPORT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Question set name
        <input
          className={select}
          value={name}
          required
          maxLength={300}
          onChange={(e) => setName(e.target.value)}
          data-testid="make-qa-set-name"
        />
      </label>
      <button type="submit" className={buttonClass()} disabled={busy || !name.trim()} data-testid="make-qa-set-submit">
        Make a QA set
      </button>
      {result && (
        <span className="text-emerald-800" data-testid="make-qa-set-result">
          {result.count} question{result.count === 1 ? "" : "s"} stored.{" "}
          <Link className="text-indigo-700 underline" href={`/projects/${result.projectId}/qa`}>
            Open Video QA
          </Link>
        </span>
      )}
      {error && (
        <span role="alert" className="text-red-700">
          {error}
        </span>
      )}
    </form>
  );
}
