"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import { QueueTypeOptions } from "@/components/tasks/queue-views";
import { TaskCode } from "@/components/tasks/target-legend";
import type { ItemQueueTypeForm } from "@/lib/queues/queue-form-choices";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { isYesNoScale, scaleBounds, type TaskDeclaration } from "@/lib/task-modules/task-declaration";
import type { QueueHandOut } from "@/lib/queues/queue-states.validation";
import { perItemText, type QueueTargetCounts } from "@/lib/queues/target-counts";
import { taskSpanLabels } from "@/lib/spans/span-labels";

const SCOPE_WORDS = { key_frame: "key frame", cluster: "cluster", video: "video", item: "item" } as const;

type Filter = Record<string, string | number | undefined>;

/** The new-queue form: the filter from the video list, the run, scope, reviewers per item, blind; shows the match count first. */
export function NewQueueForm({
  projectId,
  filter,
  sort,
  dir,
  runs,
  itemScopes = [],
}: {
  projectId: string;
  filter: Filter;
  sort: string;
  dir: string;
  /** Each run with its pipeline, whose task declares the categories a queue over its scores can pick. */
  runs: { id: string; label: string; pipeline: string; ensemble?: "samples" | "panel" | null }[];
  /** The registered item queue types, each with what its options controls offer in this project (lib/queues/queue-form-choices.ts). */
  itemScopes?: ItemQueueTypeForm[];
}) {
  const catalogue = useTaskCatalogue();
  const router = useRouter();
  const [name, setName] = useState("");
  const [runId, setRunId] = useState(typeof filter.runId === "string" ? filter.runId : runs[0]!.id);
  const [chosenScope, setScope] = useState<"verdict" | "scores" | "unstable">(
    filter.unstable === "1" ? "unstable" : "verdict",
  );
  const [handOut, setHandOut] = useState<QueueHandOut>("overlap");
  const [mode, setMode] = useState<"full" | "presence">("full");
  /** The item queue types' options as chosen, by scope id (kept when the run changes back). */
  const [scopeOptions, setScopeOptions] = useState<Record<string, Record<string, unknown>>>({});
  const [chosen, setChosen] = useState<string[]>(typeof filter.category === "string" ? [filter.category] : []);
  const [reviewersPerItem, setReviewersPerItem] = useState(1);
  const [blind, setBlind] = useState(true);
  const [localize, setLocalize] = useState(false);
  const [guidelines, setGuidelines] = useState("");
  const run = runs.find((r) => r.id === runId);
  const task = catalogue.findTask(run?.pipeline);
  const ensembleKind = run?.ensemble ?? null;
  const { hasVerdict, scope, itemScope, videoScope, canLocalize, presenceFirst, scoreScope } = queueChoices(task, {
    chosenScope,
    mode,
    itemScopes,
    ensembleKind,
  });
  const targets = task?.targets ?? [];
  const chosenTargets = chosen.filter((c) => targets.some((t) => t.id === c));
  const { filterEntries, previewParams, preview } = useQueuePreview(projectId, filter, runId, chosenTargets);
  const perVideo = videoScope && scope === "scores" ? (preview.data?.targets ?? null) : null;
  const create = useMutation({
    mutationFn: () =>
      postJson<{ id: string }>(`/api/v1/projects/${projectId}/queues`, {
        name,
        runId,
        filter: Object.fromEntries(filterEntries),
        sort,
        dir,
        scope: itemScope ? itemScope.id : scope === "unstable" && !ensembleKind ? "scores" : scope,
        categories: videoScope && scoreScope ? chosenTargets : [],
        ...(itemScope?.optionsKey ? { [itemScope.optionsKey]: scopeOptions[itemScope.id] ?? {} } : {}),
        mode: presenceFirst ? "presence" : "full",
        reviewersPerItem,
        handOut,
        blind,
        localize: canLocalize && localize,
        guidelines,
      }),
    onSuccess: ({ id }) => router.push(`/projects/${projectId}/queues/${id}`),
  });

  return (
    <form
      className="flex max-w-2xl flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5 text-sm shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <NameField value={name} onChange={setName} />
      <VideosField projectId={projectId} sort={sort} dir={dir} {...{ filterEntries, previewParams, preview }} />
      <RunField runs={runs} value={runId} onChange={setRunId} />
      {itemScope && task ? (
        <QueueTypeOptions
          scopeId={itemScope.id}
          task={task}
          choices={itemScope.choices}
          value={scopeOptions[itemScope.id] ?? {}}
          onChange={(value) => setScopeOptions((all) => ({ ...all, [itemScope.id]: value }))}
        />
      ) : (
        <ScoreScopeChoice {...{ task, scope, hasVerdict, ensembleKind, perVideo, chosenTargets }} onScope={setScope} />
      )}
      {videoScope && scope === "scores" && task?.presence && (
        <PresenceModeChoice mode={mode} onMode={setMode} absentValue={task.presence.absentValue} />
      )}
      {videoScope && scoreScope && <CategoryChoice task={task} chosen={chosen} onChosen={setChosen} />}
      <ReviewersField value={reviewersPerItem} onChange={setReviewersPerItem} />
      <HandOutChoice handOut={handOut} onHandOut={setHandOut} />
      <BlindField value={blind} onChange={setBlind} />
      {canLocalize && <LocalizeField value={localize} onChange={setLocalize} presence={presenceFirst} />}
      <GuidelinesField value={guidelines} onChange={setGuidelines} />
      <CreateButton pending={create.isPending} error={create.error} nothingMatches={preview.data?.count === 0} />
    </form>
  );
}

