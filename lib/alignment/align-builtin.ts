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
 * (lib/judge/template-examples.ts: their prompt, first frames and label), saved as a prompt version too. Every run goes
 * through createRun; the best on train is kept; only then are the baseline and the best run on held-out (the best
 * with its prompt version and settings) and the held-out labels read. The report has a rubric alignment's shape:
 * κ/F1 of both, the paired-bootstrap interval and p-value of the difference, calls and cost.
 */
import { isDeepStrictEqual } from "node:util";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import { metricsUnderSettings, storedVideoAnswers } from "../judge/engine/resummarise";
import { loadTemplate } from "../judge/prompt-templates";
import {
  MAX_EXAMPLE_FRAMES,
  MAX_EXAMPLE_PROMPT_CHARS,
  withTemplateExamples,
  type TemplateExample,
} from "../judge/template-examples";
import { createRun } from "../judge/runs";
import { savePromptVersion, validateTemplateEdit } from "../prompt-versions/prompt-versions";
import { getStorage } from "../storage/storage";
import {
  binariseValue,
  type MetricDeclaration,
  type PositiveRule,
  type TargetDeclaration,
} from "../tasks/task-declaration";
import { findTask } from "../tasks/registry";
import { installedTaskModules } from "../task-modules/installed-task-modules";
import type { TargetScope } from "../tasks/task-declaration";
import { unitParts, unitKey } from "./label-store";
import { binaryAgreement, heldOutComparison, labelledPairs, type BinaryAgreement } from "./agreement";
import {
  AlignmentCancelled,
  labelledItemSet,
  waitForRun,
  type AlignmentDeps,
  type AlignmentReport,
} from "./align-judge";
import { alignmentOptimizer, callFrameImages, proposeRewrite, type Disagreement } from "./optimizer";
import { fewShotPick, splitLabelled } from "./split";

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
  const pipeline = pipelines[pipelineId];
  const task = findTask(pipelineId);
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
  for (const declared of installedTaskModules()
    .flatMap((m) => m.alignableTargets ?? [])
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

/** Equal settings whatever their keys' order (a run's stored settings come back from jsonb in its own key order). */
export const sameSettings = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/** Settings in words, for a candidate's note: "aggregation max-max, verdict.on max_category, verdict.threshold 7". */
export function settingsWords(settings: unknown, prefix = ""): string {
  if (settings === null || typeof settings !== "object") return `${prefix}${String(settings)}`;
  return Object.entries(settings as Record<string, unknown>)
    .map(([key, value]) =>
      value !== null && typeof value === "object"
        ? settingsWords(value, `${prefix}${key}.`)
        : `${prefix}${key} ${String(value)}`,
    )
    .join(", ");
}

/**
 * The grid entry to keep of those that score best on train: the middle one of the first run of neighbouring entries
 * that all score best. A pipeline lists its grid with neighbours next to each other (a verdict threshold ascending),
 * so several thresholds that separate train equally well are a run, and its middle is the one farthest from where
 * train starts to disagree: a held-out video near the edge (the judge gives a biased clip 5 on train, 6 on held-out)
 * still falls on the right side. The lowest of the run would be tuned to train's exact values. Null entries (not
 * tried) end a run; a score of null never wins.
 */
export function middleOfBestRun<T>(entries: readonly (T | null)[], score: (entry: T) => number | null): T | null {
  const scored = entries.map((entry) => (entry === null ? null : score(entry)));
  const best = Math.max(...scored.map((s) => s ?? -Infinity));
  if (best === -Infinity) return null;
  const isBest = (i: number) => scored[i] !== null && scored[i] !== undefined && Math.abs(scored[i]! - best) <= 1e-12;
  const first = scored.findIndex((_, i) => isBest(i));
  let last = first;
  while (last + 1 < entries.length && isBest(last + 1)) last++;
  return entries[first + Math.floor((last - first) / 2)]!;
}

export async function alignBuiltinJudge(
  deps: AlignmentDeps,
  actor: Actor,
  projectId: string,
  input: BuiltinAlignmentInput,
): Promise<BuiltinAlignmentReport> {
  const { prisma } = deps;
  await requireProjectAccess(prisma, actor, projectId, "prompts.manage");
  const alignable = alignableTargets(deps.pipelines, input.pipeline).find((t) => t.target.id === input.targetId);
  if (!alignable) throw new ValidationError(`Pipeline ${input.pipeline} has no alignable target "${input.targetId}".`);
  const pipeline = deps.pipelines[input.pipeline]!;
  const { target } = alignable;
  const step = input.rewriteStepId ? alignable.steps.find((s) => s.stepId === input.rewriteStepId) : alignable.steps[0];
  if (!step)
    throw new ValidationError(
      `rewriteStepId: the steps whose template can be rewritten for "${target.id}" are ${alignable.steps.map((s) => s.stepId).join(", ")}.`,
    );
  const { stepId, templateId } = step;
  const shipped = loadTemplate(templateId);
  const { config: optimizerConfig, client: optimizerClient } = await alignmentOptimizer(
    prisma,
    projectId,
    input.optimizerEndpointId,
    deps.optimizerClient,
  );
  const storage = deps.storage ?? getStorage();
  const truthPositive = builtinPositive(target);

  // 1. The split: the held-out labels reach nothing but their class, here.
  const { split, trainLabels } = await splitLabelled(deps.labels, input.heldOutShare ?? 0.4, input.seed ?? 1);

  let calls = 0;
  let costUsd = 0;
  let stopped: string | null = null;
  const rewrites = input.rewrites ?? 2;
  const fewShot = input.fewShot ?? (alignable.kind === "score" ? 4 : 0);
  // A metric's label (a verdict, an overall) is what the summary makes of several steps' answers: no step's answer to
  // show; a key frame's, cluster's or item's example would need its own frames and item, not the video's (not yet).
  const fewShotCandidate = fewShot > 0 && alignable.kind === "score" && alignable.scope === "video";
  let done = 0;
  const steps = 1 + rewrites + (fewShotCandidate ? 1 : 0) + 2;
  const progress = (message: string) => deps.onProgress?.(++done, steps, message);
  const checkCancel = () => {
    if (deps.signal?.aborted) throw new AlignmentCancelled("The alignment was cancelled.");
  };
  // The calls of one run of the pipeline per video are counted from the baseline's train run; until then, one.
  let callsPerVideo = 1;
  const reserve = () => 2 * split.heldOut.length * callsPerVideo;
  const fits = (videos: number, extraCalls = 0) => {
    const perCall = calls > 0 ? costUsd / calls : 0;
    const more = videos * callsPerVideo + extraCalls + reserve();
    return calls + more <= input.budget.maxCalls && costUsd + perCall * more <= input.budget.maxCostUsd;
  };
  if (!fits(split.train.length))
    throw new ValidationError(
      `The budget of ${input.budget.maxCalls} calls cannot cover the baseline on train (${split.train.length} videos) and the final held-out runs.`,
    );

  // A metric's values are the run's stored metric; a score target's, the step's score.
  const valuesOf = async (runId: string): Promise<Map<string, number>> => {
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
  };
  // An item pipeline's runs judge the labelled items' set (the one set they belong to).
  const itemSetId = pipeline.items
    ? await labelledItemSet(
        prisma,
        projectId,
        [...trainLabels.keys()].map((k) => unitParts(k).itemId),
      )
    : null;
  // Values and labels are compared per unit: a train video's labelled key frames, clusters or items (the video itself at video scope).
  const trainUnits = [...trainLabels.keys()].sort();
  const runOn = async (promptVersionId: string | null, ids: readonly string[], settings?: unknown) => {
    checkCancel();
    const run = await createRun({ prisma, queue: deps.queue, pipelines: deps.pipelines }, actor, projectId, {
      pipeline: input.pipeline,
      endpointId: input.judgeEndpointId,
      videoIds: [...ids],
      ...(promptVersionId ? { promptVersions: { [templateId]: promptVersionId } } : {}),
      ...(settings !== undefined && settings !== null ? { settings: settings as Record<string, unknown> } : {}),
      ...(itemSetId ? { itemSetId } : {}),
    });
    await waitForRun(prisma, run.id, deps.signal);
    const spent = await prisma.llmCall.aggregate({
      where: { runId: run.id, cached: false },
      _count: { _all: true },
      _sum: { costUsd: true },
    });
    calls += spent._count._all;
    costUsd += spent._sum.costUsd ?? 0;
    const stored = await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id }, select: { settings: true } });
    return {
      runId: run.id,
      values: await valuesOf(run.id),
      spent: spent._count._all,
      settings: stored.settings as unknown,
    };
  };
  const scoreOn = (
    values: ReadonlyMap<string, number>,
    labels: ReadonlyMap<string, number>,
    positive: (v: number) => boolean,
    ids: readonly string[],
  ) => labelledPairs(values, labels, truthPositive, positive, ids);

  const candidates: BuiltinCandidate[] = [];
  const skipped: string[] = [];
  const add = (c: Omit<BuiltinCandidate, "id" | "train">, values: ReadonlyMap<string, number>) => {
    const { truth, predicted } = scoreOn(values, trainLabels, builtinPositive(target, c.threshold), trainUnits);
    const entry: BuiltinCandidate = { id: `c${candidates.length + 1}`, ...c, train: binaryAgreement(truth, predicted) };
    candidates.push(entry);
    return entry;
  };
  const better = (a: BinaryAgreement, than: BinaryAgreement | undefined) =>
    (a.kappa ?? -2) > (than?.kappa ?? -2) + 1e-12;
  // Thresholds tuned on train: the same values binarised at every value the judge gave (no calls).
  const tuneThreshold = (parent: BuiltinCandidate, values: ReadonlyMap<string, number>) => {
    if (target.positive.op === "==" || target.scale.kind !== "numeric") return;
    let best: BuiltinCandidate | null = null;
    for (const t of [...new Set(values.values())].sort((a, b) => a - b)) {
      if (t === parent.threshold) continue;
      const { truth, predicted } = scoreOn(values, trainLabels, builtinPositive(target, t), trainUnits);
      const train = binaryAgreement(truth, predicted);
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
  // Settings tuned on train: the run's stored train answers summarised under each setting the pipeline offers (no calls).
  const tuneSettings = async (parent: BuiltinCandidate) => {
    if (alignable.settings.length === 0) return;
    const stored = [];
    for (const id of split.train) {
      checkCancel();
      const answers = await storedVideoAnswers(prisma, parent.trainRunId, id);
      if (answers) stored.push(answers);
    }
    // Every grid entry's result in the grid's order (null: the parent's own settings, not tried again).
    const tried: ({ settings: unknown; train: BinaryAgreement; values: Map<string, number> } | null)[] = [];
    for (const raw of alignable.settings) {
      // A grid entry changes only what it names: the overall's aggregation keeps the parent's verdict rule.
      const merged = { ...(parent.settings as Record<string, unknown> | null), ...(raw as Record<string, unknown>) };
      const settings = pipeline.settingsSchema ? pipeline.settingsSchema.parse(merged) : merged;
      if (sameSettings(settings, parent.settings)) {
        tried.push(null);
        continue;
      }
      const values = new Map<string, number>();
      for (const answers of stored) {
        const value = metricsUnderSettings(pipeline, answers, settings)[target.id];
        if (value !== null && value !== undefined) values.set(answers.videoId, value);
      }
      const { truth, predicted } = scoreOn(values, trainLabels, builtinPositive(target, parent.threshold), trainUnits);
      tried.push({ settings, train: binaryAgreement(truth, predicted), values });
    }
    const best = middleOfBestRun(tried, (entry) => entry.train.kappa);
    if (!best || !better(best.train, parent.train)) return;
    const entry: BuiltinCandidate = {
      ...parent,
      id: `c${candidates.length + 1}`,
      kind: "settings",
      note: `${parent.id} summarised with ${settingsWords(best.settings)}`,
      settings: best.settings,
      train: best.train,
    };
    candidates.push(entry);
    tuneThreshold(entry, best.values);
  };

  const base = await runOn(null, split.train);
  callsPerVideo = Math.max(1, Math.ceil(base.spent / split.train.length));
  const baseline = add(
    {
      kind: "baseline",
      note: "the shipped template and the project's settings for new runs",
      promptVersionId: null,
      body: shipped.body,
      threshold: declaredThreshold(target.positive),
      settings: base.settings,
      trainRunId: base.runId,
    },
    base.values,
  );
  tuneThreshold(baseline, base.values);
  await tuneSettings(baseline);
  progress("baseline on train");
  let parent = { candidate: baseline, values: base.values };
  for (let r = 0; r < rewrites; r++) {
    if (!fits(split.train.length, 1)) {
      stopped = `Stopped at the budget (${calls} of ${input.budget.maxCalls} calls, $${costUsd.toFixed(4)} of $${input.budget.maxCostUsd}) after ${r} rewrite(s): the held-out runs are kept within it.`;
      break;
    }
    checkCancel();
    const disagreements = await disagreementsOf(
      prisma,
      storage,
      parent.candidate,
      parent.values,
      trainLabels,
      trainUnits,
      stepId,
      alignable.scope,
      (v) => builtinPositive(target, parent.candidate.threshold)(v),
      truthPositive,
      optimizerConfig.imageDetail,
    );
    if (disagreements.length === 0) {
      skipped.push(`rewrite ${r + 1}: no train disagreements left to learn from`);
      break;
    }
    const scale =
      target.scale.kind === "numeric"
        ? `${target.scale.min} to ${target.scale.max}`
        : target.scale.values.map((v) => `${v.value} ${v.label}`).join(", ");
    const name =
      alignable.kind === "metric" ? `${target.label}, through the ${step.label} step's prompt` : target.label;
    const proposal = await proposeRewrite(
      optimizerClient,
      optimizerConfig,
      { name, definition: parent.candidate.body, scale },
      disagreements,
      deps.signal,
    );
    calls += 1;
    costUsd += proposal.costUsd;
    if ("error" in proposal) {
      skipped.push(`rewrite ${r + 1}: ${proposal.error}`);
      continue;
    }
    const text = withBody(shipped.raw, proposal.definition);
    let body: string;
    try {
      body = validateTemplateEdit(shipped, text).body;
    } catch (error) {
      skipped.push(`rewrite ${r + 1}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (candidates.some((c) => c.body === body)) {
      skipped.push(`rewrite ${r + 1}: the optimizer proposed a template already tried`);
      continue;
    }
    const version = await savePromptVersion(prisma, actor, projectId, {
      templateId,
      text,
      note: "alignment candidate",
    });
    // A rewrite is judged with the settings of the candidate it rewrote: each change is measured on its own.
    const run = await runOn(version.id, split.train, parent.candidate.settings);
    const entry = add(
      {
        kind: "rewrite",
        note: `the optimizer's rewrite of ${parent.candidate.id}'s template`,
        promptVersionId: version.id,
        body,
        threshold: parent.candidate.threshold,
        settings: run.settings,
        trainRunId: run.runId,
      },
      run.values,
    );
    tuneThreshold(entry, run.values);
    await tuneSettings(entry);
    progress(`rewrite ${r + 1} on train`);
    if (better(entry.train, parent.candidate.train)) parent = { candidate: entry, values: run.values };
  }

  // Few-shot: the best template so far with k train videos shown as examples (their first frames, the label as the
  // person's value), within the budget; only train videos and their labels, read above.
  if (fewShot > 0 && !fewShotCandidate)
    skipped.push(
      alignable.kind === "metric"
        ? "few-shot: a metric's label is not an answer of one step"
        : `few-shot: not offered yet for a target judged per ${alignable.scope.replace("_", " ")}`,
    );
  if (fewShotCandidate && stopped === null) {
    if (!fits(split.train.length)) {
      stopped = `Stopped at the budget (${calls} of ${input.budget.maxCalls} calls, $${costUsd.toFixed(4)} of $${input.budget.maxCostUsd}) before the few-shot candidate: the held-out runs are kept within it.`;
    } else {
      checkCancel();
      const examples = await builtinFewShotExamples(
        prisma,
        parent.candidate,
        trainLabels,
        split.train,
        stepId,
        target as TargetDeclaration,
        truthPositive,
        fewShot,
        input.seed ?? 1,
      );
      if (examples.length === 0) skipped.push("few-shot: no train video with frames to show");
      else {
        const text = withTemplateExamples(withBody(shipped.raw, parent.candidate.body), examples);
        const version = await savePromptVersion(prisma, actor, projectId, {
          templateId,
          text: validateTemplateEdit(shipped, text).raw,
          note: "alignment candidate",
        });
        const run = await runOn(version.id, split.train, parent.candidate.settings);
        const entry = add(
          {
            kind: "fewshot",
            note: `${parent.candidate.id} with ${examples.length} train example(s), frames included`,
            promptVersionId: version.id,
            body: parent.candidate.body,
            threshold: parent.candidate.threshold,
            settings: run.settings,
            trainRunId: run.runId,
          },
          run.values,
        );
        tuneThreshold(entry, run.values);
        progress("few-shot on train");
      }
    }
  }

  // 2. The best on train (the earliest on a tie, so the baseline wins a tie). 3. Only now the held-out runs and labels.
  const best = candidates.reduce((a, b) => (better(b.train, a.train) ? b : a));
  const heldBase = await runOn(null, split.heldOut, baseline.settings);
  progress("baseline on held-out");
  // The best's settings on held-out are a run's own settings: its answers come from the cache where they match the baseline's.
  const sameRun = best.promptVersionId === null && sameSettings(best.settings, baseline.settings);
  const heldBest = sameRun ? heldBase : await runOn(best.promptVersionId, split.heldOut, best.settings);
  progress("best on held-out");
  const heldLabels = await deps.labels.labels(split.heldOut);
  const both = [...heldLabels.keys()].sort().filter((id) => heldBase.values.has(id) && heldBest.values.has(id));
  const a = scoreOn(heldBase.values, heldLabels, builtinPositive(target, baseline.threshold), both);
  const b = scoreOn(heldBest.values, heldLabels, builtinPositive(target, best.threshold), both);
  return {
    templateId,
    stepId,
    targetKind: alignable.kind,
    split,
    candidates,
    skipped,
    bestId: best.id,
    heldOut: heldOutComparison({ ...a, runId: heldBase.runId }, { ...b, runId: heldBest.runId }, input.seed ?? 1),
    calls,
    costUsd,
    stopped,
  };
}

const MAX_DISAGREEMENTS = 8;

/** A label as the judge reads it: the number, with the scale's word for it where the scale names its values. */
function labelText(target: TargetDeclaration, label: number): string {
  if (target.scale.kind === "numeric") return String(label);
  const named = target.scale.values.find((v) => v.value === label)?.label;
  return named ? `${label} (${named})` : String(label);
}

/**
 * k train videos as few-shot examples, half of each label class where the train split allows (seeded, as a rubric's
 * are), each with the first frames the candidate's train run sent for it in the step's call. Only train videos and
 * their (already read) labels.
 */
async function builtinFewShotExamples(
  prisma: PrismaClient,
  candidate: BuiltinCandidate,
  labels: ReadonlyMap<string, number>,
  train: readonly string[],
  stepId: string,
  target: TargetDeclaration,
  truthPositive: (v: number) => boolean,
  k: number,
  seed: number,
): Promise<TemplateExample[]> {
  const picked = fewShotPick(train, labels, truthPositive, k, seed);
  const examples: TemplateExample[] = [];
  for (const videoId of picked) {
    const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { prompt: true } });
    const call = await prisma.llmCall.findFirst({
      where: { runId: candidate.trainRunId, videoId, error: null, stepResult: { stepId } },
      orderBy: { createdAt: "desc" },
      select: { request: true },
    });
    const frameIds = ((call?.request as { frameIds?: string[] } | null)?.frameIds ?? []).slice(0, MAX_EXAMPLE_FRAMES);
    const rows = await prisma.frame.findMany({
      where: { id: { in: frameIds } },
      select: { id: true, frameSetId: true, index: true, sha256: true },
    });
    const frames = frameIds.flatMap((id) =>
      rows.filter((r) => r.id === id).map((r) => ({ frameSetId: r.frameSetId, index: r.index, sha256: r.sha256 })),
    );
    if (frames.length === 0) continue;
    const label = labels.get(videoId)!;
    examples.push({
      videoId,
      prompt: (video.prompt ?? "").slice(0, MAX_EXAMPLE_PROMPT_CHARS),
      target: target.label,
      label,
      labelText: labelText(target, label),
      frames,
    });
  }
  return examples;
}

async function disagreementsOf(
  prisma: PrismaClient,
  storage: ReturnType<typeof getStorage>,
  candidate: BuiltinCandidate,
  values: ReadonlyMap<string, number>,
  labels: ReadonlyMap<string, number>,
  train: readonly string[],
  stepId: string,
  scope: TargetScope,
  positive: (v: number) => boolean,
  truthPositive: (v: number) => boolean,
  detail: "low" | "high" | "auto" | null,
): Promise<Disagreement[]> {
  const ids = train
    .filter((id) => values.has(id) && labels.has(id) && positive(values.get(id)!) !== truthPositive(labels.get(id)!))
    .slice(0, MAX_DISAGREEMENTS);
  const out: Disagreement[] = [];
  for (const unit of ids) {
    const { videoId, itemId, scopeIndex } = unitParts(unit);
    const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { prompt: true } });
    // The call of the rewritten step for this unit: its key frame's or cluster's index, or its item.
    const at = scope === "video" ? {} : scope === "item" ? { itemId } : { scopeIndex };
    const call = await prisma.llmCall.findFirst({
      where: { runId: candidate.trainRunId, videoId, error: null, stepResult: { stepId, ...at } },
      orderBy: { createdAt: "desc" },
      select: { responseText: true, request: true },
    });
    let reason: string | null = null;
    try {
      const parsed = JSON.parse(call?.responseText ?? "") as { reason?: unknown };
      reason = typeof parsed.reason === "string" ? parsed.reason : null;
    } catch {
      reason = null;
    }
    const images = await callFrameImages(prisma, storage, call?.request, detail);
    out.push({
      videoPrompt: video.prompt,
      judgeValue: values.get(unit)!,
      judgeReason: reason,
      label: labels.get(unit)!,
      images,
    });
  }
  return out;
}
