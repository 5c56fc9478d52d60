"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { RunSettingsFormProps } from "@/components/tasks/run-settings-form";
import { apiFetch } from "@/lib/api-client";
import type { RubricTaskSummary } from "@/lib/rubrics/rubric-tasks";

interface ItemSetRow {
  id: string;
  name: string;
  itemCount: number;
}

/** The run form's item set picker of a rubric task whose subject is an item (the latest set imported is the default). */
export function RubricItemRunForm({ projectId, pipeline, state, setState, children }: RunSettingsFormProps) {
  const chosen = typeof state === "string" ? state : "";
  const sets = useQuery({
    queryKey: ["rubric-item-sets", projectId, pipeline],
    queryFn: async () => {
      const { rubricTasks } = await apiFetch<{ rubricTasks: RubricTaskSummary[] }>(
        `/api/v1/projects/${projectId}/rubric-tasks`,
      );
      const task = rubricTasks.find((t) => t.pipeline === pipeline);
      if (!task) return [];
      return (await apiFetch<{ sets: ItemSetRow[] }>(`/api/v1/rubric-tasks/${task.id}/item-sets`)).sets;
    },
  });
  const set = sets.data?.find((s) => s.id === chosen) ?? sets.data?.at(-1);
  const fields = (
    <label className="flex flex-col gap-1">
      Item set
      <select
        className="rounded-md border border-slate-300 px-2 py-1.5"
        value={set?.id ?? ""}
        onChange={(e) => setState(e.target.value)}
        data-testid="run-rubric-item-set"
      >
        {(sets.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({s.itemCount})
          </option>
        ))}
      </select>
    </label>
  );
  return children({
    fields,
    part: {
      request: set ? { itemSetId: set.id } : {},
      ready: Boolean(set),
      notice:
        sets.isSuccess && !set ? (
          <span className="text-slate-500">
            Import this rubric task&apos;s items first (
            <Link className="text-indigo-700 underline" href={`/projects/${projectId}/rubrics`}>
              Rubric tasks
            </Link>
            , “Items”).
          </span>
        ) : undefined,
    },
  });
}
