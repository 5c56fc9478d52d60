"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/components/import/api-client";
import { RunProgress } from "./run-progress";

interface Endpoint {
  id: string;
  name: string;
  model: string;
  baseUrl: string;
  hasApiKey: boolean;
  maxConcurrency: number;
  requestsPerMinute: number | null;
}
interface RunRow {
  id: string;
  status: string;
  pipeline: string;
  simulated: boolean;
  createdAt: string;
  endpoint: { name: string; model: string };
  _count: { videos: number };
}

/** Start a run (whole project, a dimension, or chosen videos) and follow the runs live. */
export function JudgePanel({ projectId, canManage, dimensions }: { projectId: string; canManage: boolean; dimensions: string[] }) {
  const queryClient = useQueryClient();
  const endpoints = useQuery({ queryKey: ["endpoints", projectId], queryFn: () => apiFetch<{ endpoints: Endpoint[] }>(`/api/v1/projects/${projectId}/endpoints`).then((b) => b.endpoints) });
  const runs = useQuery({
    queryKey: ["runs", projectId],
    queryFn: () => apiFetch<{ runs: RunRow[] }>(`/api/v1/projects/${projectId}/runs`).then((b) => b.runs),
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === "queued" || r.status === "running") ? 1500 : false),
  });
  const [endpointId, setEndpointId] = useState("");
  const [scope, setScope] = useState<"project" | "dimension" | "videos">("project");
  const [dimension, setDimension] = useState(dimensions[0] ?? "");
  const [videoIds, setVideoIds] = useState("");
  const start = useMutation({
    mutationFn: () =>
      postJson<{ id: string; videos: number }>(`/api/v1/projects/${projectId}/runs`, {
        pipeline: "hallucination",
        endpointId: endpointId || endpoints.data?.[0]?.id,
        ...(scope === "dimension" ? { dimension } : {}),
        ...(scope === "videos" ? { videoIds: videoIds.split(/[\s,]+/).filter(Boolean) } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["runs", projectId] }),
  });

  return (
    <div className="flex flex-col gap-5">
      {canManage && (
        <form
          className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            start.mutate();
          }}
        >
          <label className="flex flex-col gap-1">
            Pipeline
            <select className="rounded-md border border-slate-300 px-2 py-1.5" disabled>
              <option>hallucination (Sora Detector)</option>
            </select>
          </label>
          <label className="flex flex-col gap-1">
            Endpoint
            <select className="rounded-md border border-slate-300 px-2 py-1.5" value={endpointId} onChange={(e) => setEndpointId(e.target.value)} data-testid="run-endpoint">
              {(endpoints.data ?? []).map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name} ({e.model})
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            Videos
            <select className="rounded-md border border-slate-300 px-2 py-1.5" value={scope} onChange={(e) => setScope(e.target.value as typeof scope)}>
              <option value="project">every video with frames</option>
              <option value="dimension">one dimension</option>
              <option value="videos">these video ids</option>
            </select>
          </label>
          {scope === "dimension" && (
            <select className="rounded-md border border-slate-300 px-2 py-1.5" value={dimension} onChange={(e) => setDimension(e.target.value)}>
              {dimensions.map((d) => (
                <option key={d}>{d}</option>
              ))}
            </select>
          )}
          {scope === "videos" && <input className="w-72 rounded-md border border-slate-300 px-2 py-1.5" placeholder="video ids, comma separated" value={videoIds} onChange={(e) => setVideoIds(e.target.value)} />}
          <button className={buttonClass()} disabled={start.isPending || !endpoints.data?.length}>
            Start run
          </button>
          {!endpoints.data?.length && endpoints.isSuccess && <span className="text-slate-500">Add an endpoint first.</span>}
          {start.error && <span role="alert" className="text-red-700">{start.error.message}</span>}
        </form>
      )}
      {runs.data?.length === 0 && <p className="text-sm text-slate-500">No runs yet.</p>}
      <ul className="flex flex-col gap-3" data-testid="run-list">
        {runs.data?.map((run) => (
          <li key={run.id} className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="run" data-status={run.status}>
            <div className="mb-2 flex flex-wrap items-center gap-3">
              <Link href={`/projects/${projectId}/runs/${run.id}`} className="font-medium text-indigo-700 underline">
                {run.pipeline} · {new Date(run.createdAt).toLocaleString()}
              </Link>
              <span className="text-slate-500">
                {run.endpoint.name} ({run.endpoint.model}) · {run._count.videos} videos
              </span>
              {run.simulated && <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">simulated judgments</span>}
            </div>
            <RunProgress runId={run.id} canManage={canManage} compact />
          </li>
        ))}
      </ul>
    </div>
  );
}
