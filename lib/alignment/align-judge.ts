/**
 * Aligning a rubric task's judge to human labels (issue 26 item 4). The labelled videos are split into train and
 * held-out (seeded, stratified by label class). On train only: the baseline (the task's latest version) is run,
 * the optimizer endpoint rewrites the criterion's definition from the train disagreements (frames and the judge's
 * reasons attached), each rewrite is run, and the positive threshold is tuned on each run's train values. The best
 * candidate by train κ is kept; only then are the baseline and the best run on held-out, the held-out labels read,
 * and κ/F1 of both with the paired-bootstrap interval and p-value of the difference reported. Every run goes
 * through createRun, so candidates are judged exactly as a run judges. Calls and cost stop at the budget.
 */
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import type { LlmClient } from "../judge/calls/llm-client";
import type { JudgeQueue } from "../judge/workers/judge-queue";
import { createRun } from "../judge/runs/runs";
import type { PipelineDefinition } from "../task-modules/pipeline-types";
import { rubricMetricId, rubricPipelineId } from "../rubrics/rubric-declaration";
import type { RubricCriterion, RubricDefinition, RubricExample } from "../rubrics/rubric-definition";
import { getStorage } from "../storage/storage";
import type { ObjectStorage } from "../storage/object-storage";
import { binaryAgreement, heldOutComparison, labelledPairs, type BinaryAgreement } from "./agreement";
import type { AlignmentLabelStore } from "./label-store";
import { AlignmentCancelled } from "./alignment-cancelled";
import { AlignmentBudget, evaluateCandidates } from "./candidate-loop";
import { alignmentOptimizer, disagreementOf, type Disagreement } from "./optimizer";
import { fewShotPick, splitLabelled, type AlignmentSplit } from "./split";
import { unitKey, unitParts } from "./label-store";
import type { PairedBootstrapResult } from "../stats/bootstrap";
import type { z } from "zod";

export interface AlignmentInput {
  rubricTaskId: string;
  criterionId: string;
  judgeEndpointId: string;
  optimizerEndpointId: string;
  budget: { maxCalls: number; maxCostUsd: number };
  heldOutShare?: number;
  seed?: number;
  /** How many rewrites the optimizer is asked for (each from the best candidate's disagreements so far). */
  rewrites?: number;
  /** How many train videos the few-shot candidate shows the judge as examples (0: no few-shot candidate). */
  fewShot?: number;
}

export interface AlignmentDeps {
  prisma: PrismaClient;
  queue: JudgeQueue;
  /** The built-in pipelines (builtInCatalogue().pipelines), or a test's own; a rubric task's run reads its project's catalogue. */
  pipelines: Readonly<Record<string, PipelineDefinition & { settingsSchema?: z.ZodType }>>;
  labels: AlignmentLabelStore;
  /** The optimizer's client; the judge's OpenAI-compatible client when absent. */
  optimizerClient?: LlmClient;
  storage?: ObjectStorage;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, message: string) => void;
}

export interface AlignmentCandidate {
  id: string;
  kind: "baseline" | "rewrite" | "fewshot" | "threshold";
  note: string;
  definition: RubricDefinition;
  train: BinaryAgreement;
  trainRunId: string;
}

export interface AlignmentReport {
  split: AlignmentSplit;
  candidates: AlignmentCandidate[];
  /** Rewrites the optimizer could not give (the reason each). */
  skipped: string[];
  bestId: string;
  heldOut: {
    baseline: BinaryAgreement;
    best: BinaryAgreement;
    difference: { kappa: PairedBootstrapResult; f1: PairedBootstrapResult };
    baselineRunId: string;
    bestRunId: string;
  } | null;
  calls: number;
  costUsd: number;
  /** Why the alignment stopped early (the budget, a cancel), or null. */
  stopped: string | null;
}

export { AlignmentCancelled };

function positiveRule(criterion: RubricCriterion): (value: number) => boolean {
  if (criterion.type === "numeric") {
    const t = criterion.positiveAtLeast ?? criterion.presence?.threshold ?? (criterion.min + criterion.max) / 2;
    return (v) => v >= t;
  }
  if (criterion.type === "boolean") return (v) => v === 1;
  const index = criterion.positiveLabel
    ? criterion.labels.findIndex((l) => l.label.toLowerCase() === criterion.positiveLabel!.toLowerCase())
    : criterion.labels.length - 1;
  return (v) => v === index;
}

/** The positive rule a criterion declares, for the label store's strata. */
export function criterionPositive(definition: RubricDefinition, criterionId: string): (value: number) => boolean {
  const criterion = definition.criteria.find((c) => c.id === criterionId);
  if (!criterion) throw new ValidationError(`The rubric has no criterion "${criterionId}".`);
  return positiveRule(criterion);
}

