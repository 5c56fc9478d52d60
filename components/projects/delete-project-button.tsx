"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";
import type { ProjectDeletionCounts } from "@/lib/projects/project-deletion";
import { itemNounPhrase } from "@/lib/task-modules/task-display";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";

type Answer = { dryRun: boolean; name: string; counts: ProjectDeletionCounts };

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

function send(projectId: string, body: unknown) {
  return apiFetch<Answer>(`/api/v1/projects/${projectId}`, {
    method: "DELETE",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * *Delete project* (owners): the server counts what goes, the owner types the project's name, and the project is gone
 * at once; a worker deletes its videos, frames, runs, judgments, queues and stored files, and the projects page
 * follows it (components/projects/project-deletions.tsx), where it can be cancelled until it ends.
 */
export function DeleteProjectButton({ projectId }: { projectId: string }) {
  const router = useRouter();
  const [counts, setCounts] = useState<Answer | null>(null);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setOpen(true);
    setError(null);
    try {
      setCounts(await send(projectId, { dryRun: true }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await send(projectId, { confirmName: typed });
      router.push("/");
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  const c = counts?.counts;
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="delete-project">
      {!open && (
        <div>
          <button
            type="button"
            className={buttonClass("danger")}
            onClick={() => void start()}
            data-testid="delete-project-start"
          >
            Delete project…
          </button>
        </div>
      )}
      {open && (
        <div
          className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50/50 p-3"
          role="group"
          aria-label="Delete this project"
        >
          {c ? (
            <>
              <p>Deleting the project removes, and cannot be undone:</p>
              <DeletionCountsList counts={c} />
              <label className="flex flex-col gap-1">
                <span>
                  Type the project&apos;s name, <b>{counts!.name}</b>, to confirm
                </span>
                <input
                  value={typed}
                  onChange={(e) => setTyped(e.target.value)}
                  className="rounded-md border border-slate-300 px-2 py-1"
                  data-testid="delete-project-name"
                />
              </label>
            </>
          ) : (
            !error && <p className="text-slate-500">Counting what the project holds…</p>
          )}
          {error && (
            <p role="alert" className="text-red-800">
              {error}
            </p>
          )}
          <div className="flex gap-2">
            <button
              type="button"
              className={buttonClass("danger")}
              disabled={!c || busy || typed.trim() !== counts?.name.trim()}
              onClick={() => void confirm()}
              data-testid="delete-project-confirm"
            >
              {busy ? "Deleting…" : "Delete project"}
            </button>
            <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** What deleting the project removes, counted by the server's dry run. */
function DeletionCountsList({ counts: c }: { counts: ProjectDeletionCounts }) {
  const catalogue = useTaskCatalogue();
  return (
    <ul className="ml-5 list-disc" data-testid="delete-project-counts">
      <li>
        {plural(c.videos, "video")} and {plural(c.frames, "frame")} ({plural(c.storageObjects, "stored file")})
      </li>
      <li>
        {plural(c.runs, "run")} with {plural(c.steps, "step")}
      </li>
      <li>
        {plural(c.humanJudgments, "human judgment")} and {plural(c.goldJudgments, "gold value")}
      </li>
      <li>
        {plural(c.queues, "queue")}, {plural(c.labelSets, "label set")},{" "}
        {plural(c.items, itemNounPhrase(catalogue).one, itemNounPhrase(catalogue).many)}
      </li>
      <li>the membership of {plural(c.members, "person", "people")}</li>
    </ul>
  );
}
