"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import { apiFetch } from "@/lib/api-client";
import { Card } from "@/components/empty-state";
import { MetricsLine, TargetLegend } from "@/components/tasks/target-legend";
import { scopeFocus } from "@/lib/judge/media/frame-scopes";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import type { TaskDeclaration } from "@/lib/task-modules/task-declaration";
import { scaleHint, summaryMetricValues } from "@/lib/task-modules/task-display";
import { OUTPUT_VIEWS, OutputsView } from "@/components/tasks/output-views";
import { RunSettings } from "@/components/tasks/run-settings";
import { JudgeScoresPanel, type CellFocus, type ScoresResponse } from "./judge-scores-panel";
import { EnsembleValuesPanel } from "@/components/ensembles/ensemble-values";
import { JudgmentForm, JudgmentHistory, LabelledValues, type Judgment } from "./judgment-item";
import { VideoFramesViewer, type ViewerFrame } from "./video-frames-viewer";
import { runName } from "@/lib/run-records/run-name";
import { SpanWorkbench } from "@/components/spans/span-workbench";
import { type SpanLabel, taskSpanLabels } from "@/lib/spans/span-labels";
import { PROJECT_SPAN_TASK } from "@/lib/spans/span-types";

export interface WorkspaceRun {
  id: string;
  /** The picker's label: the task, the judge, the start and what differs from the other runs (lib/judge/runs/run-option-labels). */
  label: string;
  createdAt: string;
  runStatus: string;
  simulated: boolean;
  endpoint: { name: string | null; model: string | null };
}

/**
 * The video page's workspace: the player and key-frame strip, the heat map linked to both
 * (a cell seeks to its key frame and highlights the frames the judge saw), the judge's outputs
 * as text with what produced them, and the human judgments of the verdict and the overall.
 */
export function VideoWorkspace({
  videoId,
  videoUrl,
  frameSets,
  runs,
  runId,
  currentUserId,
  canReview,
  aside,
  top,
  fps,
  projectId,
  projectSpanLabels,
}: {
  videoId: string;
  /** With the project's own span labels: the span editor under the player (its task: the shown run's, else the project's). */
  projectId?: string;
  projectSpanLabels?: SpanLabel[];
  videoUrl: string;
  /** The video's frame rate from its import metadata (`,` / `.` step one frame); null when unknown. */
  fps: number | null;
  /** What a reviewer reads first, beside the player (the prompt). */
  top?: ReactNode;
  /** `mode` says how the frames were chosen ("uniform": evenly spaced, no key frames or clusters). */
  frameSets: { id: string; mode?: string; frames: ViewerFrame[] }[];
  runs: WorkspaceRun[];
  runId: string | null;
  currentUserId: string;
  canReview: boolean;
  aside: ReactNode;
}) {
  const catalogue = useTaskCatalogue();
  const router = useRouter();
  const pathname = usePathname();
  const player = useRef<HTMLVideoElement>(null);
  const [focus, setFocus] = useState<CellFocus | null>(null);
  const { scores, reviews } = useVideoScores(videoId, runId);
  // The frames the run judged (its frame set), else the newest frame set.
  const frameSet = frameSets.find((set) => set.id === scores.data?.frameSetId) ?? frameSets.at(-1) ?? null;
  const frames = useMemo(() => frameSet?.frames ?? [], [frameSet]);
  // The shown run's task (the catalogue holds the project's rubric tasks too).
  const task = catalogue.findTask(scores.data?.run?.pipeline);
  const focused = focus ? scopeFocus(frames, focus.stepId, focus.scopeIndex, task ?? undefined) : null;
  const highlighted = useMemo(() => new Set(focused?.frameIndexes ?? []), [focused?.frameIndexes]);

  const onFocus = (next: CellFocus | null) => {
    setFocus(next);
    if (!next) return;
    const target = scopeFocus(frames, next.stepId, next.scopeIndex, task ?? undefined);
    const video = player.current;
    if (video && target.seekS !== null) {
      video.pause();
      video.currentTime = target.seekS;
      video.scrollIntoView({ block: "nearest" });
    }
  };

  const data = scores.data;
  const run = data?.run ?? null;
  const judgments = reviews.data?.judgments ?? [];
  const metricValues = task ? summaryMetricValues(task, data?.summary) : {};

  return (
    // Two columns on wide screens: the player and the strip pinned on the left while the scores, their editors and
    // the outputs scroll on the right, so a picked score's frames are in view beside it.
    <div className="grid gap-5 xl:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <WorkspacePlayer
        videoId={videoId}
        videoUrl={videoUrl}
        frames={frames}
        player={player}
        highlighted={highlighted}
        highlightLabel={focused?.label ?? null}
        fps={fps}
        uniform={frameSet?.mode === undefined ? undefined : frameSet.mode === "uniform"}
        spans={spanEditorOf(projectId, task, run?.id ?? runId, {
          projectSpanLabels,
          currentUserId,
          canReview,
          runPending: !runId && scores.isPending,
        })}
      />
      <div className="flex min-w-0 flex-col gap-5">
        {top}
        <JudgeScoresCard
          runs={runs}
          shownRunId={run?.id ?? runId}
          onPick={(id) => {
            setFocus(null);
            router.push(`${pathname}?runId=${encodeURIComponent(id)}`);
          }}
          scores={scores}
          rest={{ task, judgments, metricValues, videoId, currentUserId, canReview, focus, onFocus }}
        />

        {/* A blind reviewer's outputs come back redacted: the blind notice above says why, and no empty answers show. */}
        {data && !data.blind && run && OUTPUT_VIEWS[run.pipeline] && (
          <JudgeOutputsCard pipeline={run.pipeline} data={data} frames={frames} onFocus={onFocus} />
        )}
        {aside}
      </div>
    </div>
  );
}

