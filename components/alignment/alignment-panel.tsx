"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ApiError, postJson } from "@/lib/api-client";
import type { AlignmentPageData } from "@/lib/alignment/alignment-page";

const GOLD = "__gold__";
const BUILTIN = "builtin:";
const fmt = (x: number | null | undefined, digits = 3) => (x === null || x === undefined ? "—" : x.toFixed(digits));

export function AlignmentPanel({ projectId, data }: { projectId: string; data: AlignmentPageData }) {
  const router = useRouter();
  const selected = data.selected;
  const active = selected && (selected.status === "queued" || selected.status === "running");
  // While the selected alignment works, the page reloads its data every second (progress, then the report).
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), 1000);
    return () => clearInterval(timer);
  }, [active, router]);
  const cancel = useMutation({
    mutationFn: (id: string) => postJson(`/api/v1/projects/${projectId}/alignments/${id}/cancel`, {}),
    onSuccess: () => router.refresh(),
  });
  return (
    <div className="flex flex-col gap-6">
      {data.choices && <StartForm projectId={projectId} choices={data.choices} />}
      <section aria-label="Alignments" className="flex flex-col gap-2">
        <h2 className="text-base font-semibold">Alignments</h2>
        {data.alignments.length === 0 ? (
          <p className="text-sm text-slate-600">No alignment yet.</p>
        ) : (
          <ul className="text-sm">
            {data.alignments.map((a) => (
              <li key={a.id}>
                <Link className="text-blue-700 underline" href={`/projects/${projectId}/alignment?id=${a.id}`}>
                  {a.taskName}, {a.createdAt.slice(0, 16).replace("T", " ")}
                </Link>{" "}
                — {a.status}
              </li>
            ))}
          </ul>
        )}
      </section>
      {selected && (
        <section aria-label="Alignment report" className="flex flex-col gap-3">
          <h2 className="text-base font-semibold">
            Alignment of {selected.taskName}: <span data-testid="alignment-status">{selected.status}</span>
          </h2>
          <p className="text-sm">Labels: {selected.labels}.</p>
          {active && (
            <div className="flex items-center gap-3 text-sm">
              <progress
                max={selected.progress.total ?? 1}
                value={selected.progress.done ?? 0}
                aria-label="Alignment progress"
              />
              <span>{selected.progress.message ?? "waiting for a worker"}</span>
              {data.canManage && (
                <button
                  type="button"
                  className="rounded border px-2 py-1"
                  onClick={() => cancel.mutate(selected.id)}
                  disabled={cancel.isPending}
                >
                  Cancel
                </button>
              )}
            </div>
          )}
          {selected.error && <p className="text-sm text-red-700">{selected.error}</p>}
          {selected.report && <Report projectId={projectId} selected={selected} />}
        </section>
      )}
    </div>
  );
}

type Selected = NonNullable<AlignmentPageData["selected"]>;

