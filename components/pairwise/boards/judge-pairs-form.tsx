"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";

const input = "rounded-md border border-slate-300 px-2 py-1.5";

/**
 * "Judge both orders": a pairwise judge run of the set on one endpoint, or a panel of several (the endpoint and the
 * judges ticked), with an optional budget and how the judge sees the videos (each one's frames as pictures, or the
 * two files as video; by default the endpoint's own mode); with `pairIds` (the active plan's next pairs) only those
 * pairs are judged.
 */
export function JudgePairsForm({
  pairSetId,
  endpoints,
  pairIds,
  label,
}: {
  pairSetId: string;
  endpoints: { id: string; name: string; model: string }[];
  pairIds?: string[];
  label: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState(endpoints[0]?.id ?? "");
  const start = useMutation({
    mutationFn: (form: FormData) => {
      const budget = String(form.get("budgetUsd") ?? "").trim();
      const inputMode = String(form.get("inputMode") ?? "");
      const endpointId = String(form.get("endpointId"));
      // The run's endpoint first, then the other judges ticked: a panel when there is more than one.
      const panel = [...new Set([endpointId, ...form.getAll("panel").map(String)])];
      return postJson(`/api/v1/pair-sets/${pairSetId}/runs`, {
        endpointId,
        ...(panel.length > 1 ? { panel } : {}),
        ...(budget ? { budgetUsd: Number(budget) } : {}),
        ...(inputMode ? { inputMode } : {}),
        ...(pairIds ? { pairIds } : {}),
      });
    },
    onSuccess: () => router.refresh(),
    onError: (e) => setError(e.message),
  });
  if (endpoints.length === 0)
    return <p className="text-sm text-slate-600">Add a judge endpoint to the project to judge pairs.</p>;
  return (
    <form
      className="flex flex-wrap items-end gap-3 text-sm"
      data-testid={pairIds ? "judge-next-form" : "judge-pairs-form"}
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        start.mutate(new FormData(event.currentTarget));
      }}
    >
      <label className="flex flex-col gap-1">
        Endpoint
        <select name="endpointId" className={input} defaultValue={chosen} onChange={(e) => setChosen(e.target.value)}>
          {endpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {e.model === e.name ? e.name : `${e.model} @ ${e.name}`}
            </option>
          ))}
        </select>
      </label>
      {endpoints.length > 1 && (
        <fieldset className="flex flex-col gap-1">
          <legend>Also ask (a panel: each judge in both orders, verdicts by majority)</legend>
          <div className="flex flex-wrap gap-3">
            {endpoints
              .filter((e) => e.id !== chosen)
              .map((e) => (
                <label key={e.id} className="flex items-center gap-1">
                  <input type="checkbox" name="panel" value={e.id} />
                  {e.model === e.name ? e.name : `${e.model} @ ${e.name}`}
                </label>
              ))}
          </div>
        </fieldset>
      )}
      <label className="flex flex-col gap-1">
        The judge sees
        <select name="inputMode" className={input} defaultValue="">
          <option value="">the endpoint&apos;s input mode</option>
          <option value="images">each video&apos;s frames, as pictures</option>
          <option value="video-file">the two video files</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Budget (US$)
        <input name="budgetUsd" type="number" min={0} step="0.01" className={`${input} w-24`} />
      </label>
      <button className={buttonClass()} disabled={start.isPending}>
        {label}
      </button>
      {error && (
        <p role="alert" className="basis-full text-rose-700">
          {error}
        </p>
      )}
    </form>
  );
}
