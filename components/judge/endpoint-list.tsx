"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch, postJson } from "@/lib/api-client";
import type { EndpointCapabilities } from "@/lib/judge/endpoints/endpoint-capabilities";
import { INPUT_MODES } from "@/lib/judge/input-modes";
import { formatDateTime } from "@/lib/format/date-time";
import { EndpointForm, type EndpointRow } from "./endpoint-form";

/** What POST /api/v1/endpoints/:id/test answers (lib/judge/endpoints/endpoint-test.ts). */
interface EndpointTestResult {
  answered: boolean;
  latencyMs: number;
  tookImage: "yes" | "no" | "unknown";
  colour: string;
  colourNamed: boolean;
  answer: string | null;
  error: string | null;
  status: number | null;
  capabilities: EndpointCapabilities | null;
  probedAt: string | null;
}

const small =
  "inline-flex items-center rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100 disabled:opacity-50";

/** The Judge page's endpoints: details for everyone; test, edit, archive and delete for owners. */
export function EndpointList({
  projectId,
  endpoints,
  canManage,
}: {
  projectId: string;
  endpoints: EndpointRow[];
  canManage: boolean;
}) {
  return (
    <ul className="mb-4 flex flex-col gap-3 text-sm" data-testid="endpoint-list">
      {endpoints.map((endpoint) => (
        <EndpointItem key={endpoint.id} projectId={projectId} endpoint={endpoint} canManage={canManage} />
      ))}
    </ul>
  );
}

/** The endpoint's stored settings in a line: address, key, concurrency, limits and input mode. */
function EndpointSettingsLine({ endpoint }: { endpoint: EndpointRow }) {
  return (
    <div className="text-xs text-slate-500">
      {endpoint.baseUrl} · key {endpoint.hasApiKey ? "stored (encrypted)" : "none"} · ≤{endpoint.maxConcurrency} at once
      {endpoint.requestsPerMinute ? ` · ${endpoint.requestsPerMinute}/min` : ""}
      {endpoint.supportsBatchApi ? " · Batch API" : ""}
      {endpoint.apiVersion ? ` · Azure api-version ${endpoint.apiVersion}` : ""}
      {endpoint.maxTokens ? ` · answers ≤${endpoint.maxTokens} tokens` : ""}
      {endpoint.sendImageDetail ? "" : " · no image detail"}
      {endpoint.requestLogprobs ? ` · logprobs (top ${endpoint.topLogprobs})` : ""}
      {` · input mode ${endpoint.inputMode}`}
    </div>
  );
}