/** The Judge scores card: the run picker (when the video has runs) over the shown run's scores. */
function JudgeScoresCard({
  runs,
  shownRunId,
  onPick,
  scores,
  rest,
}: {
  runs: WorkspaceRun[];
  shownRunId: string | null;
  onPick: (runId: string) => void;
} & Parameters<typeof JudgeScoresBody>[0]) {
  return (
    <Card
      title="Judge scores"
      actions={runs.length > 0 ? <RunPicker runs={runs} value={shownRunId ?? runs[0]!.id} onPick={onPick} /> : null}
    >
      <JudgeScoresBody scores={scores} rest={rest} />
    </Card>
  );
}

type SpanEditorProps = NonNullable<Parameters<typeof WorkspacePlayer>[0]["spans"]>;

/** What the Judge scores card says: loading, the error, the blind notice, no run yet, or the shown run's scores. */
function JudgeScoresBody({
  scores,
  rest,
}: {
  scores: ReturnType<typeof useVideoScores>["scores"];
  rest: Omit<Parameters<typeof RunScores>[0], "data" | "run">;
}) {
  const data = scores.data;
  const run = data?.run ?? null;
  if (scores.isPending) return <p className="text-sm text-slate-500">Loading judge scores…</p>;
  if (scores.error)
    return (
      <p role="alert" className="text-sm text-red-700">
        {scores.error.message}
      </p>
    );
  if (data?.blind) return <BlindNotice />;
  if (!data || !run) return <p className="text-sm text-slate-500">No judge run has scored this video yet.</p>;
  return <RunScores data={data} run={run} {...rest} />;
}

/**
 * The span editor's part (none without a project): spans are marked under the shown run's task when it has span
 * labels, else under the project's own list; its judge spans and key frames are those of the run in Judge scores
 * (the latest until one is picked; until the scores say which that is, the spans wait).
 */
function spanEditorOf(
  projectId: string | undefined,
  task: TaskDeclaration | null,
  shownRunId: string | null,
  rest: Pick<SpanEditorProps, "projectSpanLabels" | "currentUserId" | "canReview" | "runPending">,
): SpanEditorProps | null {
  if (!projectId) return null;
  const spanTask = task && taskSpanLabels(task).length > 0 ? task.id : PROJECT_SPAN_TASK;
  return { projectId, task: spanTask, runId: shownRunId, ...rest };
}

/**
 * The player pinned on the left with the key-frame strip; with `spans`, the span editor (its frame-accurate player
 * and the timeline under it) in the plain player's place, stepping frames itself.
 */