function SplitList({
  projectId,
  title,
  videos,
  testId,
}: {
  projectId: string;
  title: string;
  videos: { id: string; name: string | null }[];
  testId: string;
}) {
  return (
    <div>
      <h3 className="font-semibold">
        {title} ({videos.length})
      </h3>
      <ul className="max-h-64 overflow-y-auto" data-testid={testId}>
        {videos.map((v) => (
          <li key={v.id}>
            {v.name === null ? (
              <span className="text-slate-500">(deleted video {v.id})</span>
            ) : (
              <Link className="text-blue-700 underline" href={`/projects/${projectId}/videos/${v.id}`}>
                {v.name}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Report({ projectId, selected }: { projectId: string; selected: Selected }) {
  const { report, splitVideos } = selected;
  if (!report) return null;
  const held = report.heldOut;
  // A built-in task's best candidate carries its tuned positive threshold (the report states it; the verdict settings are the run's).
  const best = report.candidates.find((c) => c.id === report.bestId);
  const threshold = best && "threshold" in best ? best.threshold : null;
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p>
        Calls: {report.calls}, cost ${report.costUsd.toFixed(4)}.
      </p>
      <details aria-label="The split">
        <summary className="cursor-pointer">
          Split: {report.split.train.length} train, {report.split.heldOut.length} held-out videos (stratified by label).
          Show the videos.
        </summary>
        {splitVideos && (
          <div className="mt-2 grid max-w-4xl grid-cols-2 gap-4">
            <SplitList projectId={projectId} title="Train" videos={splitVideos.train} testId="alignment-split-train" />
            <SplitList
              projectId={projectId}
              title="Held-out"
              videos={splitVideos.heldOut}
              testId="alignment-split-held-out"
            />
          </div>
        )}
      </details>
      {report.stopped && <p className="text-amber-800">{report.stopped}</p>}
      <table className="w-full max-w-4xl text-left">
        <caption className="text-left font-semibold">Candidates on train</caption>
        <thead>
          <tr>
            <th>Candidate</th>
            <th>Kind</th>
            <th>What</th>
            <th>Train κ</th>
            <th>Train F1</th>
          </tr>
        </thead>
        <tbody>
          {report.candidates.map((c) => (
            <tr key={c.id} data-testid="alignment-candidate">
              <td>
                {c.id}
                {c.id === report.bestId ? " (best)" : ""}
              </td>
              <td>{c.kind}</td>
              <td>{c.note}</td>
              <td>{fmt(c.train.kappa)}</td>
              <td>{fmt(c.train.f1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.skipped.length > 0 && <p>Not tried: {report.skipped.join("; ")}</p>}
      {held && <HeldOutTable held={held} />}
      {selected.bestSettings?.changed && <AppliedSettings projectId={projectId} selected={selected} />}
      <BestJudgeLine projectId={projectId} selected={selected} threshold={threshold} />
    </div>
  );
}

/** A built-in alignment whose best judge has its own run settings: what they are, and an owner's button to make them the defaults. */
function AppliedSettings({ projectId, selected }: { projectId: string; selected: Selected }) {
  const router = useRouter();
  const apply = useMutation({
    mutationFn: () => postJson(`/api/v1/projects/${projectId}/alignments/${selected.id}/apply-settings`, {}),
    onSuccess: () => router.refresh(),
  });
  const settings = selected.bestSettings!;
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="alignment-best-settings">
      <span>
        The best judge&apos;s run settings: <strong>{settings.words}</strong>.
      </span>
      {settings.applied ? (
        <span className="text-green-800">They are the project&apos;s defaults for new runs.</span>
      ) : settings.canApply ? (
        <button
          type="button"
          className="rounded border px-2 py-1"
          onClick={() => apply.mutate()}
          disabled={apply.isPending}
        >
          Use as the defaults for new runs
        </button>
      ) : (
        <span className="text-slate-600">An owner can make them the defaults for new runs.</span>
      )}
      {apply.error && (
        <span className="text-red-700">
          {apply.error instanceof ApiError ? apply.error.message : "Could not apply the settings."}
        </span>
      )}
    </div>
  );
}

/** The start form's choices as the alignments route's request body (a built-in task's target, or a rubric criterion). */
function alignmentRequestBody(form: {
  taskId: string;
  criterionId: string;
  rewriteStep: string;
  offersFewShot: boolean;
  fewShot: number;
  labelsChoice: string;
  judgeId: string;
  optimizerId: string;
  maxCalls: number;
  maxCost: number;
}) {
  const { taskId, criterionId, rewriteStep, offersFewShot, fewShot, labelsChoice } = form;
  return {
    ...(taskId.startsWith(BUILTIN)
      ? {
          pipeline: taskId.replace(BUILTIN, ""),
          targetId: criterionId,
          ...(rewriteStep ? { rewriteStepId: rewriteStep } : {}),
          ...(offersFewShot ? { fewShot } : {}),
        }
      : { rubricTaskId: taskId, criterionId, fewShot }),
    labels: labelsChoice === GOLD ? { kind: "gold" } : { kind: "labelSet", id: labelsChoice },
    judgeEndpointId: form.judgeId,
    optimizerEndpointId: form.optimizerId,
    maxCalls: form.maxCalls,
    maxCostUsd: form.maxCost,
  };
}

/** The tasks an alignment can target: rubric tasks by id, built-in tasks as BUILTIN + pipeline, a built-in task's "criteria" being its alignable targets. */
function alignableTasks(choices: NonNullable<AlignmentPageData["choices"]>) {
  return [
    ...choices.tasks,
    ...choices.builtins.map((b) => ({ id: `${BUILTIN}${b.pipeline}`, name: b.name, criteria: b.targets })),
  ];
}

/** The start form's button and, when starting failed, why. */
function StartButtonRow({ disabled, error }: { disabled: boolean; error: Error | null }) {
  return (
    <div className="col-span-2 flex items-center gap-3">
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-white" disabled={disabled}>
        Start alignment
      </button>
      {error && (
        <span className="text-red-700">
          {error instanceof ApiError ? error.message : "Could not start the alignment."}
        </span>
      )}
    </div>
  );
}

/** The form that starts an alignment: task, criterion (and step to rewrite), labels, endpoints and budget. */
function StartForm({ projectId, choices }: { projectId: string; choices: NonNullable<AlignmentPageData["choices"]> }) {
  const router = useRouter();
  const tasks = alignableTasks(choices);
  const [taskId, setTaskId] = useState(tasks[0]?.id ?? "");
  const criteria: { id: string; name: string; kind?: string; steps?: { id: string; name: string }[] }[] =
    tasks.find((t) => t.id === taskId)?.criteria ?? [];
  const [criterionId, setCriterionId] = useState(criteria[0]?.id ?? "");
  // A built-in metric (a verdict) is aligned through one scoring step's template: the owner picks which.
  const rewriteSteps =
    criteria.find((c) => c.id === criterionId)?.kind === "metric"
      ? (criteria.find((c) => c.id === criterionId)?.steps ?? [])
      : [];
  const [rewriteStepId, setRewriteStepId] = useState("");
  const rewriteStep = rewriteSteps.some((s) => s.id === rewriteStepId) ? rewriteStepId : (rewriteSteps[0]?.id ?? "");
  // A label set's id, or GOLD for the project's gold values.
  const [labelsChoice, setLabelsChoice] = useState(choices.labelSets[0]?.id ?? GOLD);
  const [judgeId, setJudgeId] = useState(choices.endpoints[0]?.id ?? "");
  const [optimizerId, setOptimizerId] = useState(choices.endpoints[0]?.id ?? "");
  const [maxCalls, setMaxCalls] = useState(500);
  const [maxCost, setMaxCost] = useState(5);
  const [fewShot, setFewShot] = useState(4);
  // Few-shot examples are a rubric criterion's or a built-in score target's: a metric's label is no one step's answer.
  const offersFewShot = !taskId.startsWith(BUILTIN) || criteria.find((c) => c.id === criterionId)?.kind === "score";
  const start = useMutation({
    mutationFn: () =>
      postJson<{ id: string }>(
        `/api/v1/projects/${projectId}/alignments`,
        alignmentRequestBody({
          taskId,
          criterionId,
          rewriteStep,
          offersFewShot,
          fewShot,
          labelsChoice,
          judgeId,
          optimizerId,
          maxCalls,
          maxCost,
        }),
      ),
    onSuccess: (started) => router.push(`/projects/${projectId}/alignment?id=${started.id}`),
  });
  if (tasks.length === 0)
    return <p className="text-sm text-slate-600">No task to align: define a rubric task first.</p>;
  return (
    <form
      aria-label="Start an alignment"
      className="grid max-w-3xl grid-cols-2 gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        start.mutate();
      }}
    >
      <ChoiceSelect
        label="Task"
        value={taskId}
        set={(id) => {
          setTaskId(id);
          setCriterionId(tasks.find((t) => t.id === id)?.criteria[0]?.id ?? "");
        }}
        options={tasks}
      />
      <ChoiceSelect label="Criterion or target" value={criterionId} set={setCriterionId} options={criteria} />
      {rewriteSteps.length > 0 && (
        <ChoiceSelect
          label="Rewrite the prompt of step"
          value={rewriteStep}
          set={setRewriteStepId}
          options={rewriteSteps}
        />
      )}
      <ChoiceSelect
        label="Labels"
        value={labelsChoice}
        set={setLabelsChoice}
        options={[
          ...choices.labelSets.map((s) => ({ id: s.id, name: `Label set: ${s.name}` })),
          { id: GOLD, name: "Gold values (adjudicated)" },
        ]}
      />
      <ChoiceSelect label="Judging endpoint" value={judgeId} set={setJudgeId} options={choices.endpoints} />
      <ChoiceSelect label="Optimizer endpoint" value={optimizerId} set={setOptimizerId} options={choices.endpoints} />
      <BudgetFields
        maxCalls={maxCalls}
        setMaxCalls={setMaxCalls}
        maxCost={maxCost}
        setMaxCost={setMaxCost}
        fewShot={offersFewShot ? fewShot : null}
        setFewShot={setFewShot}
      />
      <StartButtonRow disabled={start.isPending || !judgeId} error={start.error} />
    </form>
  );
}

/** The baseline and the best judge on the held-out videos, and their paired difference. */
function HeldOutTable({ held }: { held: NonNullable<NonNullable<Selected["report"]>["heldOut"]> }) {
  return (
    <table className="w-full max-w-4xl text-left" data-testid="alignment-held-out">
      <caption className="text-left font-semibold">Held-out ({held.baseline.n} videos)</caption>
      <thead>
        <tr>
          <th>Judge</th>
          <th>κ</th>
          <th>F1</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td>Baseline</td>
          <td>{fmt(held.baseline.kappa)}</td>
          <td>{fmt(held.baseline.f1)}</td>
        </tr>
        <tr>
          <td>Best</td>
          <td>{fmt(held.best.kappa)}</td>
          <td>{fmt(held.best.f1)}</td>
        </tr>
        <tr>
          <td>Best − baseline</td>
          <td>
            {fmt(held.difference.kappa.difference)} [{fmt(held.difference.kappa.lower)},{" "}
            {fmt(held.difference.kappa.upper)}], p = {fmt(held.difference.kappa.p)}
          </td>
          <td>
            {fmt(held.difference.f1.difference)} [{fmt(held.difference.f1.lower)}, {fmt(held.difference.f1.upper)}], p ={" "}
            {fmt(held.difference.f1.p)}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** Where the best judge went: a prompt version (built-in task), a rubric task's new version, or nowhere. */
function BestJudgeLine({
  projectId,
  selected,
  threshold,
}: {
  projectId: string;
  selected: Selected;
  threshold: number | null;
}) {
  const { savedVersion } = selected;
  return selected.pipeline ? (
    selected.savedPromptVersion === null ? (
      <p>
        {selected.bestSettings?.changed
          ? "The best judge renders the shipped templates with the settings above: no prompt version was chosen."
          : "The shipped template stayed best on train: no prompt version was chosen."}
      </p>
    ) : (
      <p>
        The best judge is{" "}
        <Link
          className="text-blue-700 underline"
          href={`/projects/${projectId}/prompts?pipeline=${selected.pipeline}&template=${encodeURIComponent(selected.savedPromptVersion.templateId)}#prompt-version-${selected.savedPromptVersion.id}`}
          data-testid="alignment-saved-version"
        >
          a prompt version of {selected.savedPromptVersion.templateId}
        </Link>
        {threshold !== null ? `, positive at ${threshold}` : ""}; start runs with it on the Judge page.
      </p>
    )
  ) : savedVersion === null ? (
    <p>The current judge stayed best on train: no new version was saved.</p>
  ) : (
    <p>
      The best judge was saved as{" "}
      <Link
        className="text-blue-700 underline"
        href={`/projects/${projectId}/rubrics#rubric-${selected.rubricTaskId}-v${savedVersion}`}
        data-testid="alignment-saved-version"
      >
        version {savedVersion}
      </Link>{" "}
      of the rubric task.
    </p>
  );
}

function ChoiceSelect({
  label,
  value,
  set,
  options,
}: {
  label: string;
  value: string;
  set: (value: string) => void;
  options: readonly { id: string; name: string }[];
}) {
  return (
    <label className="flex flex-col gap-1">
      {label}
      <select className="rounded border px-2 py-1" value={value} onChange={(e) => set(e.target.value)}>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The alignment's budget (calls, cost) and its few-shot examples (null: the target takes none). */
function BudgetFields({
  maxCalls,
  setMaxCalls,
  maxCost,
  setMaxCost,
  fewShot,
  setFewShot,
}: {
  maxCalls: number;
  setMaxCalls: (value: number) => void;
  maxCost: number;
  setMaxCost: (value: number) => void;
  fewShot: number | null;
  setFewShot: (value: number) => void;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Maximum calls
        <input
          className="rounded border px-2 py-1"
          type="number"
          min={1}
          value={maxCalls}
          onChange={(e) => setMaxCalls(Number(e.target.value))}
        />
      </label>
      <label className="flex flex-col gap-1">
        Maximum cost (USD)
        <input
          className="rounded border px-2 py-1"
          type="number"
          min={0}
          step="0.01"
          value={maxCost}
          onChange={(e) => setMaxCost(Number(e.target.value))}
        />
      </label>
      {fewShot !== null && (
        <label className="flex flex-col gap-1">
          Few-shot examples (0: none)
          <input
            className="rounded border px-2 py-1"
            type="number"
            min={0}
            max={8}
            value={fewShot}
            onChange={(e) => setFewShot(Number(e.target.value))}
          />
        </label>
      )}
    </>
  );
}
