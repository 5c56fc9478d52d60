"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { chosenPromptVersions, PromptVersionPicker } from "@/components/prompts/prompt-version-picker";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import { RunProgress } from "./run-progress";
import { runNameOfRow } from "@/lib/runs/run-name";

interface Endpoint {
  id: string;
  name: string;
  model: string;
  baseUrl: string;
  hasApiKey: boolean;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  supportsBatchApi: boolean;
}
interface RunRow {
  id: string;
  status: string;
  pipeline: string;
  simulated: boolean;
  batchMode: boolean;
  createdAt: string;
  /** The endpoint's name and model when the run started. */
  endpointSnapshot?: unknown;
  endpoint: { name: string; model: string };
  _count: { videos: number };
}
interface CaptionSetRow {
  id: string;
  kind: string;
  name: string;
  outputs?: { id: string; model: string; itemCount: number }[];
}

interface QuestionSetRow {
  id: string;
  name: string;
  itemCount: number;
}

type Pipeline = "hallucination" | "caption_style" | "caption_content" | "qa";
const PIPELINE_LABELS: Record<Pipeline, string> = {
  hallucination: "hallucination (Sora Detector)",
  caption_style: "caption style (seed 003 rubric)",
  caption_content: "caption content (AnyCapEval key points)",
  qa: "video QA (seed 004, the endpoint answers)",
};

/** The project's defaults for new QA runs. */
export interface QaDefaults {
  frames: 8 | 16;
  resize: { mode: "quarter" } | { mode: "longest_side"; px: number };
  textOnlyBaseline: boolean;
  judgeEndpointId?: string;
}