/** The videos the queue will hold: the video list's filter and order, a link back to change them, and the count. */
function VideosField({
  projectId,
  sort,
  dir,
  filterEntries,
  previewParams,
  preview,
}: { projectId: string; sort: string; dir: string } & ReturnType<typeof useQueuePreview>) {
  return (
    <div className="flex flex-col gap-1">
      <span className="font-medium">Videos</span>
      <p className="text-slate-600" data-testid="queue-filter">
        {filterEntries.length ? filterEntries.map(([k, v]) => `${k}=${v}`).join(" · ") : "every video of the run"}
        {sort !== "path" || dir !== "asc" ? ` · in the list's order (${sort} ${dir})` : ""}{" "}
        <a href={`/projects/${projectId}/videos?${previewParams.toString()}`} className="text-indigo-700 underline">
          change the filter in the video list
        </a>
      </p>
      <MatchCount preview={preview} />
    </div>
  );
}

/** The submit button (off while creating or when no video matches) and the creation's error. */
function CreateButton({
  pending,
  error,
  nothingMatches,
}: {
  pending: boolean;
  error: Error | null;
  nothingMatches: boolean;
}) {
  return (
    <div className="flex items-center gap-3">
      <button type="submit" disabled={pending || nothingMatches} className={buttonClass()}>
        {pending ? "Creating…" : "Create queue"}
      </button>
      {error && (
        <p role="alert" className="text-red-700" data-testid="form-error">
          {error.message}
        </p>
      )}
    </div>
  );
}

/** What a queue over the chosen run can be, from its task: the scopes, whether items or videos, presence first. */
function queueChoices(
  task: TaskDeclaration | null | undefined,
  chosen: {
    chosenScope: "verdict" | "scores" | "unstable";
    mode: "full" | "presence";
    itemScopes: ItemQueueTypeForm[];
    ensembleKind: "samples" | "panel" | null;
  },
) {
  // A task without a reviewed per-video metric (VBench-2.0 asks questions, not a verdict) gives a verdict queue no
  // target: its scores are what reviewers judge, and the server refuses a verdict queue of it.
  const hasVerdict = task ? task.metrics.some((m) => m.reviewed) : true;
  const scope = chosen.chosenScope === "verdict" && !hasVerdict ? "scores" : chosen.chosenScope;
  // A run whose subjects are items is reviewed item by item, in the scope its task folder adds for that kind.
  const itemScope =
    task && task.subject !== "video" ? (chosen.itemScopes.find((s) => s.reviews === task.subject) ?? null) : null;
  const videoScope = itemScope === null;
  return {
    hasVerdict,
    scope,
    itemScope,
    videoScope,
    canLocalize: videoScope && localisable(task),
    presenceFirst: videoScope && scope === "scores" && !!task?.presence && chosen.mode === "presence",
    // An ensemble run (samples or a judge panel) can be reviewed where its members spread: its unstable scores.
    scoreScope: scope === "scores" || (scope === "unstable" && chosen.ensembleKind !== null),
  };
}

/** The videos the filter matches, counted by the server for the chosen run (and, per video, the targets asked). */
function useQueuePreview(projectId: string, filter: Filter, runId: string, chosenTargets: string[]) {
  const filterEntries = Object.entries(filter).filter(
    ([key, value]) => key !== "runId" && value !== undefined && value !== "",
  );
  const previewParams = new URLSearchParams(filterEntries.map(([k, v]) => [k, String(v)]));
  previewParams.set("runId", runId);
  // The targets per video are counted for the chosen categories (the video list link keeps the filter alone).
  const countParams = new URLSearchParams(previewParams);
  if (chosenTargets.length) countParams.set("categories", chosenTargets.join(","));
  const preview = useQuery({
    queryKey: ["queue-preview", projectId, countParams.toString()],
    queryFn: () => apiFetch<QueuePreview>(`/api/v1/projects/${projectId}/queues/preview?${countParams.toString()}`),
    placeholderData: (previous) => previous,
  });
  return { filterEntries, previewParams, preview };
}

