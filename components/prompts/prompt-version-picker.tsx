"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiFetch } from "@/lib/api-client";

interface TemplateVersions {
  templateId: string;
  shipped: { hash: string };
  versions: { id: string; hash: string; note: string; createdAt: string }[];
}

/** The run form's prompt versions: one choice per template that has saved versions (default: shipped). */
export function PromptVersionPicker({
  projectId,
  pipeline,
  value,
  onChange,
}: {
  projectId: string;
  pipeline: string;
  value: Record<string, string>;
  onChange(next: Record<string, string>): void;
}) {
  const templates = useQuery({
    queryKey: ["prompt-versions", projectId, pipeline],
    queryFn: () =>
      apiFetch<{ templates: TemplateVersions[] }>(
        `/api/v1/projects/${projectId}/prompt-versions?pipeline=${pipeline}`,
      ).then((b) => b.templates),
  });
  const edited = (templates.data ?? []).filter((t) => t.versions.length > 0);
  return (
    <div className="flex w-full flex-wrap items-end gap-3" data-testid="run-prompt-versions">
      {edited.map((t) => (
        <label key={t.templateId} className="flex flex-col gap-1">
          Prompt {t.templateId}
          <select
            className="rounded-md border border-slate-300 px-2 py-1.5"
            value={value[t.templateId] ?? "shipped"}
            onChange={(e) => onChange({ ...value, [t.templateId]: e.target.value })}
            data-testid={`run-prompt-version-${t.templateId}`}
          >
            <option value="shipped">shipped ({t.shipped.hash.slice(0, 12)})</option>
            {t.versions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.hash.slice(0, 12)}
                {v.note ? ` · ${v.note.slice(0, 40)}` : ""}
              </option>
            ))}
          </select>
        </label>
      ))}
      <Link
        href={`/projects/${projectId}/prompts?pipeline=${pipeline}`}
        className="pb-2 text-xs text-indigo-700 underline"
      >
        {edited.length ? "edit prompts" : "shipped prompts · edit them"}
      </Link>
    </div>
  );
}

/** Only the templates switched away from the shipped version, for the run API. */
export function chosenPromptVersions(value: Record<string, string>): Record<string, string> | undefined {
  const chosen = Object.fromEntries(Object.entries(value).filter(([, version]) => version !== "shipped"));
  return Object.keys(chosen).length ? chosen : undefined;
}