/** Start a run (whole project, a dimension, or chosen videos) and follow the runs live. */
export function JudgePanel({
  projectId,
  canManage,
  dimensions,
  captionDefaults,
  qaDefaults,
}: {
  projectId: string;
  canManage: boolean;
  dimensions: string[];
  /** The project's defaults for new caption runs. */
  captionDefaults: { caption_style: { countedScore: "after_rules" | "judge"; frames: number; wordCounting: "framejury" | "anycapeval" }; caption_content: { frames: number } };
  qaDefaults: QaDefaults;
}) {
  const queryClient = useQueryClient();
  const endpoints = useQuery({ queryKey: ["endpoints", projectId], queryFn: () => apiFetch<{ endpoints: Endpoint[] }>(`/api/v1/projects/${projectId}/endpoints`).then((b) => b.endpoints) });
  const runs = useQuery({
    queryKey: ["runs", projectId],
    queryFn: () => apiFetch<{ runs: RunRow[] }>(`/api/v1/projects/${projectId}/runs`).then((b) => b.runs),
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === "queued" || r.status === "running") ? 1500 : false),
  });
  const [endpointId, setEndpointId] = useState("");
  const [batch, setBatch] = useState(false);
  const [scope, setScope] = useState<"project" | "dimension" | "videos">("project");
  const [dimension, setDimension] = useState(dimensions[0] ?? "");
  const [videoIds, setVideoIds] = useState("");
  const [pipeline, setPipeline] = useState<Pipeline>("hallucination");
  const isCaption = pipeline === "caption_style" || pipeline === "caption_content";
  const isQa = pipeline === "qa";
  // Per pipeline: a template's prompt version for the next run (absent: shipped).
  const [promptVersions, setPromptVersions] = useState<Record<string, Record<string, string>>>({});
  const questionSets = useQuery({
    queryKey: ["question-sets", projectId],
    queryFn: () => apiFetch<{ sets: QuestionSetRow[] }>(`/api/v1/projects/${projectId}/question-sets`).then((b) => b.sets),
    enabled: canManage,
  });
  const [questionSetId, setQuestionSetId] = useState("");
  const chosenQuestionSet = questionSets.data?.find((s) => s.id === questionSetId) ?? questionSets.data?.at(-1);
  const [qaFrames, setQaFrames] = useState<8 | 16>(qaDefaults.frames);
  const [qaResize, setQaResize] = useState<"quarter" | "longest_side">(qaDefaults.resize.mode);
  const [qaLongestSide, setQaLongestSide] = useState(qaDefaults.resize.mode === "longest_side" ? qaDefaults.resize.px : 512);
  const [textOnlyBaseline, setTextOnlyBaseline] = useState(qaDefaults.textOnlyBaseline);
  const [judgeEndpointId, setJudgeEndpointId] = useState(qaDefaults.judgeEndpointId ?? "");
  const qaSettings = {
    frames: qaFrames,
    resize: qaResize === "quarter" ? { mode: "quarter" as const } : { mode: "longest_side" as const, px: qaLongestSide },
    textOnlyBaseline,
    ...(judgeEndpointId ? { judgeEndpointId } : {}),
  };
  const captionSets = useQuery({
    queryKey: ["caption-sets", projectId],
    queryFn: () => apiFetch<{ sets: CaptionSetRow[] }>(`/api/v1/projects/${projectId}/caption-sets`).then((b) => b.sets.filter((s) => s.kind === "caption_reference")),
    enabled: canManage,
  });
  const [captionSetId, setCaptionSetId] = useState("");
  const chosenSet = captionSets.data?.find((s) => s.id === captionSetId) ?? captionSets.data?.[0];
  const setModels = chosenSet?.outputs?.map((o) => o.model) ?? [];
  // Unticked models are left out; every model by default, as the API does without `models`.
  const [excludedModels, setExcludedModels] = useState<string[]>([]);
  const models = setModels.filter((m) => !excludedModels.includes(m));
  const [countedScore, setCountedScore] = useState(captionDefaults.caption_style.countedScore);
  const [wordCounting, setWordCounting] = useState(captionDefaults.caption_style.wordCounting);
  const [styleFrames, setStyleFrames] = useState(captionDefaults.caption_style.frames);
  const [contentFrames, setContentFrames] = useState(captionDefaults.caption_content.frames);
  const frames = pipeline === "caption_content" ? contentFrames : styleFrames;
  const pendingHref = isQa ? `/projects/${projectId}/pending?uniform=${qaFrames}&${qaResize === "quarter" ? "resize=quarter" : `longestSide=${qaLongestSide}`}` : `/projects/${projectId}/pending${isCaption ? `?uniform=${frames}` : ""}`;
  const setFrames = pipeline === "caption_content" ? setContentFrames : setStyleFrames;
  const chosenEndpoint = endpoints.data?.find((e) => e.id === endpointId) ?? endpoints.data?.[0];
  const start = useMutation({
    mutationFn: () =>
      postJson<{ id: string; videos: number; withoutFramesCount: number; items?: number }>(`/api/v1/projects/${projectId}/runs`, {
        pipeline,
        endpointId: endpointId || endpoints.data?.[0]?.id,
        ...(scope === "dimension" ? { dimension } : {}),
        ...(scope === "videos" ? { videoIds: videoIds.split(/[\s,]+/).filter(Boolean) } : {}),
        ...(isCaption
          ? {
              captionSetId: chosenSet?.id,
              ...(models.length < setModels.length ? { models } : {}),
              settings: pipeline === "caption_style" ? { countedScore, frames, wordCounting } : { frames },
            }
          : {}),
        ...(isQa ? { questionSetId: chosenQuestionSet?.id, settings: qaSettings } : {}),
        ...(chosenPromptVersions(promptVersions[pipeline] ?? {}) ? { promptVersions: chosenPromptVersions(promptVersions[pipeline] ?? {}) } : {}),
        ...(batch && chosenEndpoint?.supportsBatchApi ? { batch: true } : {}),
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
            <select className="rounded-md border border-slate-300 px-2 py-1.5" value={pipeline} onChange={(e) => setPipeline(e.target.value as Pipeline)} data-testid="run-pipeline">
              {(Object.keys(PIPELINE_LABELS) as Pipeline[]).map((id) => (
                <option key={id} value={id}>
                  {PIPELINE_LABELS[id]}
                </option>
              ))}
            </select>
          </label>
          {isCaption && (
            <>
              <label className="flex flex-col gap-1">
                Caption set
                <select className="rounded-md border border-slate-300 px-2 py-1.5" value={chosenSet?.id ?? ""} onChange={(e) => setCaptionSetId(e.target.value)} data-testid="run-caption-set">
                  {(captionSets.data ?? []).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </label>
              <fieldset className="flex flex-col gap-1" data-testid="run-models">
                <legend>Models</legend>
                <div className="flex flex-wrap gap-2">
                  {setModels.map((m) => (
                    <label key={m} className="flex items-center gap-1">
                      <input
                        type="checkbox"
                        checked={!excludedModels.includes(m)}
                        onChange={(e) => setExcludedModels((old) => (e.target.checked ? old.filter((x) => x !== m) : [...old, m]))}
                      />
                      {m}
                    </label>
                  ))}
                  {setModels.length === 0 && <span className="text-slate-500">no outputs imported</span>}
                </div>
              </fieldset>
              {pipeline === "caption_style" && (
                <label className="flex flex-col gap-1">
                  Score that counts
                  <select className="rounded-md border border-slate-300 px-2 py-1.5" value={countedScore} onChange={(e) => setCountedScore(e.target.value as typeof countedScore)} data-testid="run-counted-score">
                    <option value="after_rules">after the length rules</option>
                    <option value="judge">the judge&apos;s own</option>
                  </select>
                </label>
              )}
              {pipeline === "caption_style" && (
                <label className="flex flex-col gap-1">
                  Count words
                  <select className="rounded-md border border-slate-300 px-2 py-1.5" value={wordCounting} onChange={(e) => setWordCounting(e.target.value as typeof wordCounting)} data-testid="run-word-counting">
                    <option value="framejury">FrameJury&apos;s counting</option>
                    <option value="anycapeval">as AnyCapEval does (to reproduce its scores)</option>
                  </select>
                </label>
              )}
              <label className="flex flex-col gap-1">
                Uniform frames
                <input type="number" min={1} max={64} className="w-20 rounded-md border border-slate-300 px-2 py-1.5" value={frames} onChange={(e) => setFrames(Number(e.target.value))} />
              </label>
            </>
          )}
          {isQa && (
            <>
              <label className="flex flex-col gap-1">
                Question set
                <select className="rounded-md border border-slate-300 px-2 py-1.5" value={chosenQuestionSet?.id ?? ""} onChange={(e) => setQuestionSetId(e.target.value)} data-testid="run-question-set">
                  {(questionSets.data ?? []).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name} ({s.itemCount})
                    </option>
                  ))}
                </select>
              </label>
              <label className="flex flex-col gap-1">
                Frames
                <select className="rounded-md border border-slate-300 px-2 py-1.5" value={qaFrames} onChange={(e) => setQaFrames(Number(e.target.value) as 8 | 16)} data-testid="run-qa-frames">
                  <option value={8}>8</option>
                  <option value={16}>16</option>
                </select>
              </label>
              <label className="flex flex-col gap-1">
                Frame size
                <select className="rounded-md border border-slate-300 px-2 py-1.5" value={qaResize} onChange={(e) => setQaResize(e.target.value as typeof qaResize)} data-testid="run-qa-resize">
                  <option value="quarter">a quarter of the area (seed 004)</option>
                  <option value="longest_side">a longest side of…</option>
                </select>
              </label>
              {qaResize === "longest_side" && (
                <label className="flex flex-col gap-1">
                  px
                  <input type="number" min={64} max={4096} className="w-24 rounded-md border border-slate-300 px-2 py-1.5" value={qaLongestSide} onChange={(e) => setQaLongestSide(Number(e.target.value))} data-testid="run-qa-longest-side" />
                </label>
              )}
              <label className="flex flex-col gap-1">
                Judge
                <select className="rounded-md border border-slate-300 px-2 py-1.5" value={judgeEndpointId} onChange={(e) => setJudgeEndpointId(e.target.value)} data-testid="run-qa-judge">
                  <option value="">the evaluated model itself</option>
                  {(endpoints.data ?? []).map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name} ({e.model})
                    </option>
                  ))}
                </select>
              </label>
              <label className="flex items-center gap-2 self-center pt-5">
                <input type="checkbox" checked={textOnlyBaseline} onChange={(e) => setTextOnlyBaseline(e.target.checked)} data-testid="run-qa-text-only" />
                also answer without frames (text-only baseline)
              </label>
            </>
          )}
          <label className="flex flex-col gap-1">
            {isQa ? "Evaluated model (endpoint)" : "Endpoint"}
            <select className="rounded-md border border-slate-300 px-2 py-1.5" value={endpointId} onChange={(e) => setEndpointId(e.target.value)} data-testid="run-endpoint">
              {(endpoints.data ?? []).map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name} ({e.model})
                </option>
              ))}
            </select>
          </label>
          {chosenEndpoint?.supportsBatchApi && (
            <label className="flex items-center gap-2 self-center pt-5">
              <input type="checkbox" checked={batch} onChange={(e) => setBatch(e.target.checked)} data-testid="run-batch" />
              batch (half the price, within 24 hours)
            </label>
          )}
          <label className="flex flex-col gap-1">
            Videos
            <select className="rounded-md border border-slate-300 px-2 py-1.5" value={scope} onChange={(e) => setScope(e.target.value as typeof scope)}>
              <option value="project">{isCaption || isQa ? "every video with uniform frames" : "every video with frames"}</option>
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
          <PromptVersionPicker projectId={projectId} pipeline={pipeline} value={promptVersions[pipeline] ?? {}} onChange={(next) => setPromptVersions((all) => ({ ...all, [pipeline]: next }))} />
          <button className={buttonClass()} disabled={start.isPending || !endpoints.data?.length || (isCaption && !chosenSet) || (isQa && !chosenQuestionSet)}>
            Start run
          </button>
          {!endpoints.data?.length && endpoints.isSuccess && <span className="text-slate-500">Add an endpoint first.</span>}
          {isCaption && captionSets.isSuccess && !chosenSet && (
            <span className="text-slate-500">
              Import a caption reference set first (<Link className="text-indigo-700 underline" href={`/projects/${projectId}/import`}>Import</Link>).
            </span>
          )}
          {isQa && questionSets.isSuccess && !chosenQuestionSet && (
            <span className="text-slate-500">
              Import a question set first (<Link className="text-indigo-700 underline" href={`/projects/${projectId}/import`}>Import</Link>).
            </span>
          )}
          {start.data && (
            <span className="text-slate-600" data-testid="run-started">
              Started on {start.data.videos} video{start.data.videos === 1 ? "" : "s"}
              {start.data.items !== undefined ? ` (${start.data.items} ${isQa ? "question" : "caption"}${start.data.items === 1 ? "" : "s"})` : ""}
              {start.data.withoutFramesCount > 0 && <>; {start.data.withoutFramesCount} left out for want of their frame set (<Link className="text-indigo-700 underline" href={pendingHref}>extract them</Link>)</>}.
            </span>
          )}
          {start.error && <span role="alert" className="text-red-700">{start.error.message}</span>}
        </form>
      )}
      {runs.data?.length === 0 && <p className="text-sm text-slate-500">No runs yet.</p>}
      <ul className="flex flex-col gap-3" data-testid="run-list">
        {runs.data?.map((run) => (
          <li key={run.id} className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="run" data-status={run.status}>
            <div className="mb-2 flex flex-wrap items-center gap-3">
              <Link href={`/projects/${projectId}/runs/${run.id}`} className="font-medium text-indigo-700 underline">
                {runNameOfRow(run)}
              </Link>
              <span className="text-slate-600">{run._count.videos} videos</span>
              {run.simulated && <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">simulated judgments</span>}
              {run.batchMode && <span className="rounded bg-sky-100 px-1.5 text-xs text-sky-800" data-testid="run-batch-badge">batch</span>}
            </div>
            <RunProgress runId={run.id} canManage={canManage} compact />
          </li>
        ))}
      </ul>
    </div>
  );
}
