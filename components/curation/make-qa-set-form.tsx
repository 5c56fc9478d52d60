"use client";

import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { ApiError, postJson } from "@/components/import/api-client";

/** One click: the candidate set's accepted questions become a question set of this or another project. */
export function MakeQaSetForm({ candidateSetId, projects, defaultName }: { candidateSetId: string; projects: { id: string; name: string }[]; defaultName: string }) {
  const [projectId, setProjectId] = useState(projects[0]?.id ?? "");
  const [format, setFormat] = useState<"both" | "mc" | "open">("both");
  const [name, setName] = useState(defaultName);
  const [result, setResult] = useState<{ questionSetId: string; projectId: string; count: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="mt-2 flex flex-wrap items-center gap-2 text-xs"
      data-testid="make-qa-set"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(null);
        setResult(null);
        try {
          setResult(await postJson(`/api/v1/candidate-sets/${candidateSetId}/qa-sets`, { projectId, format, name }));
        } catch (e) {
          setError(e instanceof ApiError ? e.message : String(e));
        } finally {
          setBusy(false);
        }
      }}
    >
      <span>Make a QA set:</span>
      <input className="rounded border border-slate-300 p-1" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} aria-label="Question set name" />
      <select className="rounded border border-slate-300 p-1" value={format} onChange={(e) => setFormat(e.target.value as "both" | "mc" | "open")} aria-label="Format">
        <option value="both">mc and open</option>
        <option value="mc">mc</option>
        <option value="open">open</option>
      </select>
      <select className="rounded border border-slate-300 p-1" value={projectId} onChange={(e) => setProjectId(e.target.value)} aria-label="Into project">
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <button type="submit" className={buttonClass("secondary")} disabled={busy || !projectId}>
        Make QA set
      </button>
      {result && (
        <span className="text-emerald-800" data-testid="make-qa-set-result">
          {result.count} questions imported:{" "}
          <a className="underline" href={`/projects/${result.projectId}/qa`}>
            evaluate models on them
          </a>
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