interface QueuePreview {
  runId: string;
  count: number;
  targets: QueueTargetCounts | null;
}

function MatchCount({ preview }: { preview: ReturnType<typeof useQueuePreview>["preview"] }) {
  return (
    <p data-testid="queue-match-count" className="font-medium">
      {preview.isPending ? (
        "Counting…"
      ) : preview.error ? (
        <span className="text-red-700">{preview.error.message}</span>
      ) : (
        `${preview.data.count} video${preview.data.count === 1 ? "" : "s"} match`
      )}
    </p>
  );
}

/**
 * What reviewers of a video queue judge: the verdict (when the task has one), the scores (or a VBench-2.0 run's
 * answers), or an ensemble run's unstable scores; with the targets a video asks.
 */
function ScoreScopeChoice({
  task,
  scope,
  hasVerdict,
  ensembleKind,
  perVideo,
  chosenTargets,
  onScope,
}: {
  task: TaskDeclaration | null;
  scope: "verdict" | "scores" | "unstable";
  hasVerdict: boolean;
  ensembleKind: "samples" | "panel" | null;
  perVideo: QueueTargetCounts | null;
  chosenTargets: string[];
  onScope: (scope: "verdict" | "scores" | "unstable") => void;
}) {
  const setScope = onScope;
  const targets = task?.targets ?? [];
  const verdictMetric = task?.verdict ? task.metrics.find((m) => m.id === task.verdict!.metricId) : undefined;
  const bounds = targets.length
    ? targets
        .map((t) => scaleBounds(t.scale))
        .reduce((a, b) => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) }))
    : null;
  const scopes = [...new Set(targets.map((t) => SCOPE_WORDS[t.scope]))].join(" / ");
  /** Every target a yes/no answer (VBench-2.0's questions): the scores are answers, not numbers on a range. */
  const answers = targets.length > 0 && targets.every((t) => isYesNoScale(t.scale));
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="font-medium">Reviewers judge</legend>
      {hasVerdict && (
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="scope"
            checked={scope === "verdict"}
            onChange={() => setScope("verdict")}
            data-testid="queue-scope-verdict"
          />{" "}
          the {verdictMetric ? verdictMetric.label.toLowerCase() : "judge's"} verdict (yes/no) per video
        </label>
      )}
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="scope"
          checked={scope === "scores"}
          onChange={() => setScope("scores")}
          data-testid="queue-scope-scores"
        />{" "}
        {answers
          ? "the judge's answers (yes / no) to each of its questions"
          : `the judge's scores${bounds ? ` (${bounds.min}–${bounds.max})` : ""}`}
        {scopes ? ` per ${scopes}` : ""}
      </label>
      {!hasVerdict && task && (
        <p className="ml-6 text-xs text-slate-600" data-testid="queue-no-verdict">
          {task.label} gives no verdict per video: reviewers answer what the judge was asked.
        </p>
      )}
      {perVideo && (
        <p className="ml-6 text-xs text-slate-600" data-testid="queue-targets-per-item">
          {perItemText(perVideo.full)} target{perVideo.full.max === 1 ? "" : "s"} per video
          {chosenTargets.length ? ` (${chosenTargets.join(", ")})` : " (every category)"}
          {perVideo.presenceFirst && task?.presence
            ? ` · presence first: ${perVideo.presenceFirst.questions} presence question${perVideo.presenceFirst.questions === 1 ? "" : "s"}, then ${perItemText(perVideo.presenceFirst.scores)} value${perVideo.presenceFirst.scores.max === 1 ? "" : "s"} where the judge says present (more where a reviewer marks a category present)`
            : ""}
        </p>
      )}
      {ensembleKind && (
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="scope"
            checked={scope === "unstable"}
            onChange={() => setScope("unstable")}
            data-testid="queue-scope-unstable"
          />{" "}
          {ensembleKind === "samples"
            ? "unstable targets: the scores whose samples spread past the target's threshold"
            : "panel disagreement: the scores the judges disagree on"}
        </label>
      )}
    </fieldset>
  );
}

