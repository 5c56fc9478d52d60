"use client";

import {
  readableDynamicKg,
  readableReason,
  readableStaticKg,
  readableSummary,
  shortHash,
} from "@/lib/tasks/hallucination/video-outputs";
import type { CellFocus, StepRow } from "@/components/videos/judge-scores-panel";

const PROBLEM_STATUSES = new Set(["failed", "parse_failed", "skipped", "cancelled"]);
const STEP_LABELS: Record<string, string> = {
  static_kg: "Static knowledge graph",
  dynamic_kg: "Dynamic knowledge graph",
  video_summary: "Video summary",
  inconsistency: "Prompt inconsistency",
  static_hallucination: "Static hallucination",
  dynamic_hallucination: "Dynamic hallucination",
};
const scopeName = (step: StepRow) =>
  step.stepId.startsWith("static")
    ? `key frame ${step.scopeIndex + 1}`
    : step.stepId.startsWith("dynamic")
      ? `cluster ${step.scopeIndex + 1}`
      : "video";

/** Status of a step that did not give an output, with its error, in words. */
function StepProblem({ step }: { step: StepRow | undefined }) {
  if (!step) return <p className="text-xs text-slate-500">not run</p>;
  if (step.status === "done") return null;
  return (
    <p className={`text-xs ${PROBLEM_STATUSES.has(step.status) ? "text-red-700" : "text-slate-500"}`}>
      {step.status.replace("_", " ")}
      {step.error ? `: ${step.error}` : ""}
    </p>
  );
}

/** The prompt version behind an output: template id @ short hash. */
function Version({ step }: { step: StepRow | undefined }) {
  if (!step) return null;
  return (
    <span className="font-mono text-[10px] text-slate-500" title={step.templateHash ?? "no template hash recorded"}>
      {step.templateId}@{shortHash(step.templateHash) ?? "?"}
    </span>
  );
}

/**
 * The judge's outputs as text: per key frame its static knowledge graph (objects with attributes,
 * relations as subject — relation — object), per cluster the changes, the summary and the
 * scoring steps' reasons; steps that produced nothing with their status and error; and the
 * prompt version of every step. Nothing is rendered as raw JSON.
 */
