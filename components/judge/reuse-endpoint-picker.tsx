"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";
import type { ReusableEndpoint } from "@/lib/judge/endpoints/endpoint-reuse";
import type { CopyEndpointRequest } from "@/lib/judge/endpoints/endpoint-input.validation";

const field = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

/** The offered endpoints grouped by their project, in the order the server sent them (newest first). */
function byProject(endpoints: ReusableEndpoint[]) {
  const groups = new Map<string, { name: string; endpoints: ReusableEndpoint[] }>();
  for (const endpoint of endpoints) {
    const group = groups.get(endpoint.project.id) ?? { name: endpoint.project.name, endpoints: [] };
    group.endpoints.push(endpoint);
    groups.set(endpoint.project.id, group);
  }
  return [...groups.entries()].map(([id, group]) => ({ id, ...group }));
}

/**
 * One option as one string (an option holds text only). What tells options apart comes first, the base URL (the
 * longest part) last: a closed select shows the option without its group and cuts its end, and copies of one
 * endpoint in several projects would otherwise read the same.
 */
const optionText = (endpoint: ReusableEndpoint) =>
  `${endpoint.name} · from ${endpoint.project.name}${endpoint.alreadyHere ? " (already here)" : ""} · ${endpoint.model}${endpoint.hasApiKey ? " · key stored" : ""} · ${endpoint.baseUrl}`;

/**
 * Owners pick an endpoint of another of their projects (name, model, base URL; never a key) and the server copies
 * it here, key included, so it need not be typed again (lib/judge/endpoints/endpoint-reuse.ts).
 */
export function ReuseEndpointPicker({ projectId, endpoints }: { projectId: string; endpoints: ReusableEndpoint[] }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [picked, setPicked] = useState(
    () => (endpoints.find((endpoint) => !endpoint.alreadyHere) ?? endpoints[0])?.id ?? "",
  );
  const copy = useMutation({
    mutationFn: (fromEndpointId: string) =>
      postJson<{ id: string }>(`/api/v1/projects/${encodeURIComponent(projectId)}/endpoints/reusable`, {
        fromEndpointId,
      } satisfies CopyEndpointRequest),
    onSuccess: () => {
      void refetchAfterWrite(queryClient, ["endpoints", projectId]);
      router.refresh(); // the endpoint list above is rendered on the server
    },
  });
  if (endpoints.length === 0) return null;
  const pickedEndpoint = endpoints.find((endpoint) => endpoint.id === picked);
  return (
    <form
      className="mb-4 flex flex-col gap-2 rounded-md border border-slate-200 p-2 text-sm"
      data-testid="reuse-endpoint"
      onSubmit={(e) => {
        e.preventDefault();
        if (picked) copy.mutate(picked);
      }}
    >
      <label className="flex flex-col gap-1">
        Use an endpoint from another of your projects
        <select className={field} value={picked} onChange={(e) => setPicked(e.target.value)}>
          {byProject(endpoints).map((project) => (
            <optgroup key={project.id} label={project.name}>
              {project.endpoints.map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {optionText(endpoint)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      {pickedEndpoint && (
        <p className="break-all text-xs text-slate-600" data-testid="reuse-endpoint-picked">
          {optionText(pickedEndpoint)}
        </p>
      )}
      <p className="text-xs text-slate-500">
        Copied on the server with its settings and key (never shown); the copy is this project&apos;s own endpoint.
      </p>
      <div>
        <button className={buttonClass("secondary")} disabled={copy.isPending || !picked}>
          {copy.isPending ? "Copying…" : "Use this endpoint"}
        </button>
      </div>
      {copy.error && (
        <p role="alert" className="text-red-700">
          {copy.error.message}
        </p>
      )}
    </form>
  );
}