function withCriterion(
  definition: RubricDefinition,
  criterionId: string,
  change: (c: RubricCriterion) => RubricCriterion,
): RubricDefinition {
  return { ...definition, criteria: definition.criteria.map((c) => (c.id === criterionId ? change(c) : c)) };
}

function scaleWords(c: RubricCriterion): string {
  if (c.type === "numeric") return `${c.min} to ${c.max}`;
  if (c.type === "boolean") return "1 yes, 0 no";
  return c.labels.map((l, i) => `${i} ${l.label}`).join(", ");
}

/** The alignment's call budget, refused unless it covers the baseline on train and the final held-out runs. */
function alignmentBudgetFor(limits: AlignmentInput["budget"], split: AlignmentSplit): AlignmentBudget {
  const budget = new AlignmentBudget(limits, split.heldOut.length);
  if (!budget.fits(split.train.length)) {
    throw new ValidationError(
      `The budget of ${limits.maxCalls} calls cannot cover the baseline on train (${split.train.length} calls) and the final held-out runs (${budget.reserve()}).`,
    );
  }
  return budget;
}

/**
 * The baseline and the best candidate on the held-out videos: their runs first, then (only now) the held-out
 * labels, each run's values paired with them under the truth's positive rule and its own definition's.
 */
async function compareOnHeldOut(
  ctx: RubricRunContext,
  baseline: RubricDefinition,
  best: AlignmentCandidate,
  heldOutIds: readonly string[],
  criterionId: string,
  progress: (message: string) => void,
  seed: number,
) {
  const truthPositive = criterionPositive(baseline, criterionId);
  const heldBase = await runRubric(ctx, baseline, heldOutIds, false);
  progress("baseline on held-out");
  const heldBest = best.kind === "baseline" ? heldBase : await runRubric(ctx, best.definition, heldOutIds, true);
  progress("best on held-out");
  const heldLabels = await ctx.deps.labels.labels(heldOutIds);
  const a = labelledPairs(heldBase.values, heldLabels, truthPositive, truthPositive, [...heldLabels.keys()].sort());
  const b = labelledPairs(
    heldBest.values,
    heldLabels,
    truthPositive,
    criterionPositive(best.definition, criterionId),
    a.ids,
  );
  return heldOutComparison({ ...a, runId: heldBase.runId }, { ...b, runId: heldBest.runId }, seed);
}

/** The train units in order, and for a rubric over items the item set its train runs judge (the labelled items). */
async function trainingUnits(
  prisma: PrismaClient,
  projectId: string,
  trainLabels: ReadonlyMap<string, unknown>,
  perItem: boolean,
) {
  const itemSetId = perItem
    ? await labelledItemSet(
        prisma,
        projectId,
        [...trainLabels.keys()].map((k) => unitParts(k).itemId),
      )
    : null;
  return { itemSetId, trainUnits: [...trainLabels.keys()].sort() };
}

