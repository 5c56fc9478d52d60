"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";

/**
 * One click: a review queue of the proposed videos (the verdict, the planned criterion's scores, or a localising queue
 * of the videos where spans disagree), in the proposal's order.
 */
export function CreateLabelQueue({
  projectId,
  runId,
  videoIds,
  defaultName,
  queue,
}: {
  projectId: string;
  runId: string;
  videoIds: string[];
  defaultName: string;
  /** `localize`: reviewers also mark where (spans), for the videos where spans disagree. */
  queue:
    { scope: "verdict" } | { scope: "scores"; categories: string[]; mode: "full" | "presence"; localize?: boolean };
}) {
  const router = useRouter();
  const [name, setName] = useState(defaultName);
  const [blind, setBlind] = useState(true);
  const create = useMutation({
    mutationFn: () =>
      postJson<{ id: string }>(`/api/v1/projects/${projectId}/queues`, {
        name,
        runId,
        ...queue,
        videoIds,
        chosenBy: "what to label next",
        blind,
      }),
    onSuccess: ({ id }) => router.push(`/projects/${projectId}/queues/${id}`),
  });
  return (
    <form
      className="flex flex-wrap items-center gap-3 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <input
        className="w-72 rounded-md border border-slate-300 px-2 py-1.5"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={200}
        aria-label="Queue name"
        data-testid="label-next-queue-name"
      />
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={blind} onChange={(e) => setBlind(e.target.checked)} />
        blind (reviewers see the judge&apos;s values only after submitting)
      </label>
      <button
        className={buttonClass()}
        disabled={create.isPending || videoIds.length === 0 || !name.trim()}
        data-testid={`label-next-create-queue${"localize" in queue && queue.localize ? "-where" : ""}`}
      >
        Create review queue of these {videoIds.length} videos
      </button>
      {create.error && (
        <span role="alert" className="text-red-700">
          {create.error.message}
        </span>
      )}
    </form>
  );
}