/** A presence-first task's choice: every score asked, or the categories' presence first. */
function PresenceModeChoice({
  mode,
  onMode,
  absentValue,
}: {
  mode: "full" | "presence";
  onMode: (mode: "full" | "presence") => void;
  absentValue: number;
}) {
  const setMode = onMode;
  return (
    <fieldset className="flex flex-col gap-1" data-testid="queue-mode">
      <legend className="font-medium">How each video is asked</legend>
      <label className="flex items-center gap-2">
        <input type="radio" name="mode" value="full" checked={mode === "full"} onChange={() => setMode("full")} /> full
        grading: a value for every score
      </label>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="mode"
          value="presence"
          checked={mode === "presence"}
          onChange={() => setMode("presence")}
        />{" "}
        presence first: which categories are present in the video, then values only where the reviewer (or the judge,
        unless blind) says present; absent stores {absentValue}
      </label>
    </fieldset>
  );
}

function HandOutChoice({ handOut, onHandOut }: { handOut: QueueHandOut; onHandOut: (handOut: QueueHandOut) => void }) {
  const setHandOut = onHandOut;
  return (
    <fieldset className="flex flex-col gap-1" data-testid="queue-hand-out">
      <legend className="font-medium">Which item a reviewer gets next</legend>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="handOut"
          value="overlap"
          checked={handOut === "overlap"}
          onChange={() => setHandOut("overlap")}
        />{" "}
        overlap first: the first item they have not reviewed that still needs a reviewer, so reviewers meet on the same
        items and their agreement shows early
      </label>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="handOut"
          value="coverage"
          checked={handOut === "coverage"}
          onChange={() => setHandOut("coverage")}
        />{" "}
        coverage first: the items with the fewest reviews first, so every item gets one reviewer before any gets a
        second
      </label>
    </fieldset>
  );
}

function GuidelinesField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="font-medium">Guidelines for this queue&apos;s reviewers (Markdown, optional)</span>
      <textarea
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={4}
        maxLength={20000}
        className="rounded-md border border-slate-300 px-2 py-1.5 font-mono text-xs"
        data-testid="new-queue-guidelines"
      />
      <span className="text-xs text-slate-500">
        Shown on the review screen after the project&apos;s guidelines; g shows or hides them.
      </span>
    </label>
  );
}

function NameField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="font-medium">Name</span>
      <input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        maxLength={200}
        className="rounded-md border border-slate-300 px-2 py-1.5"
        placeholder="e.g. Mechanics, judge said yes"
      />
    </label>
  );
}

function RunField({
  runs,
  value,
  onChange,
}: {
  runs: { id: string; label: string }[];
  value: string;
  onChange: (runId: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1">
      <span className="font-medium">Judge run</span>
      <select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-slate-300 px-2 py-1.5"
      >
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {r.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The score categories a queue asks (none chosen: all of them). */
function CategoryChoice({
  task,
  chosen,
  onChosen,
}: {
  task: TaskDeclaration | null;
  chosen: string[];
  onChosen: (update: (list: string[]) => string[]) => void;
}) {
  const setChosen = onChosen;
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="font-medium">Categories (none chosen: all)</legend>
      <div className="grid gap-x-4 gap-y-1 sm:grid-cols-2" data-testid="queue-categories">
        {(task?.targets ?? []).map(({ id: c }) => (
          <label key={c} className="flex items-center gap-1.5 text-xs">
            <input
              type="checkbox"
              checked={chosen.includes(c)}
              onChange={(e) => setChosen((list) => (e.target.checked ? [...list, c] : list.filter((x) => x !== c)))}
            />
            <TaskCode task={task} code={c} />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function ReviewersField({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  return (
    <label className="flex w-48 flex-col gap-1">
      <span className="font-medium">Reviewers per item</span>
      <input
        type="number"
        min={1}
        max={10}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-md border border-slate-300 px-2 py-1.5"
      />
    </label>
  );
}

/** Spans mark stretches of a video under the task's span labels, so only such a task's queues localise (lib/queues/localize.ts). */
function localisable(task: TaskDeclaration | null | undefined): boolean {
  return !!task && taskSpanLabels(task).length > 0;
}

function LocalizeField({
  value,
  onChange,
  presence,
}: {
  value: boolean;
  onChange: (value: boolean) => void;
  presence: boolean;
}) {
  return (
    <label className="flex items-center gap-2">
      <input
        type="checkbox"
        checked={value}
        onChange={(e) => onChange(e.target.checked)}
        data-testid="queue-localize"
      />
      <span>
        <span className="font-medium">Localise</span>: reviewers also mark where, as spans on the timeline
        {presence
          ? "; each category marked present needs a span of it before the item can be submitted"
          : " (optional)"}
      </span>
    </label>
  );
}

function BlindField({ value, onChange }: { value: boolean; onChange: (value: boolean) => void }) {
  return (
    <label className="flex items-center gap-2">
      <input type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <span className="font-medium">Blind</span>: reviewers see the judge&apos;s (and others&apos;) values only after
        submitting their own
      </span>
    </label>
  );
}