export async function alignRubricJudge(
  deps: AlignmentDeps,
  access: ProjectAccess<"rubrics.manage">,
  runs: ProjectAccess<"runs.manage">,
  input: AlignmentInput,
): Promise<AlignmentReport> {
  const { prisma } = deps;
  const { actor, projectId } = access;
  const { pipeline, baseline, criterion, metric } = await rubricTarget(prisma, projectId, input);
  const optimizer = await alignmentOptimizer(prisma, projectId, input.optimizerEndpointId, deps.optimizerClient);
  const storage = deps.storage ?? getStorage();
  // A rubric over items is compared item by item (labels and values keyed by unitKey), its runs judging the labelled items' set.
  const perItem = baseline.subject?.kind === "item";

  // 1. The split: the held-out labels reach nothing but their class, here.
  const { split, trainLabels } = await splitLabelled(deps.labels, input.heldOutShare ?? 0.4, input.seed ?? 1);
  const { itemSetId, trainUnits } = await trainingUnits(prisma, projectId, trainLabels, perItem);

  const rewrites = input.rewrites ?? 2;
  const fewShot = input.fewShot ?? 0;
  const steps = 1 + rewrites + (fewShot > 0 ? 1 : 0) + 2;
  let done = 0;
  const progress = (message: string) => deps.onProgress?.(++done, steps, message);
  const budget = alignmentBudgetFor(input.budget, split);

  const ctx: RubricRunContext = {
    deps,
    actor,
    projectId,
    runs,
    endpointId: input.judgeEndpointId,
    pipeline,
    metric,
    perItem,
    itemSetId,
    budget,
  };
  const truthPositive = criterionPositive(baseline, criterion.id);
  const { candidates, evaluate, fewShotCandidate } = rubricCandidates(ctx, criterion.id, truthPositive, {
    ids: split.train,
    labels: trainLabels,
    units: trainUnits,
  });

  const { skipped, stopped } = await evaluateCandidates<AlignmentCandidate>({
    budget,
    trainVideos: split.train.length,
    rewrites,
    optimizer,
    signal: deps.signal,
    progress,
    better: (a, than) => (a.kappa ?? -2) > (than.kappa ?? -2),
    baseline: () => evaluate("baseline", "the task's latest version", baseline),
    disagreements: (parent) =>
      disagreementsOf(
        prisma,
        storage,
        parent.candidate,
        parent.values,
        trainLabels,
        trainUnits,
        criterion.id,
        optimizer.config.imageDetail,
      ),
    rewriteSubject: (parent) => {
      const c = parent.candidate.definition.criteria.find((x) => x.id === criterion.id)!;
      return { name: c.name, definition: c.definition, scale: scaleWords(c) };
    },
    rewrite: async (parent, proposed) => {
      const definition = withCriterion(parent.candidate.definition, criterion.id, (c) => ({
        ...c,
        definition: proposed,
      }));
      const tried = candidates.some(
        (c) =>
          c.kind === "rewrite" && c.definition.criteria.some((x) => x.id === criterion.id && x.definition === proposed),
      );
      if (tried) return "the optimizer proposed a definition already tried";
      return evaluate("rewrite", `the optimizer's rewrite of ${parent.candidate.id}'s definition`, definition);
    },
    // A rubric's examples are videos; an item subject's would need the item's fields too (not yet).
    fewShot:
      fewShot === 0
        ? null
        : perItem
          ? "not offered yet for a rubric judged per item"
          : (parent) => fewShotCandidate(parent, criterion, fewShot, input.seed ?? 1),
  });

  // 2. Keep the best on train (the earliest on a tie, so the baseline wins a tie).
  const best = candidates.reduce((a, b) => ((b.train.kappa ?? -2) > (a.train.kappa ?? -2) + 1e-12 ? b : a));
  // 3. Only now: the held-out runs, then the held-out labels.
  const heldOut = await compareOnHeldOut(ctx, baseline, best, split.heldOut, criterion.id, progress, input.seed ?? 1);
  return {
    split,
    candidates,
    skipped,
    bestId: best.id,
    heldOut,
    calls: budget.calls,
    costUsd: budget.costUsd,
    stopped,
  };
}

/** The rubric task's latest version (the baseline), its pipeline, and the criterion aligned with its metric. */
async function rubricTarget(prisma: PrismaClient, projectId: string, input: AlignmentInput) {
  const task = await prisma.rubricTask.findFirst({
    where: { id: input.rubricTaskId, projectId },
    select: { key: true, versions: { orderBy: { number: "desc" }, take: 1, select: { definition: true } } },
  });
  if (!task?.versions[0]) throw new NotFoundError("No such rubric task in this project.");
  const baseline = task.versions[0].definition as unknown as RubricDefinition;
  const criterion = baseline.criteria.find((c) => c.id === input.criterionId);
  if (!criterion) throw new ValidationError(`The rubric has no criterion "${input.criterionId}".`);
  return {
    pipeline: rubricPipelineId(task.key),
    baseline,
    criterion,
    metric: rubricMetricId(task.key, criterion.id),
  };
}

/** What every run of a rubric alignment shares: the task's pipeline and metric, the judge, the items' set, the budget. */
interface RubricRunContext {
  deps: AlignmentDeps;
  actor: Actor;
  projectId: string;
  /** The access its judge runs start with. */
  runs: ProjectAccess<"runs.manage">;
  endpointId: string;
  pipeline: string;
  metric: string;
  perItem: boolean;
  itemSetId: string | null;
  budget: AlignmentBudget;
}