function WorkspacePlayer({
  videoId,
  videoUrl,
  frames,
  player,
  highlighted,
  highlightLabel,
  fps,
  uniform,
  spans,
}: {
  videoId: string;
  videoUrl: string;
  frames: ViewerFrame[];
  player: RefObject<HTMLVideoElement | null>;
  highlighted: ReadonlySet<number>;
  highlightLabel: string | null;
  fps: number | null;
  uniform: boolean | undefined;
  spans: {
    projectId: string;
    task: string;
    projectSpanLabels?: SpanLabel[];
    currentUserId: string;
    canReview: boolean;
    runId: string | null;
    runPending: boolean;
  } | null;
}) {
  return (
    // Pinned on wide screens while the scores, their editors and the outputs scroll on the right, so a picked score's
    // frames are in view beside it.
    <div
      className="min-w-0 xl:sticky xl:top-2 xl:max-h-[calc(100vh-1rem)] xl:self-start xl:overflow-y-auto"
      data-testid="pinned-video"
    >
      <VideoFramesViewer
        videoUrl={videoUrl}
        frames={frames}
        playerRef={player}
        highlighted={highlighted}
        highlightLabel={highlightLabel}
        fps={fps}
        frameStepping={!spans}
        uniform={uniform}
        player={
          spans ? (
            <SpanWorkbench
              videoId={videoId}
              projectId={spans.projectId}
              task={spans.task}
              labels={spans.task === PROJECT_SPAN_TASK ? (spans.projectSpanLabels ?? []) : undefined}
              currentUserId={spans.currentUserId}
              readOnly={!spans.canReview}
              keyScope="page"
              videoRef={player}
              runId={spans.runId}
              runPending={spans.runPending}
            />
          ) : undefined
        }
      />
    </div>
  );
}

/**
 * The per-video metrics reviewers judge themselves (hallucination: the verdict and the overall), from
 * the task's declaration, the verdict first: the judge's value, yours, the reviewers' consensus, the
 * editor and the history.
 */
function OutcomeJudgments({
  task,
  runId,
  videoId,
  judgeValues,
  judgments,
  currentUserId,
  canReview,
}: {
  task: TaskDeclaration;
  runId: string;
  videoId: string;
  judgeValues: Record<string, number | null>;
  judgments: Judgment[];
  currentUserId: string;
  canReview: boolean;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const reviewed = task.metrics.filter((m) => m.reviewed);
  const items = [
    ...reviewed.filter((m) => m.id === task.verdict?.metricId),
    ...reviewed.filter((m) => m.id !== task.verdict?.metricId),
  ];
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {items.map((metric) => {
        const target = metric.id;
        const judgeValue = judgeValues[metric.id] ?? null;
        const mine = judgments.filter((j) => j.targetType === target && j.runId === runId);
        const own = mine.find((j) => j.reviewer.id === currentUserId) ?? null;
        return (
          <section
            key={target}
            className="flex flex-col gap-2 rounded-md border border-slate-200 p-3"
            data-testid={`outcome-${target}`}
          >
            <div className="flex items-center gap-2">
              <h3 className="text-sm font-medium" title={metric.definition}>
                {metric.label} ({scaleHint(metric)})
              </h3>
              {canReview && open !== target && (
                <button
                  type="button"
                  className="ml-auto rounded border border-indigo-300 px-2 py-0.5 text-xs text-indigo-800"
                  onClick={() => setOpen(target)}
                >
                  {own ? `Change your ${target}` : `Give your ${target}`}
                </button>
              )}
            </div>
            <p className="text-xs text-slate-500" data-testid="metric-definition">
              {metric.definition}
            </p>
            <LabelledValues
              targetType={target}
              judgeValue={judgeValue}
              judgments={mine}
              currentUserId={currentUserId}
            />
            {canReview && open === target && (
              <JudgmentForm
                targetType={target}
                declared={metric}
                saveUrl={`/api/v1/runs/${encodeURIComponent(runId)}/videos/${encodeURIComponent(videoId)}/review/${target}`}
                own={own}
                judgeValue={judgeValue}
                videoId={videoId}
                onSaved={() => setOpen(null)}
                onCancel={() => setOpen(null)}
              />
            )}
            <JudgmentHistory targetType={target} judgments={mine} />
          </section>
        );
      })}
    </div>
  );
}

