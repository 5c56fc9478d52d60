"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { postJson } from "@/lib/api-client";
import type { RubricDefinitionInput } from "@/lib/rubrics/rubric-definition";
import type { RubricPreviewChoices } from "@/lib/rubrics/rubric-tasks-page";

export type PreviewChoices = RubricPreviewChoices;

/** What `POST …/rubric-tasks/preview` answers (lib/rubrics/preview-rubric.ts). */
export interface RubricPreviewResult {
  prompt: string;
  frames: { id: string; index: number; timestampS: number; url?: string | null }[];
  /** Which scope was judged, of how many the video has. */
  scope?: { index: number; count: number };
  rawAnswer: string | null;
  parsed: unknown;
  parseError: string | null;
  cached: boolean;
  latencyMs: number | null;
}

/** A parsed answer's values as rows: `{values: {id: v}}`, `{values: {id: {value, label}}}` or `{id: v}`. */
function parsedRows(parsed: unknown): { id: string; text: string }[] {
  if (!parsed || typeof parsed !== "object") return [];
  const record = parsed as Record<string, unknown>;
  const values = (record.values && typeof record.values === "object" ? record.values : record) as Record<
    string,
    unknown
  >;
  return Object.entries(values)
    .filter(([id]) => id !== "reasons")
    .map(([id, v]) => {
      if (v && typeof v === "object") {
        const { value, label } = v as { value?: unknown; label?: unknown };
        return {
          id,
          text:
            label !== undefined && label !== null && String(label) !== String(value)
              ? `${String(label)} (${String(value)})`
              : String(value),
        };
      }
      return { id, text: String(v) };
    });
}

/** What the project lacks before a preview can be asked (a video with frames, an endpoint), or null. */
function missingPreviewChoice(choices: PreviewChoices): string | null {
  return !choices.videos.length
    ? "No video with frames yet: import one first."
    : !choices.endpoints.length
      ? "No endpoint yet: add one on the Judge page."
      : null;
}