/** One run of the rubric (a candidate's definition, or the task's own), waited for, spent, and its values per unit. */
async function runRubric(
  ctx: RubricRunContext,
  definition: RubricDefinition,
  ids: readonly string[],
  candidate: boolean,
) {
  const { deps, perItem } = ctx;
  const { prisma } = deps;
  if (deps.signal?.aborted) throw new AlignmentCancelled("The alignment was cancelled.");
  // A rubric task's run: the pipeline is the project's own (createRun reads the project's catalogue).
  const run = await createRun({ prisma, queue: deps.queue }, ctx.runs, {
    pipeline: ctx.pipeline,
    endpointId: ctx.endpointId,
    videoIds: [...ids],
    settings: candidate ? { candidateDefinition: definition } : {},
    ...(ctx.itemSetId ? { itemSetId: ctx.itemSetId } : {}),
  });
  await waitForRun(prisma, run.id, deps.signal);
  const spent = await prisma.llmCall.aggregate({
    where: { runId: run.id, cached: false },
    _count: { _all: true },
    _sum: { costUsd: true },
  });
  ctx.budget.spend(spent._count._all, spent._sum.costUsd ?? 0);
  const rows = await prisma.runMetric.findMany({
    where: { runId: run.id, metric: ctx.metric, itemId: perItem ? { not: "" } : "" },
    select: { videoId: true, itemId: true, value: true },
  });
  const values = new Map(rows.map((m) => [unitKey(perItem ? "item" : "video", m.videoId, m.itemId, 0), m.value]));
  return { runId: run.id, values };
}

/**
 * The candidates of a rubric alignment and how one is added: run on train, scored against the train labels, then the
 * threshold tuned on its values.
 */
function rubricCandidates(
  ctx: RubricRunContext,
  criterionId: string,
  truthPositive: (label: number) => boolean,
  train: { ids: readonly string[]; labels: ReadonlyMap<string, number>; units: readonly string[] },
) {
  const candidates: AlignmentCandidate[] = [];
  const agreementOf = (values: ReadonlyMap<string, number>, positive: (v: number) => boolean) => {
    const { truth, predicted } = labelledPairs(values, train.labels, truthPositive, positive, train.units);
    return binaryAgreement(truth, predicted);
  };
  const tuneThreshold = thresholdTuner(criterionId, train.units, candidates, agreementOf);
  const evaluate = async (kind: AlignmentCandidate["kind"], note: string, definition: RubricDefinition) => {
    const run = await runRubric(ctx, definition, train.ids, kind !== "baseline");
    const entry: AlignmentCandidate = {
      id: `c${candidates.length + 1}`,
      kind,
      note,
      definition,
      train: agreementOf(run.values, criterionPositive(definition, criterionId)),
      trainRunId: run.runId,
    };
    candidates.push(entry);
    tuneThreshold(entry, run.values);
    return { candidate: entry, values: run.values };
  };
  // The best so far with k train videos as examples (their frames, the label as the expected answer).
  const fewShotCandidate = async (
    parent: { candidate: AlignmentCandidate },
    criterion: RubricCriterion,
    k: number,
    seed: number,
  ) => {
    const examples = await fewShotExamples(
      ctx.deps.prisma,
      parent.candidate,
      train.labels,
      train.ids,
      criterion,
      truthPositive,
      k,
      seed,
    );
    if (examples.length === 0) return "no train video with frames to show";
    return evaluate("fewshot", `${parent.candidate.id} with ${examples.length} train example(s), frames included`, {
      ...parent.candidate.definition,
      examples,
    });
  };
  return { candidates, evaluate, fewShotCandidate };
}

/**
 * Thresholds tuned on train: a candidate's values binarised at every value the judge gave (no calls), the best
 * that changes some train unit's side and beats the parent added as a "threshold" candidate.
 */
function thresholdTuner(
  criterionId: string,
  trainUnits: readonly string[],
  candidates: AlignmentCandidate[],
  agreementOf: (values: ReadonlyMap<string, number>, positive: (v: number) => boolean) => BinaryAgreement,
) {
  return (parent: AlignmentCandidate, values: ReadonlyMap<string, number>) => {
    const c = parent.definition.criteria.find((x) => x.id === criterionId)!;
    if (c.type !== "numeric") return;
    let best: AlignmentCandidate | null = null;
    const current = criterionPositive(parent.definition, criterionId);
    for (const t of [...new Set(values.values())].sort((a, b) => a - b)) {
      if (t <= c.min || t > c.max) continue;
      const definition = withCriterion(
        parent.definition,
        criterionId,
        (x) => ({ ...x, positiveAtLeast: t }) as RubricCriterion,
      );
      if (trainUnits.every((id) => !values.has(id) || current(values.get(id)!) === values.get(id)! >= t)) continue;
      const train = agreementOf(values, (v) => v >= t);
      if ((train.kappa ?? -2) > (best?.train.kappa ?? parent.train.kappa ?? -2) + 1e-12)
        best = {
          id: "",
          kind: "threshold",
          note: `${parent.id} with positive at ≥ ${t}`,
          definition,
          train,
          trainRunId: parent.trainRunId,
        };
    }
    if (best) candidates.push({ ...best, id: `c${candidates.length + 1}` });
  };
}

