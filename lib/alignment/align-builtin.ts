/**
 * Aligning a built-in task's judge to human labels (issue 26 item 4, "built-in or rubric"). Two kinds of target:
 * - a video-level score target one video-scoped step scores (hallucination's prompt inconsistency): the candidates
 *   are rewrites of that step's template and the positive threshold tuned on each run's train values;
 * - a reviewed metric the pipeline's summary makes from the steps' scores (hallucination's verdict, its overall):
 *   the candidates are rewrites of the template of a scoring step the owner picks, and the run settings the
 *   pipeline offers for the metric (aggregation, verdict basis and threshold, pipeline.alignmentSettings), tried on
 *   each run's stored train answers without a call (lib/judge/engine/resummarise.ts).
 * A rewrite is the optimizer's new body of the template, written from the train disagreements with their frames and
 * reasons, checked as an owner's edit is and saved as a prompt version noted "alignment candidate". For a score
 * target, the few-shot candidate is the best template so far with k train videos as examples in its front matter
 * (lib/prompt-versions/template-examples.ts: their prompt, first frames and label), saved as a prompt version too. Every run goes
 * through createRun; the best on train is kept; only then are the baseline and the best run on held-out (the best
 * with its prompt version and settings) and the held-out labels read. The report has a rubric alignment's shape:
 * κ/F1 of both, the paired-bootstrap interval and p-value of the difference, calls and cost.
 */