export function JudgeOutputs({
  steps,
  keyFrameCount,
  onFocus,
}: {
  steps: StepRow[];
  keyFrameCount: number;
  onFocus: (focus: CellFocus) => void;
}) {
  const find = (stepId: string, scopeIndex: number) =>
    steps.find((s) => s.stepId === stepId && s.scopeIndex === scopeIndex);
  const scopes = Math.max(
    keyFrameCount,
    ...steps.filter((s) => s.stepId !== "video_summary" && s.stepId !== "inconsistency").map((s) => s.scopeIndex + 1),
    0,
  );
  const summaryStep = find("video_summary", 0);
  const inconsistencyStep = find("inconsistency", 0);
  const summary = summaryStep?.status === "done" ? readableSummary(summaryStep.output) : null;
  const problems = steps.filter((s) => PROBLEM_STATUSES.has(s.status));
  const versions = [
    ...new Map(steps.map((s) => [`${s.stepId}|${s.templateId}|${s.templateHash ?? ""}`, s])).values(),
  ].sort((a, b) => a.stepId.localeCompare(b.stepId));

  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="judge-outputs">
      <section data-testid="video-summary">
        <h3 className="flex items-baseline gap-2 font-medium">
          Video summary <Version step={summaryStep} />
        </h3>
        {summary ? <p className="whitespace-pre-wrap">{summary}</p> : <StepProblem step={summaryStep} />}
        {inconsistencyStep && (
          <p className="mt-1 text-xs text-slate-600" data-testid="inconsistency-reason">
            Prompt inconsistency I = {inconsistencyStep.scores[0]?.value ?? "—"}
            {readableReason(inconsistencyStep.output) ? `: ${readableReason(inconsistencyStep.output)}` : ""}{" "}
            <Version step={inconsistencyStep} />
          </p>
        )}
        {inconsistencyStep && <StepProblem step={inconsistencyStep} />}
      </section>

      <div className="grid gap-3 md:grid-cols-2">
        {Array.from({ length: scopes }, (_, k) => (
          <ScopeOutputs key={k} k={k} find={find} onFocus={onFocus} />
        ))}
      </div>

      {problems.length > 0 && (
        <section>
          <h3 className="font-medium text-red-800">Steps without a result ({problems.length})</h3>
          <ul className="ml-4 list-disc text-xs">
            {problems.map((s) => (
              <li key={s.id} data-testid="step-problem">
                {STEP_LABELS[s.stepId] ?? s.stepId}, {scopeName(s)}: <b>{s.status.replace("_", " ")}</b>
                {s.attempts > 0 ? ` after ${s.attempts} attempt(s)` : ""}
                {s.error ? ` — ${s.error}` : ""}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section data-testid="prompt-versions">
        <h3 className="font-medium">Prompt versions</h3>
        <table className="text-xs">
          <tbody>
            {versions.map((s) => (
              <tr key={`${s.stepId}|${s.templateHash}`}>
                <td className="pr-3">{STEP_LABELS[s.stepId] ?? s.stepId}</td>
                <td className="pr-3 font-mono">{s.templateId}</td>
                <td className="font-mono" title={s.templateHash ?? undefined}>
                  {shortHash(s.templateHash) ?? "not recorded"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** One key frame's static knowledge graph and its cluster's changes, each with its hallucination reason. */
function ScopeOutputs({
  k,
  find,
  onFocus,
}: {
  k: number;
  find: (stepId: string, scopeIndex: number) => StepRow | undefined;
  onFocus: (focus: CellFocus) => void;
}) {
  const kgStep = find("static_kg", k);
  const dynStep = find("dynamic_kg", k);
  const kg = kgStep?.status === "done" ? readableStaticKg(kgStep.output) : null;
  const changes = dynStep?.status === "done" ? readableDynamicKg(dynStep.output) : null;
  const staticReason = readableReason(find("static_hallucination", k)?.output);
  const dynamicReason = readableReason(find("dynamic_hallucination", k)?.output);
  return (
    <article className="rounded-md border border-slate-200 p-3" data-testid="scope-outputs">
      <h3 className="mb-1 flex items-baseline gap-2 font-medium">
        <button
          type="button"
          className="underline decoration-dotted"
          onClick={() => onFocus({ stepId: "static_kg", scopeIndex: k, scoreId: null })}
        >
          Key frame {k + 1}
        </button>
        <span className="text-xs font-normal text-slate-500">static knowledge graph</span>
        <Version step={kgStep} />
      </h3>
      <div data-testid="static-kg">
        {kg ? (
          <>
            <ul className="ml-4 list-disc">
              {kg.objects.map((o) => (
                <li key={o.name} data-testid="kg-object">
                  <b>{o.name}</b>
                  {o.attributes.length > 0 && <span className="text-slate-600">: {o.attributes.join("; ")}</span>}
                </li>
              ))}
            </ul>
            {kg.relations.length > 0 && (
              <ul className="mt-1 ml-4 list-[circle] text-slate-700">
                {kg.relations.map((r, i) => (
                  <li key={i} data-testid="kg-relation">
                    {r.subject} — <i>{r.relation}</i> — {r.object}
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : kgStep?.status === "done" ? (
          <p className="text-xs text-slate-500">empty graph</p>
        ) : (
          <StepProblem step={kgStep} />
        )}
      </div>
      {staticReason && <p className="mt-1 text-xs text-slate-600">Static hallucination: {staticReason}</p>}
      <h3 className="mt-2 mb-1 flex items-baseline gap-2 font-medium">
        <button
          type="button"
          className="underline decoration-dotted"
          onClick={() => onFocus({ stepId: "dynamic_kg", scopeIndex: k, scoreId: null })}
        >
          Cluster {k + 1}
        </button>
        <span className="text-xs font-normal text-slate-500">changes (dynamic knowledge graph)</span>
        <Version step={dynStep} />
      </h3>
      <div data-testid="dynamic-kg">
        {changes && changes.length > 0 ? (
          <ul className="ml-4 list-disc">
            {changes.map((c) => (
              <li key={c.object} data-testid="kg-change">
                <b>{c.object}</b>: {c.change}
              </li>
            ))}
          </ul>
        ) : dynStep?.status === "done" ? (
          <p className="text-xs text-slate-500">no changes listed</p>
        ) : (
          <StepProblem step={dynStep} />
        )}
      </div>
      {dynamicReason && <p className="mt-1 text-xs text-slate-600">Dynamic hallucination: {dynamicReason}</p>}
    </article>
  );
}
