"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { ApiError, postJson } from "@/lib/api-client";

/** Creating a curation queue: the request, whether it is on its way and why it failed; the page is read again once it exists. */
function useCreateCurationQueue(projectId: string) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async (body: Record<string, unknown>, onCreated: () => void) => {
    setBusy(true);
    setError(null);
    try {
      await postJson(`/api/v1/projects/${projectId}/curation-queues`, body);
      onCreated();
      router.refresh();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return { create, error, busy };
}

/** Owners make a curation queue over one of the project's candidate sets. */
export function NewCurationQueueForm({
  projectId,
  candidateSets,
}: {
  projectId: string;
  candidateSets: { id: string; name: string; itemCount: number }[];
}) {
  const [candidateSetId, setCandidateSetId] = useState(candidateSets[0]?.id ?? "");
  const [name, setName] = useState("");
  const [curatorsPerQuestion, setCuratorsPerQuestion] = useState(1);
  const [scope, setScope] = useState<"kept" | "all">("kept");
  const [assignees, setAssignees] = useState("");
  const [guidelines, setGuidelines] = useState("");
  const { create, error, busy } = useCreateCurationQueue(projectId);
  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="new-curation-queue"
      onSubmit={async (event) => {
        event.preventDefault();
        await create(
          {
            candidateSetId,
            name,
            curatorsPerQuestion,
            scope,
            assignees: assignees.split(/[\s,]+/).filter(Boolean),
            guidelines,
          },
          () => setName(""),
        );
      }}
    >
      <h2 className="text-base font-semibold text-slate-800">New curation queue</h2>
      <label className="text-sm">
        Candidate set{" "}
        <CandidateSetSelect candidateSets={candidateSets} value={candidateSetId} onChange={setCandidateSetId} />
      </label>
      <label className="text-sm">
        Name{" "}
        <input
          className="rounded border border-slate-300 p-1"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={200}
          data-testid="curation-name"
        />
      </label>
      <label className="text-sm">
        Curators per question{" "}
        <input
          type="number"
          min={1}
          max={5}
          className="w-16 rounded border border-slate-300 p-1"
          value={curatorsPerQuestion}
          onChange={(e) => setCuratorsPerQuestion(Number(e.target.value))}
          data-testid="curation-n"
        />
      </label>
      <label className="text-sm">
        Candidates <CandidateScopeSelect value={scope} onChange={setScope} />
      </label>
      <label className="text-sm">
        Assign to (emails, optional){" "}
        <input
          className="w-80 rounded border border-slate-300 p-1"
          value={assignees}
          onChange={(e) => setAssignees(e.target.value)}
          placeholder="everyone who may review"
        />
      </label>
      <label className="text-sm">
        Guidelines (Markdown, optional)
        <textarea
          className="mt-1 w-full rounded border border-slate-300 p-2"
          rows={3}
          value={guidelines}
          onChange={(e) => setGuidelines(e.target.value)}
        />
      </label>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className={buttonClass()} disabled={busy || !candidateSetId}>
          Create the queue
        </button>
      </div>
    </form>
  );
}

function CandidateSetSelect({
  candidateSets,
  value,
  onChange,
}: {
  candidateSets: { id: string; name: string; itemCount: number }[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <select
      className="rounded border border-slate-300 p-1"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid="curation-set"
    >
      {candidateSets.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name} ({s.itemCount} candidates)
        </option>
      ))}
    </select>
  );
}

/** Which candidates the queue holds: those the filters kept, or all (to restore one a filter removed). */
function CandidateScopeSelect({
  value,
  onChange,
}: {
  value: "kept" | "all";
  onChange: (scope: "kept" | "all") => void;
}) {
  return (
    <select
      className="rounded border border-slate-300 p-1"
      value={value}
      onChange={(e) => onChange(e.target.value as "kept" | "all")}
      data-testid="curation-scope"
    >
      <option value="kept">only those the filters kept</option>
      <option value="all">all, including those a filter removed (to restore them)</option>
    </select>
  );
}