import type { ProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import { loadTemplate } from "../prompt-versions/prompt-templates";
import { withTemplateExamples } from "../prompt-versions/template-examples";
import { createRun } from "../judge/runs/runs";
import { savePromptVersion, validateTemplateEdit } from "../prompt-versions/prompt-versions";
import { getStorage } from "../storage/storage";
import {
  binariseValue,
  type MetricDeclaration,
  type PositiveRule,
  type TargetDeclaration,
} from "../task-modules/task-declaration";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import type { TargetScope } from "../task-modules/task-declaration";
import { unitParts, unitKey } from "./label-store";
import { binaryAgreement, heldOutComparison, labelledPairs, type BinaryAgreement } from "./agreement";
import { labelledItemSet, waitForRun, type AlignmentDeps, type AlignmentReport } from "./align-judge";
import { AlignmentCancelled } from "./alignment-cancelled";
import { builtinDisagreements, builtinFewShotExamples } from "./builtin-train-evidence";
import { AlignmentBudget, evaluateCandidates } from "./candidate-loop";
import { alignmentOptimizer } from "./optimizer";
import { bestSettingsOnTrain, sameSettings, settingsWords } from "./builtin-grid";
import { splitLabelled, type AlignmentSplit } from "./split";

export { sameSettings, settingsWords };

export interface BuiltinAlignmentInput {
  pipeline: string;
  targetId: string;
  judgeEndpointId: string;
  optimizerEndpointId: string;
  budget: { maxCalls: number; maxCostUsd: number };
  heldOutShare?: number;
  seed?: number;
  rewrites?: number;
  /** The step whose template the optimizer rewrites: one of the target's `steps`; the first when absent. */
  rewriteStepId?: string;
  /**
   * How many train videos the few-shot candidate shows the judge as examples, frames included (0: none). A score
   * target's default is 4; a metric's is 0, and asking for one is skipped with its reason.
   */
  fewShot?: number;
}

export interface BuiltinCandidate {
  id: string;
  kind: "baseline" | "rewrite" | "fewshot" | "threshold" | "settings";
  note: string;
  /** The prompt version the candidate renders (null: the shipped template). */
  promptVersionId: string | null;
  /** The template's body the candidate renders. */
  body: string;
  /** The positive threshold (for a ">=" or "<" rule; the declared one unless tuned). */
  threshold: number | null;
  /** The run settings the candidate's values are summarised with, as the pipeline's settings schema parsed them. */
  settings: unknown;
  train: BinaryAgreement;
  trainRunId: string;
}

export type BuiltinAlignmentReport = Omit<AlignmentReport, "candidates"> & {
  templateId: string;
  stepId: string;
  /** "score" or "metric" (see AlignableTarget); absent in reports from before metrics were aligned: "score". */
  targetKind?: AlignableTarget["kind"];
  candidates: BuiltinCandidate[];
};

/** A target a built-in pipeline can be aligned on, and what an alignment may change for it. */
export interface AlignableTarget {
  pipeline: string;
  /**
   * "score": a target a step scores (a video-level one, or one per key frame, cluster or item its task declares);
   * "metric": a video's reviewed metric the summary makes.
   */
  kind: "score" | "metric";
  /** What one label and one value are about: the video, or each key frame, cluster or item of it (lib/alignment/label-store.ts unitKey). */
  scope: TargetScope;
  /** The step whose score rows hold a score target's values (category = the target's id). */
  valueStep: string | null;
  target: TargetDeclaration | MetricDeclaration;
  /** The templated steps whose template the optimizer may rewrite (a score target's: its own step). */
  steps: { stepId: string; templateId: string; label: string }[];
  /** The run settings tried on train (pipeline.alignmentSettings); none for a score target. */
  settings: unknown[];
}

/**
 * The alignable targets of a built-in pipeline: each video-scope target whose id a video-scoped templated step scores,
 * each reviewed metric for which the pipeline offers settings to try (with the templated steps that score), then the
 * targets per key frame, cluster or item the pipeline's task module declares (TaskModule.alignableTargets).
 */
export function alignableTargets(pipelines: AlignmentDeps["pipelines"], pipelineId: string): AlignableTarget[] {
  const pipeline = Object.hasOwn(pipelines, pipelineId) ? pipelines[pipelineId] : undefined;
  const task = pipeline?.task;
  if (!pipeline || !task || pipeline.projectId) return [];
  const out: AlignableTarget[] = [];
  if (!pipeline.items) {
    for (const target of task.targets) {
      if (target.scope !== "video") continue;
      // The step whose id names the target scores it (hallucination's "inconsistency" step scores "inconsistency").
      const step = pipeline.steps.find((s) => s.id === target.id && s.scope === "video" && !s.compute && s.templateId);
      if (step)
        out.push({
          pipeline: pipelineId,
          kind: "score",
          scope: "video",
          valueStep: step.id,
          target,
          steps: [{ stepId: step.id, templateId: step.templateId, label: step.label }],
          settings: [],
        });
    }
    const scoring = pipeline.steps
      .filter((s) => s.scope !== "item" && !s.compute && s.templateId && s.scores)
      .map((s) => ({ stepId: s.id, templateId: s.templateId, label: s.label }));
    for (const metric of task.metrics) {
      const settings = metric.reviewed ? (pipeline.alignmentSettings?.(metric.id) ?? []) : [];
      if (settings.length > 0 && scoring.length > 0)
        out.push({
          pipeline: pipelineId,
          kind: "metric",
          scope: "video",
          valueStep: null,
          target: metric,
          steps: scoring,
          settings,
        });
    }
  }
  for (const declared of builtInCatalogue()
    .modules.flatMap((m) => m.alignableTargets ?? [])
    .filter((d) => d.pipeline === pipelineId)) {
    const rewrite = pipeline.steps.find((s) => s.id === declared.rewriteStep && !s.compute && s.templateId);
    if (!rewrite || !pipeline.steps.some((s) => s.id === declared.valueStep)) continue;
    for (const id of declared.targets) {
      const target = task.targets.find((t) => t.id === id);
      if (!target || target.scope === "video") continue;
      const step = {
        stepId: rewrite.id,
        templateId: declared.rewriteTemplateId ?? rewrite.templateId,
        label: rewrite.label,
      };
      out.push({
        pipeline: pipelineId,
        kind: "score",
        scope: target.scope,
        valueStep: declared.valueStep,
        target,
        steps: [step],
        settings: [],
      });
    }
  }
  return out;
}

export function builtinPositive(
  target: Pick<TargetDeclaration, "positive">,
  threshold?: number | null,
): (value: number) => boolean {
  return (value) => binariseValue(target.positive, value, threshold ?? undefined) === 1;
}

function declaredThreshold(rule: PositiveRule): number | null {
  return rule.op === "==" ? null : rule.threshold;
}

/** The template's text with another body: its front matter kept verbatim. */
function withBody(raw: string, body: string): string {
  const end = raw.indexOf("\n---", 4);
  const close = raw.indexOf("\n", end + 4);
  return `${raw.slice(0, close + 1)}${body.trim()}\n`;
}

/** a's train κ beats `than`'s by more than rounding (the earliest candidate wins a tie). */
const better = (a: BinaryAgreement, than: BinaryAgreement | undefined) => (a.kappa ?? -2) > (than?.kappa ?? -2) + 1e-12;

/** What every run of a built-in alignment shares: the pipeline and target, the template rewritten, the budget. */
interface BuiltinRunContext {
  deps: AlignmentDeps;
  /** The alignment's own access: the prompt versions it tries are saved with it. */
  access: ProjectAccess<"prompts.manage">;
  projectId: string;
  /** The access its judge runs start with. */
  runs: ProjectAccess<"runs.manage">;
  input: BuiltinAlignmentInput;
  /** The template rewritten, as shipped, and the step it is the template of. */
  shipped: ReturnType<typeof loadTemplate>;
  step: AlignableTarget["steps"][number];
  alignable: AlignableTarget;
  itemSetId: string | null;
  budget: AlignmentBudget;
}

/** A run's values per unit: a metric's, the run's stored metric; a score target's, the step's score. */
async function builtinValuesOf(prisma: PrismaClient, alignable: AlignableTarget, runId: string) {
  const { target } = alignable;
  if (alignable.kind === "metric") {
    const rows = await prisma.runMetric.findMany({
      where: { runId, metric: target.id, itemId: "" },
      select: { videoId: true, value: true },
    });
    return new Map(rows.map((r) => [r.videoId, r.value]));
  }
  const where =
    alignable.scope === "video"
      ? { scopeIndex: 0, itemId: "" }
      : alignable.scope === "item"
        ? { itemId: { not: "" } }
        : { itemId: "" };
  const rows = await prisma.score.findMany({
    where: { runId, stepId: alignable.valueStep!, category: target.id, ...where },
    select: { videoId: true, itemId: true, scopeIndex: true, value: true },
  });
  return new Map(rows.map((r) => [unitKey(alignable.scope, r.videoId, r.itemId, r.scopeIndex), r.value]));
}

/** One run of the pipeline (a prompt version of the template, run settings), waited for and spent, with its values. */
async function runBuiltin(
  ctx: BuiltinRunContext,
  promptVersionId: string | null,
  ids: readonly string[],
  settings?: unknown,
) {
  const { deps, input } = ctx;
  const { prisma } = deps;
  if (deps.signal?.aborted) throw new AlignmentCancelled("The alignment was cancelled.");
  const run = await createRun({ prisma, queue: deps.queue, pipelines: deps.pipelines }, ctx.runs, {
    pipeline: input.pipeline,
    endpointId: input.judgeEndpointId,
    videoIds: [...ids],
    ...(promptVersionId ? { promptVersions: { [ctx.step.templateId]: promptVersionId } } : {}),
    ...(settings !== undefined && settings !== null ? { settings: settings as Record<string, unknown> } : {}),
    ...(ctx.itemSetId ? { itemSetId: ctx.itemSetId } : {}),
  });
  await waitForRun(prisma, run.id, deps.signal);
  const spent = await prisma.llmCall.aggregate({
    where: { runId: run.id, cached: false },
    _count: { _all: true },
    _sum: { costUsd: true },
  });
  ctx.budget.spend(spent._count._all, spent._sum.costUsd ?? 0);
  const stored = await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id }, select: { settings: true } });
  return {
    runId: run.id,
    values: await builtinValuesOf(prisma, ctx.alignable, run.id),
    spent: spent._count._all,
    settings: stored.settings as unknown,
  };
}