/** The run whose scores the page shows, among the video's runs (the first is the latest). */
function RunPicker({ runs, value, onPick }: { runs: WorkspaceRun[]; value: string; onPick: (runId: string) => void }) {
  return (
    <label className="flex items-center gap-2 text-xs text-slate-600">
      Run
      <select
        aria-label="Run"
        className="max-w-[22rem] rounded border border-slate-300 bg-white px-2 py-1"
        value={value}
        onChange={(e) => onPick(e.target.value)}
        data-testid="run-selector"
      >
        {runs.map((r, i) => (
          <option key={r.id} value={r.id}>
            {r.label} · {r.runStatus}
            {r.simulated ? " · simulated" : ""}
            {i === 0 ? " · latest" : ""}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What produced the scores: the run, its endpoint and model, its settings, and the judge's summary. */
function RunProvenance({
  run,
  summary,
  task,
  metricValues,
}: {
  run: NonNullable<ScoresResponse["run"]>;
  summary: ScoresResponse["summary"];
  task: TaskDeclaration | null;
  metricValues: Record<string, number | null>;
}) {
  const catalogue = useTaskCatalogue();
  const snapshot = (run.endpointSnapshot ?? {}) as { name?: string; model?: string };
  return (
    <div className="flex flex-col gap-1 rounded-md bg-slate-50 p-3 text-xs" data-testid="run-provenance">
      <p>
        <span className="font-medium">
          {runName(
            {
              pipeline: run.pipeline,
              endpointName: snapshot.name ?? "?",
              model: snapshot.model ?? null,
              createdAt: run.createdAt,
            },
            catalogue,
          )}
        </span>{" "}
        ({run.status}) · run id <span className="font-mono">{run.id}</span> · endpoint <b>{snapshot.name ?? "?"}</b>,
        model <b>{snapshot.model ?? "?"}</b>
        {run.simulated && <span className="ml-2 rounded bg-amber-100 px-1.5 text-amber-800">simulated judgments</span>}
      </p>
      <RunSettings pipeline={run.pipeline} settings={run.settings} />
      {summary && task && (
        <p data-testid="judge-summary">
          <span className="font-medium">Judge:</span> <MetricsLine task={task} values={metricValues} />
          {!summary.complete && <span className="text-amber-700"> (incomplete: some steps gave no scores)</span>}
        </p>
      )}
    </div>
  );
}

/** The video's scores for the run asked for (the latest if none), and the judgments shown against that run. */
function useVideoScores(videoId: string, runId: string | null) {
  const scores = useQuery({
    queryKey: ["scores", videoId, runId ?? "latest"],
    queryFn: () =>
      apiFetch<ScoresResponse>(`/api/v1/videos/${videoId}/scores${runId ? `?runId=${encodeURIComponent(runId)}` : ""}`),
  });
  // Judgments belong to targets, not runs: shown against the run on screen (once its id is known).
  const shownRunId = scores.data?.run?.id ?? runId;
  const reviews = useQuery({
    queryKey: ["reviews", videoId, shownRunId ?? "saved"],
    enabled: !scores.isPending,
    queryFn: () =>
      apiFetch<{ judgments: Judgment[] }>(
        `/api/v1/videos/${videoId}/reviews${shownRunId ? `?runId=${encodeURIComponent(shownRunId)}` : ""}`,
      ),
  });
  return { scores, reviews };
}

function BlindNotice() {
  return (
    <p className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm" data-testid="blind-notice">
      You are reviewing this video in a blind queue: the judge&apos;s values and other reviewers&apos; are hidden until
      you submit it there.
    </p>
  );
}

/** A run's scores on the video: what produced them, the reviewed outcomes, the heat map, an ensemble's members. */
function RunScores({
  data,
  run,
  task,
  judgments,
  metricValues,
  videoId,
  currentUserId,
  canReview,
  focus,
  onFocus,
}: {
  data: ScoresResponse;
  run: NonNullable<ScoresResponse["run"]>;
  task: TaskDeclaration | null;
  judgments: Judgment[];
  metricValues: Record<string, number | null>;
  videoId: string;
  currentUserId: string;
  canReview: boolean;
  focus: CellFocus | null;
  onFocus: (focus: CellFocus | null) => void;
}) {
  return (
    <div className="flex flex-col gap-4">
      <RunProvenance run={run} summary={data.summary} task={task} metricValues={metricValues} />
      {task && (
        <OutcomeJudgments
          task={task}
          runId={run.id}
          videoId={videoId}
          judgeValues={metricValues}
          judgments={judgments}
          currentUserId={currentUserId}
          canReview={canReview}
        />
      )}
      <JudgeScoresPanel
        data={data}
        task={task}
        judgments={judgments.filter((j) => j.targetType === "score")}
        videoId={videoId}
        currentUserId={currentUserId}
        canReview={canReview}
        focus={focus}
        onFocus={onFocus}
      />
      {run.ensemble != null && <EnsembleValuesPanel runId={run.id} videoId={videoId} task={task} />}
      {task && <TargetLegend task={task} />}
    </div>
  );
}

/** The judge's outputs as text, each with what produced it. */
function JudgeOutputsCard({
  pipeline,
  data,
  frames,
  onFocus,
}: {
  pipeline: string;
  data: ScoresResponse;
  frames: ViewerFrame[];
  onFocus: (focus: CellFocus | null) => void;
}) {
  return (
    <Card title="Judge outputs">
      <OutputsView
        pipeline={pipeline}
        steps={data.steps}
        keyFrameCount={frames.filter((f) => f.isKeyFrame).length}
        onFocus={onFocus}
      />
    </Card>
  );
}