/** One endpoint: its settings and last probe, and for owners test, edit, archive and delete. */
function EndpointItem({
  projectId,
  endpoint,
  canManage,
}: {
  projectId: string;
  endpoint: EndpointRow;
  canManage: boolean;
}) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const changed = () => {
    void refetchAfterWrite(queryClient, ["endpoints", projectId]);
    router.refresh();
  };
  // The probe stores what it found on the endpoint: the row shows it once the page is read again.
  const test = useMutation({
    mutationFn: () => postJson<EndpointTestResult>(`/api/v1/endpoints/${encodeURIComponent(endpoint.id)}/test`, {}),
    onSuccess: () => router.refresh(),
  });
  const archive = useMutation({
    mutationFn: (archived: boolean) =>
      apiFetch(`/api/v1/endpoints/${encodeURIComponent(endpoint.id)}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ archived }),
      }),
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(`/api/v1/endpoints/${encodeURIComponent(endpoint.id)}`, { method: "DELETE" }),
    onSuccess: changed,
  });
  const archived = endpoint.archivedAt !== null;
  return (
    <li data-testid="endpoint-item" className={archived ? "text-slate-500" : undefined}>
      <span className="font-medium">{endpoint.name}</span> · {endpoint.model}
      {archived && <span className="ml-1 rounded bg-slate-100 px-1.5 text-xs text-slate-600">archived</span>}
      <EndpointSettingsLine endpoint={endpoint} />
      <EndpointCapabilitiesLine
        capabilities={endpoint.capabilities}
        probedAt={endpoint.probedAt}
        requestLogprobs={endpoint.requestLogprobs}
      />
      {canManage && (
        <div className="mt-1 flex flex-wrap gap-1.5">
          <button type="button" className={small} disabled={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? "Testing…" : "Test"}
          </button>
          <button type="button" className={small} onClick={() => setEditing((open) => !open)}>
            Edit
          </button>
          <button
            type="button"
            className={small}
            disabled={archive.isPending}
            onClick={() => archive.mutate(!archived)}
          >
            {archived ? "Restore" : "Archive"}
          </button>
          <button
            type="button"
            className={small}
            disabled={remove.isPending}
            onClick={() => {
              if (
                window.confirm(
                  `Delete endpoint ${endpoint.name}? Endpoints that runs used cannot be deleted; archive them instead.`,
                )
              )
                remove.mutate();
            }}
          >
            Delete
          </button>
        </div>
      )}
      {test.data && <TestOutcome result={test.data} />}
      {(test.error ?? archive.error ?? remove.error) && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {(test.error ?? archive.error ?? remove.error)!.message}
        </p>
      )}
      {editing && (
        <div className="mt-2 rounded-md border border-slate-200 p-2">
          <EndpointForm projectId={projectId} endpoint={endpoint} onDone={() => setEditing(false)} />
        </div>
      )}
    </li>
  );
}

/** What the endpoint's last probe found, in a line; how runs use it is in docs/guide/judging.md. */
export function EndpointCapabilitiesLine({
  capabilities,
  probedAt,
  requestLogprobs,
}: {
  capabilities: EndpointCapabilities | null;
  probedAt: string | null;
  requestLogprobs: boolean;
}) {
  if (!capabilities || !probedAt) {
    return (
      <div className="text-xs text-slate-500" data-testid="endpoint-capabilities">
        Not probed yet (Test probes it).
      </div>
    );
  }
  const images =
    capabilities.images === "no"
      ? "no images"
      : capabilities.maxImages === null
        ? "images: limit unknown"
        : capabilities.maxImages >= 16
          ? "≥16 images per request"
          : `≤${capabilities.maxImages} image${capabilities.maxImages === 1 ? "" : "s"} per request (more are tiled)`;
  const yesNo = (value: boolean | null) => (value === null ? "unknown" : value ? "yes" : "no");
  const modes = capabilities.inputModes;
  const parts = [
    images,
    modes
      ? `modes taken: ${INPUT_MODES.filter((mode) => modes[mode].accepted === "yes").join(", ") || "none"}`
      : "input modes not probed",
    `JSON: ${capabilities.jsonMode ?? "unknown"}`,
    `top_logprobs: ${yesNo(capabilities.topLogprobs)}`,
    `usage: ${yesNo(capabilities.usage)}`,
    capabilities.contextLength ? `context ${capabilities.contextLength} tokens` : "context length not stated",
    `${capabilities.latencyMs} ms`,
  ];
  return (
    <div
      className="text-xs text-slate-600"
      data-testid="endpoint-capabilities"
      title={capabilities.notes.join("\n") || undefined}
    >
      Probed {formatDateTime(probedAt)} UTC: {parts.join(" · ")}
      {requestLogprobs && capabilities.topLogprobs === false && (
        <span className="text-amber-700" data-testid="endpoint-logprobs-unavailable">
          {" "}
          · logprobs requested, but none come back: runs do not ask for them, and store no expected scores
        </span>
      )}
    </div>
  );
}

function TestOutcome({ result }: { result: EndpointTestResult }) {
  const image =
    result.tookImage === "yes"
      ? `yes: it named the colour (${result.colour})`
      : result.tookImage === "no"
        ? "no: the model did not take the image"
        : result.answered
          ? `unclear: it did not name the colour (${result.colour})`
          : "unknown";
  return (
    <dl
      data-testid="endpoint-test-result"
      className={`mt-1 grid grid-cols-[auto_1fr] gap-x-2 rounded-md border px-2 py-1 text-xs ${result.answered ? "border-emerald-300 bg-emerald-50" : "border-red-300 bg-red-50"}`}
    >
      <dt className="font-medium">Answered</dt>
      <dd data-testid="test-answered">{result.answered ? "yes" : "no"}</dd>
      <dt className="font-medium">Latency</dt>
      <dd data-testid="test-latency">{result.latencyMs.toLocaleString()} ms</dd>
      <dt className="font-medium">Took the image</dt>
      <dd data-testid="test-image">{image}</dd>
      {result.answer && (
        <>
          <dt className="font-medium">Answer</dt>
          <dd className="break-words">{result.answer}</dd>
        </>
      )}
      {result.error && (
        <>
          <dt className="font-medium">Error</dt>
          <dd data-testid="test-error" className="break-words">
            {result.error}
          </dd>
        </>
      )}
    </dl>
  );
}