type BuiltinRun = Awaited<ReturnType<typeof runBuiltin>>;
type TrainSide = { ids: readonly string[]; labels: ReadonlyMap<string, number>; units: readonly string[] };

/**
 * The candidates of a built-in alignment and how one is added: scored on its train run's values, then the positive
 * threshold and (for a metric) the pipeline's settings tuned on train without a call.
 */
function builtinCandidates(ctx: BuiltinRunContext, truthPositive: (label: number) => boolean, train: TrainSide) {
  const { target } = ctx.alignable;
  const candidates: BuiltinCandidate[] = [];
  const agreementOf = (values: ReadonlyMap<string, number>, threshold: number | null) => {
    const positive = builtinPositive(target, threshold);
    const { truth, predicted } = labelledPairs(values, train.labels, truthPositive, positive, train.units);
    return binaryAgreement(truth, predicted);
  };
  // Thresholds tuned on train: the same values binarised at every value the judge gave (no calls).
  const tuneThreshold = (parent: BuiltinCandidate, values: ReadonlyMap<string, number>) => {
    if (target.positive.op === "==" || target.scale.kind !== "numeric") return;
    let best: BuiltinCandidate | null = null;
    for (const t of [...new Set(values.values())].sort((a, b) => a - b)) {
      if (t === parent.threshold) continue;
      const train = agreementOf(values, t);
      if (better(train, best?.train ?? parent.train))
        best = {
          ...parent,
          id: "",
          kind: "threshold",
          note: `${parent.id} with the positive threshold at ${t}`,
          threshold: t,
          train,
        };
    }
    if (best) candidates.push({ ...best, id: `c${candidates.length + 1}` });
  };
  const evaluate = async (
    fields: Pick<BuiltinCandidate, "kind" | "note" | "promptVersionId" | "body" | "threshold">,
    run: BuiltinRun,
    withSettings: boolean,
  ) => {
    const entry: BuiltinCandidate = {
      id: `c${candidates.length + 1}`,
      ...fields,
      settings: run.settings,
      trainRunId: run.runId,
      train: agreementOf(run.values, fields.threshold),
    };
    candidates.push(entry);
    tuneThreshold(entry, run.values);
    const { alignable, deps } = ctx;
    const tuned = withSettings
      ? await bestSettingsOnTrain({
          prisma: deps.prisma,
          pipeline: deps.pipelines[ctx.input.pipeline]!,
          grid: alignable.settings,
          metricId: target.id,
          trainIds: train.ids,
          signal: deps.signal,
          parent: entry,
          agreementOf: (values) => agreementOf(values, entry.threshold),
        })
      : null;
    if (tuned && better(tuned.train, entry.train)) {
      const settingsEntry: BuiltinCandidate = {
        ...entry,
        id: `c${candidates.length + 1}`,
        kind: "settings",
        note: `${entry.id} summarised with ${settingsWords(tuned.settings)}`,
        settings: tuned.settings,
        train: tuned.train,
      };
      candidates.push(settingsEntry);
      tuneThreshold(settingsEntry, tuned.values);
    }
    return { candidate: entry, values: run.values };
  };
  return { candidates, evaluate, trainIds: train.ids };
}