/** Waits for a run's videos to finish (pg-boss runs them in the worker; the tests' inline queue already has). */
export async function waitForRun(prisma: PrismaClient, runId: string, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
    if (run.status === "done") return;
    if (run.status === "failed" || run.status === "cancelled")
      throw new ValidationError(`A judge run of the alignment ended ${run.status}.`);
    if (signal?.aborted) {
      await prisma.judgeRun.update({ where: { id: runId }, data: { status: "cancelled" } });
      throw new AlignmentCancelled("The alignment was cancelled.");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const MAX_DISAGREEMENTS = 8;
const FRAMES_PER_EXAMPLE = 2;

/** A label as the judge answers it: the number, true/false, or the categorical label's name. */
function answerOf(criterion: RubricCriterion, label: number): number | boolean | string {
  if (criterion.type === "boolean") return label === 1;
  if (criterion.type === "categorical") return criterion.labels[label]?.label ?? label;
  return label;
}

/**
 * k train videos as few-shot examples, half of each label class where the train split allows (seeded), each with
 * the first frames the candidate's train run sent for it. Only train videos and their (already read) labels.
 */
async function fewShotExamples(
  prisma: PrismaClient,
  candidate: AlignmentCandidate,
  labels: ReadonlyMap<string, number>,
  train: readonly string[],
  criterion: RubricCriterion,
  truthPositive: (v: number) => boolean,
  k: number,
  seed: number,
): Promise<RubricExample[]> {
  const picked = fewShotPick(train, labels, truthPositive, k, seed);
  const examples: RubricExample[] = [];
  for (const videoId of picked) {
    const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { prompt: true } });
    const call = await prisma.llmCall.findFirst({
      where: { runId: candidate.trainRunId, videoId, error: null },
      orderBy: { createdAt: "desc" },
      select: { request: true },
    });
    const frameIds = ((call?.request as { frameIds?: string[] } | null)?.frameIds ?? []).slice(0, FRAMES_PER_EXAMPLE);
    const rows = await prisma.frame.findMany({
      where: { id: { in: frameIds } },
      select: { id: true, frameSetId: true, index: true, timestampS: true, sha256: true },
    });
    const frames = frameIds.flatMap((id) => rows.filter((r) => r.id === id));
    if (frames.length === 0) continue;
    examples.push({
      videoId,
      prompt: (video.prompt ?? "").slice(0, 2000),
      frames,
      answer: { [criterion.id]: answerOf(criterion, labels.get(videoId)!) },
    });
  }
  return examples;
}

async function disagreementsOf(
  prisma: PrismaClient,
  storage: ObjectStorage,
  candidate: AlignmentCandidate,
  values: ReadonlyMap<string, number>,
  labels: ReadonlyMap<string, number>,
  train: readonly string[],
  criterionId: string,
  detail: "low" | "high" | "auto" | null,
): Promise<Disagreement[]> {
  const positive = criterionPositive(candidate.definition, criterionId);
  const ids = train
    .filter((id) => values.has(id) && labels.has(id) && positive(values.get(id)!) !== positive(labels.get(id)!))
    .slice(0, MAX_DISAGREEMENTS);
  // The answer's reasons are keyed by criterion id, which a rubric's author chose: read an own key only.
  const reasonOf = (answer: Record<string, unknown>) => {
    const reasons = answer.reasons;
    return reasons !== null && typeof reasons === "object" && Object.hasOwn(reasons, criterionId)
      ? (reasons as Record<string, unknown>)[criterionId]
      : null;
  };
  const out: Disagreement[] = [];
  for (const unit of ids) {
    const { videoId, itemId } = unitParts(unit);
    const call = { runId: candidate.trainRunId, ...(itemId ? { stepResult: { itemId } } : {}) };
    const judged = { videoId, call, judgeValue: values.get(unit)!, label: labels.get(unit)! };
    out.push(await disagreementOf(prisma, storage, judged, reasonOf, detail));
  }
  return out;
}

/** The one item set the labelled items belong to: an alignment's runs judge the items of one set. */
export async function labelledItemSet(
  prisma: PrismaClient,
  projectId: string,
  itemIds: readonly string[],
): Promise<string> {
  const sets = await prisma.item.findMany({
    where: { projectId, id: { in: [...new Set(itemIds)] } },
    select: { setId: true },
    distinct: ["setId"],
  });
  if (sets.length !== 1)
    throw new ValidationError(
      `The labelled items belong to ${sets.length} item sets: an alignment judges the items of one set.`,
    );
  return sets[0]!.setId;
}
