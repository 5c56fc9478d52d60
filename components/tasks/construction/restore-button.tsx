"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { restoreCandidate } from "./construction-requests";

/** Puts back a candidate a filter removed, with the curator's reason. */
export function RestoreButton({ itemId, filter }: { itemId: string; filter: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <button
        type="button"
        className={buttonClass("secondary")}
        onClick={() => setOpen(true)}
        data-testid="restore-open"
      >
        Restore
      </button>
    );
  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          await restoreCandidate(itemId, { filter, reason: reason.trim() });
          router.refresh();
          setOpen(false);
        } catch (err) {
          setError(err instanceof Error ? err.message : String(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <input
        className="rounded-md border border-slate-300 px-2 py-1 text-xs"
        placeholder="Why it should stay"
        required
        maxLength={2000}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        data-testid="restore-reason"
      />
      <span className="flex gap-1">
        <button type="submit" className={buttonClass()} disabled={busy || !reason.trim()} data-testid="restore-submit">
          Restore
        </button>
        <button type="button" className={buttonClass("secondary")} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </span>
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </form>
  );
}
