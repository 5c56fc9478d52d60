"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";

/**
 * *Delete* next to a prompt list (owners; the server checks the role too): asks once, saying what deleting does,
 * then deletes it and reloads the page, whose report no longer reads the list.
 */
export function DeletePromptListButton({
  projectId,
  promptList,
}: {
  projectId: string;
  promptList: { id: string; name: string; entryCount: number };
}) {
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await apiFetch(`/api/v1/projects/${projectId}/prompt-lists/${encodeURIComponent(promptList.id)}`, {
        method: "DELETE",
      });
      setAsking(false);
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  if (!asking)
    return (
      <button
        type="button"
        className={buttonClass("secondary")}
        onClick={() => setAsking(true)}
        data-testid="delete-prompt-list"
      >
        Delete
      </button>
    );
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="delete-prompt-list-confirm">
      <span>
        Delete {promptList.name} ({promptList.entryCount.toLocaleString("en")} prompts)? Imports and this report stop
        reading it; videos keep the prompts and dimensions it gave them.
      </span>
      <button
        type="button"
        className={buttonClass("danger")}
        disabled={busy}
        onClick={() => void remove()}
        data-testid="delete-prompt-list-yes"
      >
        Delete the list
      </button>
      <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => setAsking(false)}>
        Cancel
      </button>
      {error && (
        <span role="alert" className="text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