type CandidatePool = ReturnType<typeof builtinCandidates>;

/** The optimizer's rewrite of the parent's template, checked as an owner's edit is, saved and run on train. */
async function builtinRewrite(
  ctx: BuiltinRunContext,
  pool: CandidatePool,
  parent: { candidate: BuiltinCandidate },
  proposed: string,
) {
  const { shipped } = ctx;
  const text = withBody(shipped.raw, proposed);
  let body: string;
  try {
    body = validateTemplateEdit(shipped, text).body;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (pool.candidates.some((c) => c.body === body)) return "the optimizer proposed a template already tried";
  const version = await savePromptVersion(ctx.deps.prisma, ctx.access, {
    templateId: ctx.step.templateId,
    text,
    note: "alignment candidate",
  });
  // A rewrite is judged with the settings of the candidate it rewrote: each change is measured on its own.
  const run = await runBuiltin(ctx, version.id, pool.trainIds, parent.candidate.settings);
  return pool.evaluate(
    {
      kind: "rewrite",
      note: `the optimizer's rewrite of ${parent.candidate.id}'s template`,
      promptVersionId: version.id,
      body,
      threshold: parent.candidate.threshold,
    },
    run,
    true,
  );
}

/**
 * The few-shot candidate: the best template so far with k train videos as examples (their first frames, the label
 * as the person's value), saved and run on train. Only train videos and their labels.
 */
async function builtinFewShot(
  ctx: BuiltinRunContext,
  pool: CandidatePool,
  parent: { candidate: BuiltinCandidate },
  k: number,
  truthPositive: (label: number) => boolean,
  train: TrainSide,
) {
  const { shipped } = ctx;
  const examples = await builtinFewShotExamples(
    ctx.deps.prisma,
    parent.candidate,
    train.labels,
    train.ids,
    ctx.step.stepId,
    ctx.alignable.target as TargetDeclaration,
    truthPositive,
    k,
    ctx.input.seed ?? 1,
  );
  if (examples.length === 0) return "no train video with frames to show";
  const text = withTemplateExamples(withBody(shipped.raw, parent.candidate.body), examples);
  const version = await savePromptVersion(ctx.deps.prisma, ctx.access, {
    templateId: ctx.step.templateId,
    text: validateTemplateEdit(shipped, text).raw,
    note: "alignment candidate",
  });
  const run = await runBuiltin(ctx, version.id, train.ids, parent.candidate.settings);
  return pool.evaluate(
    {
      kind: "fewshot",
      note: `${parent.candidate.id} with ${examples.length} train example(s), frames included`,
      promptVersionId: version.id,
      body: parent.candidate.body,
      threshold: parent.candidate.threshold,
    },
    run,
    false,
  );
}

/** The baseline and the best on held-out, then (only now) the held-out labels, and the paired comparison. */
async function builtinHeldOut(
  ctx: BuiltinRunContext,
  baseline: BuiltinCandidate,
  best: BuiltinCandidate,
  heldOut: readonly string[],
  progress: (message: string) => void,
) {
  const { target } = ctx.alignable;
  const truthPositive = builtinPositive(target);
  const heldBase = await runBuiltin(ctx, null, heldOut, baseline.settings);
  progress("baseline on held-out");
  // The best's settings on held-out are a run's own settings: its answers come from the cache where they match the baseline's.
  const sameRun = best.promptVersionId === null && sameSettings(best.settings, baseline.settings);
  const heldBest = sameRun ? heldBase : await runBuiltin(ctx, best.promptVersionId, heldOut, best.settings);
  progress("best on held-out");
  const heldLabels = await ctx.deps.labels.labels(heldOut);
  const both = [...heldLabels.keys()].sort().filter((id) => heldBase.values.has(id) && heldBest.values.has(id));
  const a = labelledPairs(
    heldBase.values,
    heldLabels,
    truthPositive,
    builtinPositive(target, baseline.threshold),
    both,
  );
  const b = labelledPairs(heldBest.values, heldLabels, truthPositive, builtinPositive(target, best.threshold), both);
  return heldOutComparison({ ...a, runId: heldBase.runId }, { ...b, runId: heldBest.runId }, ctx.input.seed ?? 1);
}

/** The step whose template the alignment rewrites: the one asked for, else the target's first. */
function rewrittenStep(alignable: AlignableTarget, rewriteStepId: string | undefined) {
  const step = rewriteStepId ? alignable.steps.find((s) => s.stepId === rewriteStepId) : alignable.steps[0];
  if (!step)
    throw new ValidationError(
      `rewriteStepId: the steps whose template can be rewritten for "${alignable.target.id}" are ${alignable.steps.map((s) => s.stepId).join(", ")}.`,
    );
  return step;
}

/**
 * The alignment's call budget, refused unless it covers the baseline on train and the final held-out runs. The
 * calls of one run of the pipeline per video are counted from the baseline's train run; until then, one.
 */
function builtinBudgetFor(limits: BuiltinAlignmentInput["budget"], split: AlignmentSplit): AlignmentBudget {
  const budget = new AlignmentBudget(limits, split.heldOut.length);
  if (!budget.fits(split.train.length))
    throw new ValidationError(
      `The budget of ${limits.maxCalls} calls cannot cover the baseline on train (${split.train.length} videos) and the final held-out runs.`,
    );
  return budget;
}

/** What the optimizer is asked to rewrite: the candidate's template body, named for the target and its scale. */
function builtinRewriteSubject(
  alignable: AlignableTarget,
  step: AlignableTarget["steps"][number],
  candidate: BuiltinCandidate,
) {
  const { target } = alignable;
  return {
    name: alignable.kind === "metric" ? `${target.label}, through the ${step.label} step's prompt` : target.label,
    definition: candidate.body,
    scale:
      target.scale.kind === "numeric"
        ? `${target.scale.min} to ${target.scale.max}`
        : target.scale.values.map((v) => `${v.value} ${v.label}`).join(", "),
  };
}

export async function alignBuiltinJudge(
  deps: AlignmentDeps,
  access: ProjectAccess<"prompts.manage">,
  runs: ProjectAccess<"runs.manage">,
  input: BuiltinAlignmentInput,
): Promise<BuiltinAlignmentReport> {
  const { prisma } = deps;
  const { projectId } = access;
  const alignable = alignableTargets(deps.pipelines, input.pipeline).find((t) => t.target.id === input.targetId);
  if (!alignable) throw new ValidationError(`Pipeline ${input.pipeline} has no alignable target "${input.targetId}".`);
  const { target } = alignable;
  const step = rewrittenStep(alignable, input.rewriteStepId);
  const { stepId, templateId } = step;
  const shipped = loadTemplate(templateId);
  const optimizer = await alignmentOptimizer(prisma, projectId, input.optimizerEndpointId, deps.optimizerClient);
  const storage = deps.storage ?? getStorage();
  const truthPositive = builtinPositive(target);

  // 1. The split: the held-out labels reach nothing but their class, here.
  const { split, trainLabels } = await splitLabelled(deps.labels, input.heldOutShare ?? 0.4, input.seed ?? 1);

  const rewrites = input.rewrites ?? 2;
  const fewShot = input.fewShot ?? (alignable.kind === "score" ? 4 : 0);
  // A metric's label (a verdict, an overall) is what the summary makes of several steps' answers: no step's answer to
  // show; a key frame's, cluster's or item's example would need its own frames and item, not the video's (not yet).
  const fewShotOffered = alignable.kind === "score" && alignable.scope === "video";
  let done = 0;
  const steps = 1 + rewrites + (fewShot > 0 && fewShotOffered ? 1 : 0) + 2;
  const progress = (message: string) => deps.onProgress?.(++done, steps, message);
  const budget = builtinBudgetFor(input.budget, split);
  // An item pipeline's runs judge the labelled items' set (the one set they belong to).
  const itemSetId = deps.pipelines[input.pipeline]!.items
    ? await labelledItemSet(
        prisma,
        projectId,
        [...trainLabels.keys()].map((k) => unitParts(k).itemId),
      )
    : null;
  const ctx: BuiltinRunContext = { deps, access, projectId, runs, input, shipped, step, alignable, itemSetId, budget };
  const train = { ids: split.train, labels: trainLabels, units: [...trainLabels.keys()].sort() };
  const pool = builtinCandidates(ctx, truthPositive, train);
  const { candidates, evaluate } = pool;

  const outcome = await evaluateCandidates<BuiltinCandidate>({
    budget,
    trainVideos: split.train.length,
    rewrites,
    optimizer,
    signal: deps.signal,
    progress,
    better,
    baseline: async () => {
      const base = await runBuiltin(ctx, null, split.train);
      budget.callsPerVideo = Math.max(1, Math.ceil(base.spent / split.train.length));
      return evaluate(
        {
          kind: "baseline",
          note: "the shipped template and the project's settings for new runs",
          promptVersionId: null,
          body: shipped.body,
          threshold: declaredThreshold(target.positive),
        },
        base,
        true,
      );
    },
    disagreements: (parent) =>
      builtinDisagreements(
        prisma,
        storage,
        parent.candidate,
        parent.values,
        trainLabels,
        train.units,
        stepId,
        alignable.scope,
        (v) => builtinPositive(target, parent.candidate.threshold)(v),
        truthPositive,
        optimizer.config.imageDetail,
      ),
    rewriteSubject: (parent) => builtinRewriteSubject(alignable, step, parent.candidate),
    rewrite: (parent, proposed) => builtinRewrite(ctx, pool, parent, proposed),
    fewShot:
      fewShot === 0
        ? null
        : !fewShotOffered
          ? alignable.kind === "metric"
            ? "a metric's label is not an answer of one step"
            : `not offered yet for a target judged per ${alignable.scope.replace("_", " ")}`
          : (parent) => builtinFewShot(ctx, pool, parent, fewShot, truthPositive, train),
  });

  // 2. The best on train (the earliest on a tie, so the baseline wins a tie). 3. Only now the held-out runs and labels.
  const best = candidates.reduce((a, b) => (better(b.train, a.train) ? b : a));
  const heldOut = await builtinHeldOut(ctx, outcome.baseline.candidate, best, split.heldOut, progress);
  return {
    templateId,
    stepId,
    targetKind: alignable.kind,
    split,
    candidates,
    skipped: outcome.skipped,
    bestId: best.id,
    heldOut,
    calls: budget.calls,
    costUsd: budget.costUsd,
    stopped: outcome.stopped,
  };
}
