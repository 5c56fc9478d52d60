"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";

/** "Queue the next N": makes a pair set of the active plan's next pairs and opens it for review. */
export function QueueNextButton({
  projectId,
  pairSetId,
  pairIds,
}: {
  projectId: string;
  pairSetId: string;
  pairIds: string[];
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const queue = useMutation({
    mutationFn: () => postJson<{ pairSet: { id: string } }>(`/api/v1/pair-sets/${pairSetId}/next-queue`, { pairIds }),
    onSuccess: (answer) => router.push(`/projects/${projectId}/pairs/${answer.pairSet.id}`),
    onError: (e) => setError(e.message),
  });
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        className={`${buttonClass("secondary")} self-start`}
        data-testid="queue-next-button"
        disabled={queue.isPending || pairIds.length === 0}
        onClick={() => {
          setError(null);
          queue.mutate();
        }}
      >
        Queue the next {pairIds.length}
      </button>
      {error && (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}
