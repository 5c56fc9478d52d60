"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";
import type { Verdict } from "@/lib/pairwise/verdicts";

const CHOICES: { verdict: Verdict; label: string }[] = [
  { verdict: "A", label: "A better" },
  { verdict: "B", label: "B better" },
  { verdict: "tie_good", label: "Both good" },
  { verdict: "tie_bad", label: "Both bad" },
];

/**
 * The gold verdict of one aspect of a pair: saved with the version it edits, so an adjudicator who saves over a newer
 * gold is told (409) instead of overwriting it.
 */
export function GoldVerdictForm({
  pairSetId,
  pairId,
  aspect,
  gold,
}: {
  pairSetId: string;
  pairId: string;
  aspect: string;
  gold: { verdict: Verdict; note: string; version: number } | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (form: FormData) =>
      apiFetch(`/api/v1/pair-sets/${pairSetId}/pairs/${pairId}/gold`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          aspect,
          verdict: String(form.get("verdict")),
          note: String(form.get("note") ?? ""),
          ...(gold ? { version: gold.version } : {}),
        }),
      }),
    onSuccess: () => router.refresh(),
    onError: (e) => setError(e.message),
  });
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      data-testid="gold-verdict-form"
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        save.mutate(new FormData(event.currentTarget));
      }}
    >
      <label className="flex flex-col gap-1">
        Gold
        <select
          name="verdict"
          defaultValue={gold?.verdict ?? "A"}
          className="rounded-md border border-slate-300 px-2 py-1.5"
        >
          {CHOICES.map((choice) => (
            <option key={choice.verdict} value={choice.verdict}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex grow flex-col gap-1">
        Why
        <input
          name="note"
          defaultValue={gold?.note ?? ""}
          maxLength={4000}
          className="rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
      <button className={buttonClass("secondary")} disabled={save.isPending}>
        {gold ? `Save (version ${gold.version})` : "Set gold"}
      </button>
      {error && (
        <p role="alert" className="basis-full text-rose-700">
          {error}
        </p>
      )}
    </form>
  );
}
