// The label-set panel's requests: the stored sets, a dry run or import of a file, a delete; and what they answer
// (the plan, the file's headers, a message) while the form stays in the panel.
import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/lib/api-client";
import type { LabelSetDeletedAnswer, LabelSetListAnswer } from "@/lib/label-sets/label-sets.validation";
import type { Plan } from "./label-set-read-outs";

export function useLabelSetRequests(projectId: string) {
  const queryClient = useQueryClient();
  const [headers, setHeaders] = useState<string[]>([]);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const labelSets = useQuery({
    queryKey: ["label-sets", projectId],
    queryFn: () => apiFetch<LabelSetListAnswer>(`/api/v1/projects/${projectId}/label-sets`).then((b) => b.labelSets),
  });

  /** Sends the form (its `dryRun` field says which); `onImported` runs once a real import stored the set. */
  async function send(form: FormData, onImported: () => void) {
    setBusy(true);
    setMessage(null);
    try {
      const result = await apiFetch<{
        dryRun: boolean;
        plan: Plan;
        labelSet: { id: string; judgments: number } | null;
      }>(`/api/v1/projects/${projectId}/label-sets`, { method: "POST", body: form });
      setPlan(result.plan);
      setHeaders(result.plan.headers);
      if (!result.dryRun) {
        setMessage(`Imported "${result.plan.name}": ${result.labelSet?.judgments ?? 0} labels.`);
        setPlan(null);
        onImported();
        await refetchAfterWrite(queryClient, ["label-sets", projectId]);
      }
    } catch (error) {
      setPlan(null);
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: string) {
    setBusy(true);
    try {
      const result = await apiFetch<LabelSetDeletedAnswer>(`/api/v1/projects/${projectId}/label-sets/${id}`, {
        method: "DELETE",
      });
      setMessage(`Deleted the label set and its ${result.deletedJudgments} labels.`);
      await refetchAfterWrite(queryClient, ["label-sets", projectId]);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return { labelSets, headers, plan, setPlan, message, busy, send, remove };
}