/** The video whose frames the preview sends and the endpoint it asks. */
function PreviewSourceFields({
  choices,
  videoId,
  setVideoId,
  endpointId,
  setEndpointId,
}: {
  choices: PreviewChoices;
  videoId: string;
  setVideoId: (videoId: string) => void;
  endpointId: string;
  setEndpointId: (endpointId: string) => void;
}) {
  return (
    <>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        Preview video
        <select
          className="max-w-[18rem] rounded border border-slate-300 bg-white px-2 py-1 text-sm"
          value={videoId}
          onChange={(e) => setVideoId(e.target.value)}
        >
          {choices.videos.map((v) => (
            <option key={v.id} value={v.id}>
              {v.fileName}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        Preview endpoint
        <select
          className="max-w-[14rem] rounded border border-slate-300 bg-white px-2 py-1 text-sm"
          value={endpointId}
          onChange={(e) => setEndpointId(e.target.value)}
        >
          {choices.endpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name} ({e.model})
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/**
 * "Preview with a video": the definition as it stands in the form (saved or not) sent once to an endpoint with a
 * real video's frames, showing what a run would send and read back. An identical second preview is answered from
 * the response cache, and says so.
 */
export function RubricVideoPreview({
  projectId,
  definition,
  choices,
}: {
  projectId: string;
  definition: RubricDefinitionInput | null;
  choices: PreviewChoices;
}) {
  const [videoId, setVideoId] = useState(choices.videos[0]?.id ?? "");
  const [endpointId, setEndpointId] = useState(choices.endpoints[0]?.id ?? "");
  const [scopeIndex, setScopeIndex] = useState("0");
  const [item, setItem] = useState("");
  const itemSubject = definition?.subject?.kind === "item";
  const preview = useMutation({
    mutationFn: () =>
      postJson<RubricPreviewResult>(`/api/v1/projects/${projectId}/rubric-tasks/preview`, {
        definition,
        videoId,
        endpointId,
        scopeIndex: perScope ? Number(scopeIndex) || 0 : 0,
        ...(itemSubject ? { item: item.trim() } : {}),
      }),
  });
  const result = preview.data;
  const perScope = definition?.frames.mode === "each_key_frame" || definition?.frames.mode === "each_cluster";
  const missing = missingPreviewChoice(choices);
  return (
    <div className="flex flex-col gap-3 rounded border border-slate-200 p-3" data-testid="rubric-video-preview">
      <h3 className="text-sm font-semibold text-slate-800">Preview with a video</h3>
      {missing ? (
        <p className="text-sm text-slate-500">{missing}</p>
      ) : (
        <div className="flex flex-wrap items-end gap-3">
          <PreviewSourceFields
            choices={choices}
            videoId={videoId}
            setVideoId={setVideoId}
            endpointId={endpointId}
            setEndpointId={setEndpointId}
          />
          {perScope && (
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              Scope (key frame or cluster, from 0)
              <input
                className="w-16 rounded border border-slate-300 px-2 py-1 text-sm"
                inputMode="numeric"
                value={scopeIndex}
                onChange={(e) => setScopeIndex(e.target.value)}
              />
            </label>
          )}
          {itemSubject && (
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              Item of the video (its id in the file)
              <input
                className="w-40 rounded border border-slate-300 px-2 py-1 text-sm"
                value={item}
                onChange={(e) => setItem(e.target.value)}
                data-testid="rubric-preview-item"
              />
            </label>
          )}
          <button
            type="button"
            className="rounded border border-indigo-600 px-3 py-1 text-sm text-indigo-700 disabled:opacity-50"
            disabled={!definition || preview.isPending || (itemSubject && !item.trim())}
            onClick={() => preview.mutate()}
          >
            {preview.isPending ? "Asking the endpoint…" : "Preview"}
          </button>
        </div>
      )}
      {!definition && !missing && <p className="text-xs text-slate-500">Fix the problems to preview.</p>}
      {preview.error && (
        <p role="alert" className="text-sm text-red-700" data-testid="rubric-preview-error">
          {preview.error.message}
        </p>
      )}
      {result && <PreviewResult result={result} />}
    </div>
  );
}

/** What the endpoint answered: where from and how fast, the frames sent, the parsed values, the raw answer, the prompt. */
function PreviewResult({ result }: { result: RubricPreviewResult }) {
  const rows = parsedRows(result.parsed);
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="rubric-preview-result">
      <p className="text-xs text-slate-600" data-testid="rubric-preview-cache">
        {result.cached ? "Answered from the response cache" : "Answered by the endpoint"}
        {result.latencyMs !== null ? ` in ${Math.round(result.latencyMs)} ms` : ""} · {result.frames.length} frame
        {result.frames.length === 1 ? "" : "s"}
        {result.scope && result.scope.count > 1 ? ` · scope ${result.scope.index + 1} of ${result.scope.count}` : ""}
      </p>
      {result.frames.length > 0 && (
        <div className="flex flex-wrap gap-2" data-testid="rubric-preview-frames">
          {result.frames.map((f) =>
            f.url ? (
              // eslint-disable-next-line @next/next/no-img-element -- frame images are served by the app's own route, sized by CSS
              <img
                key={f.id}
                src={f.url}
                alt={`frame at ${f.timestampS.toFixed(2)} s`}
                className="h-20 rounded border border-slate-200"
                data-testid="rubric-preview-frame"
              />
            ) : (
              <span
                key={f.id}
                className="rounded border border-slate-200 px-2 py-1 text-xs"
                data-testid="rubric-preview-frame"
              >
                frame {f.index} at {f.timestampS.toFixed(2)} s
              </span>
            ),
          )}
        </div>
      )}
      {result.parseError ? (
        <p role="alert" className="text-red-700" data-testid="rubric-preview-parse-error">
          The answer does not parse: {result.parseError}
        </p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-testid="rubric-preview-parsed">
          {rows.map((r) => (
            <div key={r.id} className="contents" data-testid="rubric-preview-value" data-criterion={r.id}>
              <dt className="font-mono text-xs">{r.id}</dt>
              <dd>{r.text}</dd>
            </div>
          ))}
        </dl>
      )}
      <details>
        <summary className="cursor-pointer text-xs text-slate-600">Raw answer</summary>
        <pre
          tabIndex={0}
          className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs"
          data-testid="rubric-preview-raw"
        >
          {result.rawAnswer ?? "(none)"}
        </pre>
      </details>
      <details>
        <summary className="cursor-pointer text-xs text-slate-600">Prompt sent</summary>
        <pre
          tabIndex={0}
          className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs"
          data-testid="rubric-preview-prompt"
        >
          {result.prompt}
        </pre>
      </details>
    </div>
  );
}
