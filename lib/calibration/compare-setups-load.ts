import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import { labelSetReviewerId, LABEL_SET_REVIEWER_PREFIX } from "../label-sets/label-set-reviewer";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import {
  binariseValue,
  consensusValue,
  PRESENCE_TARGET_TYPE,
  type MetricDeclaration,
  type PositiveRule,
  type TargetDeclaration,
  type TaskDeclaration,
} from "../task-modules/task-declaration";
import { requireWholeView } from "../visibility/withheld";
import { inputModeOf, type InputMode } from "../judge/input-modes";
import type { CompareSetupsQuery } from "./calibration.validation";
import { compareSetups, type RunJudgments, type SetupComparison } from "./compare-setups";
import { templateDiffs, type TemplateDiff } from "./template-diffs";

export type { TemplateDiff };

/**
 * What the setups are compared on: a reviewed metric (the verdict), a per-video target, or a target's per-video
 * presence. `judgmentType` is the human judgments' target type; the judge's yes/no per video comes from the
 * metric's or score's value by its positive rule, or from presence (highest score over the scopes ≥ the declared t).
 */
interface ComparedTarget {
  task: TaskDeclaration;
  id: string;
  label: string;
  kind: "metric" | "score" | "presence";
  judgmentType: string;
  declaration: MetricDeclaration | TargetDeclaration;
  /** What one label and one judge value belong to: a video, or an item (a target scored per item: a rubric over items). */
  unit: "video" | "item";
}

/**
 * What runs of a task can be compared on: its reviewed metrics, its per-video targets and its presence targets; with
 * `perItem`, also its targets scored per item (a rubric over items; not a task whose subject is one run's answer,
 * which two runs do not share).
 */
export function comparableTargets(task: TaskDeclaration, perItem = false): { id: string; label: string }[] {
  return [
    ...task.metrics.filter((m) => m.reviewed).map((m) => ({ id: m.id, label: m.label })),
    ...task.targets
      .filter(
        (t) =>
          t.scope === "video" ||
          (perItem && comparesItems(task) && t.scope === "item") ||
          task.presence?.of.includes(t.id),
      )
      .map((t) => ({ id: t.id, label: task.presence?.of.includes(t.id) ? `${t.label} present` : t.label })),
  ];
}

/** Whether setups of the task can be compared per item: each item is judged the same way by every run. */
function comparesItems(task: TaskDeclaration): boolean {
  return task.subject !== "video" && !task.subjectPerRun;
}

/** The page's "Compare on" choices: what each task of these runs can be compared on, labelled with the task. */
export function compareTargetChoices(
  catalogue: DeclarationCatalogue,
  pipelines: readonly string[],
): { id: string; label: string; task: string }[] {
  return [...new Set(pipelines)].flatMap((pipeline) => {
    const task = catalogue.findTask(pipeline);
    return task ? comparableTargets(task, true).map((t) => ({ ...t, task: task.label })) : [];
  });
}

/** The target `query.target` names in the runs' task (else its verdict, else its only target), or why none fits. */
function comparedTarget(task: TaskDeclaration, requested: string | undefined): ComparedTarget {
  const id = requested ?? task.verdict?.metricId ?? (task.targets.length === 1 ? task.targets[0]!.id : undefined);
  const choices = () =>
    comparableTargets(task, true)
      .map((t) => t.id)
      .join(", ");
  if (!id)
    throw new ValidationError(`Name the target to compare ${task.label} runs on (target=): one of ${choices()}.`);
  const metric = task.metrics.find((m) => m.id === id && m.reviewed);
  if (metric)
    return { task, id, label: metric.label, kind: "metric", judgmentType: id, declaration: metric, unit: "video" };
  const target = task.targets.find((t) => t.id === id);
  if (target && task.presence?.of.includes(id))
    return {
      task,
      id,
      label: `${target.label} present`,
      kind: "presence",
      judgmentType: PRESENCE_TARGET_TYPE,
      declaration: target,
      unit: "video",
    };
  if (target && target.scope === "video")
    return { task, id, label: target.label, kind: "score", judgmentType: "score", declaration: target, unit: "video" };
  // A target scored per item (a rubric over items): each item is one labelled unit, compared with the judge's value of that item.
  if (target && target.scope === "item" && comparesItems(task))
    return { task, id, label: target.label, kind: "score", judgmentType: "score", declaration: target, unit: "item" };
  if (target)
    throw new ValidationError(
      `${target.label} (${id}) is scored per ${target.scope.replace("_", " ")} with no presence rule: setups are compared per video. Compare on one of ${choices()}.`,
    );
  throw new ValidationError(`The task ${task.label} has no target "${id}" to compare on: one of ${choices()}.`);
}

/** A value's side of the comparison: positive or not, and graded so that higher is more positive (the threshold sweep's). */
function positiveOf(rule: PositiveRule, value: number): { positive: boolean; graded: number } {
  const positive = binariseValue(rule, value) === 1;
  if (rule.op === ">=") return { positive, graded: value };
  if (rule.op === "<") return { positive, graded: -value };
  return { positive, graded: positive ? 1 : 0 };
}

export interface RunSetup {
  /** The setup's id: the run's id, or `<runId>:expected` for its logprob-weighted scores. */
  id: string;
  runId: string;
  /** Which of the run's scores the setup reads: the judge's answers (argmax), or the logprob-weighted ones. */
  scores: "argmax" | "expected";
  createdAt: Date;
  endpoint: string;
  model: string;
  /** How the run showed each video to the judge: pictures, the frames as one video, or the clip. */
  inputMode: InputMode;
  /** Generation parameters from the endpoint snapshot (temperature, image detail, …). */
  parameters: Record<string, unknown>;
  aggregation: string | null;
  verdict: string | null;
  /** Per step: its template id and the template hashes its results were made with. */
  templates: Record<string, { templateId: string; hashes: string[] }>;
  /** The frame-set settings of the run's videos (mode and parameters), each distinct one once. */
  frameSets: string[];
  /**
   * The calls' cost, tokens, count and latency: the run's, and for an ensemble run (samples or a panel, which calls
   * nothing itself) its members' summed. Null when some call was answered without `usage` (its tokens and cost are
   * unknown); `callsWithoutUsage` says how many.
   */
  costUsd: number | null;
  tokens: { prompt: number | null; completion: number | null };
  calls: number;
  callsWithoutUsage: number;
  /** Wall time from start to finish, and the summed latency of the calls. */
  wallSeconds: number | null;
  latencySeconds: number;
  parseFailures: number;
  failedSteps: number;
}

export interface CompareSetupsReport {
  /** The labels the setups are compared with: a label set's annotator, the live reviewers' consensus, or the adjudicated gold values. */
  reference:
    | { kind: "label_set"; id: string; name: string; annotator: string | null }
    | { kind: "consensus" }
    | { kind: "gold" };
  /**
   * The runs' task and what they are compared on (the verdict, a per-video target, or a target's presence); `per:
   * "item"` when the target is scored per item: `comparison.videoIds` then holds item ids, one unit per item.
   */
  compared: { task: string; target: string; label: string; kind: "metric" | "score" | "presence"; per?: "item" };
  runs: RunSetup[];
  /** Which settings differ between the runs. */
  differs: {
    endpoint: boolean;
    model: boolean;
    inputMode: boolean;
    parameters: boolean;
    templates: string[];
    frameSets: boolean;
    aggregation: boolean;
    verdict: boolean;
  };
  templateDiffs: TemplateDiff[];
  comparison: SetupComparison;
  bootstrap: { iterations: number; seed: number };
}

const json = (v: unknown) => JSON.stringify(v, Object.keys((v ?? {}) as object).sort());

/** A human label of the compared target as yes/no (a presence label is 1 or 0). */
function humanPositive(compared: ComparedTarget, value: number): boolean {
  return compared.kind === "presence" ? value === 1 : binariseValue(compared.declaration.positive, value) === 1;
}

/** The unit a label or a judge value belongs to: its video, or its item for a target scored per item. */
function unitOf(compared: ComparedTarget, row: { videoId: string; itemId: string }): string {
  return compared.unit === "item" ? row.itemId : row.videoId;
}

/** One label per unit (video or item) from several values (reviewers', or gold of several scopes): their consensus at the target's level, ties left out. */
function labelsByVideo(
  compared: ComparedTarget,
  rows: readonly { videoId: string; itemId: string; value: number }[],
): Map<string, boolean> {
  const byVideo = new Map<string, number[]>();
  for (const row of rows) {
    const unit = unitOf(compared, row);
    byVideo.set(unit, [...(byVideo.get(unit) ?? []), row.value]);
  }
  const labels = new Map<string, boolean>();
  const level = compared.kind === "presence" ? "nominal" : compared.declaration.level;
  for (const [videoId, values] of byVideo) {
    const value = consensusValue(level, values);
    if (value !== null) labels.set(videoId, humanPositive(compared, value));
  }
  return labels;
}

async function referenceLabels(
  prisma: PrismaClient,
  projectId: string,
  query: CompareSetupsQuery,
  compared: ComparedTarget,
) {
  const target = {
    task: compared.task.id,
    targetType: compared.judgmentType,
    ...(compared.kind === "metric" ? {} : { target: compared.id }),
    itemId: compared.unit === "item" ? { not: "" } : "",
  };
  const judged = { ...target, withdrawn: false };
  if (query.reference === "gold") {
    // The owners' adjudicated values of the task's target (lib/adjudication): gold is keyed by what was judged, so
    // it holds for every run; a video with gold on several scopes (frame sets) takes their consensus.
    const rows = await prisma.goldJudgment.findMany({
      where: { projectId, ...target },
      select: { videoId: true, itemId: true, value: true },
    });
    return { reference: { kind: "gold" as const }, labels: labelsByVideo(compared, rows) };
  }
  if (query.reference === "consensus") {
    // Live reviewers only (no label set), independent of the judge (accepted judge values are left out, as in agreement).
    const rows = await prisma.humanJudgment.findMany({
      where: {
        projectId,
        ...judged,
        acceptedJudge: false,
        labelSetId: null,
        NOT: { reviewerId: { startsWith: LABEL_SET_REVIEWER_PREFIX } },
      },
      select: { videoId: true, itemId: true, value: true },
    });
    return { reference: { kind: "consensus" as const }, labels: labelsByVideo(compared, rows) };
  }
  const labelSet = await prisma.labelSet.findFirst({ where: { id: query.labelSetId!, projectId } });
  if (!labelSet) throw new NotFoundError("No such label set in this project.");
  let annotator: string | null = null;
  if (labelSet.annotators.length > 0) {
    annotator = query.annotator ?? labelSet.annotators[0]!;
    if (!labelSet.annotators.includes(annotator))
      throw new ValidationError(
        `The label set has no annotator "${annotator}"; it has ${labelSet.annotators.join(", ")}.`,
      );
  } else if (query.annotator) {
    throw new ValidationError("This label set is one annotator: leave `annotator` out.");
  }
  const rows = await prisma.humanJudgment.findMany({
    where: { labelSetId: labelSet.id, reviewerId: labelSetReviewerId(labelSet.id, annotator), ...judged },
    select: { videoId: true, itemId: true, value: true },
  });
  return {
    reference: { kind: "label_set" as const, id: labelSet.id, name: labelSet.name, annotator },
    labels: new Map(rows.map((r) => [unitOf(compared, r), humanPositive(compared, r.value)])),
  };
}

/**
 * Each run's yes/no and graded value per labelled video. A task's verdict that sweeps its worst target
 * (hallucination) is graded by the video's highest score, as its verdict threshold applies to the scores.
 */
async function runJudgments(
  prisma: PrismaClient,
  runId: string,
  labelled: string[],
  compared: ComparedTarget,
): Promise<RunJudgments> {
  if (compared.kind === "metric") {
    const [values, worst] = await Promise.all([
      prisma.runMetric.findMany({
        where: { runId, videoId: { in: labelled }, itemId: "", metric: compared.id },
        select: { videoId: true, value: true },
      }),
      compared.task.verdict?.metricId === compared.id && compared.task.sweepWorstTarget
        ? prisma.score.groupBy({
            by: ["videoId"],
            where: { runId, videoId: { in: labelled }, itemId: "" },
            _max: { value: true },
          })
        : Promise.resolve(null),
    ]);
    const judged = values.flatMap((v) =>
      v.value === null ? [] : [{ videoId: v.videoId, ...positiveOf(compared.declaration.positive, v.value) }],
    );
    return {
      runId,
      verdict: new Map(judged.map((v) => [v.videoId, v.positive])),
      graded: worst
        ? new Map(worst.flatMap((w) => (w._max.value === null ? [] : [[w.videoId, w._max.value] as const])))
        : new Map(judged.map((v) => [v.videoId, v.graded])),
    };
  }
  if (compared.kind === "presence") {
    // The judge's presence: its highest score of the target over the video's scopes reaching the declared t.
    const worst = await prisma.score.groupBy({
      by: ["videoId"],
      where: { runId, videoId: { in: labelled }, itemId: "", category: compared.id },
      _max: { value: true },
    });
    const threshold = compared.task.presence!.defaultThreshold;
    const graded = new Map(worst.flatMap((w) => (w._max.value === null ? [] : [[w.videoId, w._max.value] as const])));
    return { runId, verdict: new Map([...graded].map(([videoId, value]) => [videoId, value >= threshold])), graded };
  }
  // Per item: the item's one score of the target (its scopeIndex is its position among its video's items).
  const scores = await prisma.score.findMany({
    where: {
      runId,
      category: compared.id,
      ...(compared.unit === "item"
        ? { itemId: { in: labelled } }
        : { videoId: { in: labelled }, itemId: "", scopeIndex: 0 }),
    },
    select: { videoId: true, itemId: true, value: true },
  });
  const judged = scores.map((s) => ({
    videoId: unitOf(compared, s),
    ...positiveOf(compared.declaration.positive, s.value),
  }));
  return {
    runId,
    verdict: new Map(judged.map((v) => [v.videoId, v.positive])),
    graded: new Map(judged.map((v) => [v.videoId, v.graded])),
  };
}

/** A run the setups compare: its row with its endpoint, as the setup's id names it (`:expected` for expected scores). */
type ComparedRun = Prisma.JudgeRunGetPayload<{ include: { endpoint: { select: { name: true; model: true } } } }> & {
  setupId: string;
  expected: boolean;
};

/**
 * One setup's judgments of the labelled videos and what it is: endpoint, model, parameters, settings, templates,
 * frame sets, calls, tokens, cost and time (`callers`: the run and its ensemble members, whose calls it paid for).
 */
async function setupOfRun(
  prisma: PrismaClient,
  run: ComparedRun,
  callers: string[],
  labelled: string[],
  compared: ComparedTarget,
  setupSettingsOf: (settings: unknown) => { aggregation: string | null; verdict: string | null },
): Promise<{ judgments: RunJudgments; setup: RunSetup }> {
  // Parse failures and failed steps are the members' (the parent's step rows are combined from theirs).
  const stepRuns = callers.length > 1 ? callers.slice(1) : callers;
  const [judged, steps, calls, stepStatus, frameSets, withoutUsage] = await Promise.all([
    runJudgments(prisma, run.id, labelled, compared),
    prisma.stepResult.groupBy({
      by: ["stepId", "templateId", "templateHash"],
      where: { runId: run.id },
      _count: { _all: true },
    }),
    prisma.llmCall.aggregate({
      where: { runId: { in: callers } },
      _sum: { promptTokens: true, completionTokens: true, costUsd: true, latencyMs: true },
      _count: { _all: true },
    }),
    prisma.stepResult.groupBy({
      by: ["status"],
      where: { runId: { in: stepRuns }, status: { in: ["parse_failed", "failed"] } },
      _count: { _all: true },
    }),
    prisma.$queryRaw<{ mode: string; parameters: unknown }[]>`
      SELECT DISTINCT fs.mode, fs.parameters FROM run_video rv JOIN frame_set fs ON fs.id = rv."frameSetId" WHERE rv."runId" = ${run.id}`,
    prisma.llmCall.count({ where: { runId: { in: callers }, usageKnown: false } }),
  ]);
  const judgments: RunJudgments = run.expected
    ? { runId: run.setupId, ...(await expectedJudgments(prisma, run.id, labelled, compared, judged)) }
    : { ...judged, runId: run.setupId };
  const snapshot = (run.endpointSnapshot ?? {}) as Record<string, unknown>;
  const { name, model, ...parameters } = snapshot;
  const settings = setupSettingsOf(run.settings);
  const templates: RunSetup["templates"] = {};
  for (const s of steps) {
    const t = (templates[s.stepId] ??= { templateId: s.templateId, hashes: [] });
    if (s.templateHash && !t.hashes.includes(s.templateHash)) t.hashes.push(s.templateHash);
  }
  for (const t of Object.values(templates)) t.hashes.sort();
  const status = Object.fromEntries(stepStatus.map((s) => [s.status, s._count._all]));
  const setup: RunSetup = {
    id: run.setupId,
    runId: run.id,
    scores: run.expected ? "expected" : "argmax",
    createdAt: run.createdAt,
    endpoint: typeof name === "string" ? name : run.endpoint.name,
    model: typeof model === "string" ? model : run.endpoint.model,
    inputMode: inputModeOf(run.inputMode),
    parameters,
    aggregation: settings.aggregation,
    verdict: settings.verdict,
    templates,
    frameSets: frameSets.map((f) => `${f.mode} ${json(f.parameters)}`).sort(),
    costUsd: withoutUsage > 0 ? null : (calls._sum.costUsd ?? 0),
    tokens:
      withoutUsage > 0
        ? { prompt: null, completion: null }
        : { prompt: calls._sum.promptTokens ?? 0, completion: calls._sum.completionTokens ?? 0 },
    calls: calls._count._all,
    callsWithoutUsage: withoutUsage,
    wallSeconds: run.startedAt && run.finishedAt ? (run.finishedAt.getTime() - run.startedAt.getTime()) / 1000 : null,
    latencySeconds: (calls._sum.latencyMs ?? 0) / 1000,
    parseFailures: status.parse_failed ?? 0,
    failedSteps: status.failed ?? 0,
  };
  return { judgments, setup };
}

/**
 * The runs compared, one per setup id in the order asked (`<runId>:expected` is the run's expected-score setup),
 * every one of them the project's.
 */
async function comparedRuns(prisma: PrismaClient, projectId: string, setupIds: string[]) {
  const wanted = setupIds.map((setupId) => ({
    setupId,
    runId: setupId.replace(/:expected$/, ""),
    expected: setupId.endsWith(":expected"),
  }));
  const runIds = [...new Set(wanted.map((w) => w.runId))];
  const runs = await prisma.judgeRun.findMany({
    where: { id: { in: runIds }, projectId },
    include: { endpoint: { select: { name: true, model: true } } },
  });
  const missing = runIds.filter((id) => !runs.some((r) => r.id === id));
  if (missing.length) throw new NotFoundError(`No run ${missing.join(", ")} in this project.`);
  const ordered = wanted.map((w) => ({
    ...runs.find((r) => r.id === w.runId)!,
    setupId: w.setupId,
    expected: w.expected,
  }));
  return { runIds, ordered };
}

/**
 * The runs whose calls each setup paid for: the run and its ensemble members (an ensemble run, self-consistency
 * samples or a judge panel, calls no endpoint itself: its members make the calls).
 */
async function callRunIdsOf(
  prisma: PrismaClient,
  runIds: string[],
  ordered: { id: string; setupId: string }[],
): Promise<Map<string, string[]>> {
  const members = await prisma.judgeRun.findMany({
    where: { parentRunId: { in: runIds } },
    select: { id: true, parentRunId: true },
  });
  const membersOf = (runId: string) => members.filter((m) => m.parentRunId === runId).map((m) => m.id);
  return new Map(ordered.map((run) => [run.setupId, [run.id, ...membersOf(run.id)]]));
}

/** Where the setups differ: each setting whether any two differ, and the steps whose templates do. */
function setupDifferences(setups: RunSetup[]) {
  const distinct = (f: (s: RunSetup) => unknown) => new Set(setups.map((s) => JSON.stringify(f(s)))).size > 1;
  const stepIds = [...new Set(setups.flatMap((s) => Object.keys(s.templates)))].sort();
  return {
    endpoint: distinct((s) => s.endpoint),
    model: distinct((s) => s.model),
    inputMode: distinct((s) => s.inputMode),
    parameters: distinct((s) => json(s.parameters)),
    templates: stepIds.filter((step) => distinct((s) => s.templates[step]?.hashes ?? [])),
    frameSets: distinct((s) => s.frameSets),
    aggregation: distinct((s) => s.aggregation),
    verdict: distinct((s) => s.verdict),
  };
}

export async function compareSetupsReport(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  query: CompareSetupsQuery,
  given?: TaskCatalogue,
): Promise<CompareSetupsReport> {
  const { actor, projectId } = access;
  const { runIds, ordered } = await comparedRuns(prisma, projectId, query.runIds);
  const other = ordered.find((r) => r.pipeline !== ordered[0]!.pipeline);
  if (other)
    throw new ValidationError(
      `Setups are compared on runs of one task; run ${other.id} is a "${other.pipeline}" run, run ${ordered[0]!.id} a "${ordered[0]!.pipeline}" run.`,
    );
  const catalogue = await catalogueOf(prisma, projectId, given);
  const task = catalogue.findTask(ordered[0]!.pipeline);
  if (!task)
    throw new ValidationError(`The runs' task "${ordered[0]!.pipeline}" is not known to this version of FrameJury.`);
  const compared = comparedTarget(task, query.target);
  // The task's module names its runs' settings (their aggregation and verdict rule).
  const taskModule = catalogue.modules.find((m) => m.pipelines.some((p) => p.id === task.id));
  const setupSettingsOf = (settings: unknown) =>
    taskModule?.setupSettings?.(settings) ?? { aggregation: null, verdict: null };
  const { reference, labels } = await referenceLabels(prisma, projectId, query, compared);
  // Computed from every labelled video (an item's video, per item), or withheld while the caller reviews one blind.
  const videoOfItem =
    compared.unit === "item"
      ? new Map(
          (
            await prisma.item.findMany({
              where: { projectId, id: { in: [...labels.keys()] } },
              select: { id: true, videoId: true },
            })
          ).map((i) => [i.id, i.videoId]),
        )
      : null;
  await requireWholeView(
    prisma,
    actor.userId,
    videoOfItem ? [...new Set(videoOfItem.values())] : [...labels.keys()],
    "This comparison of judge setups",
  );
  const labelled = [...labels.keys()];

  const callRunIds = await callRunIdsOf(prisma, runIds, ordered);

  const judgments: RunJudgments[] = [];
  const setups: RunSetup[] = [];
  for (const run of ordered) {
    const read = await setupOfRun(prisma, run, callRunIds.get(run.setupId)!, labelled, compared, setupSettingsOf);
    judgments.push(read.judgments);
    setups.push(read.setup);
  }
  const bootstrap = { iterations: query.iterations ?? 1000, seed: query.seed ?? 1 };
  const comparison = compareSetups(labels, judgments, bootstrap);
  const differs = setupDifferences(setups);
  return {
    reference,
    compared: {
      task: task.id,
      target: compared.id,
      label: compared.label,
      kind: compared.kind,
      ...(compared.unit === "item" ? { per: "item" as const } : {}),
    },
    runs: setups,
    differs,
    templateDiffs: await templateDiffs(
      prisma,
      setups,
      callRunIds,
      differs.templates,
      videoOfItem ? (videoOfItem.get(comparison.videoIds[0] ?? "") ?? null) : (comparison.videoIds[0] ?? null),
    ),
    comparison,
    bootstrap,
  };
}

/**
 * A run's judgments read from its logprob-weighted scores of the compared target (videos where one of those
 * scores has none are left out, so they drop from the comparison). A target's score or presence takes the
 * same rule as the argmax values; a verdict that sweeps the worst score is graded by the video's worst
 * expected score, and its verdict is "graded ≥ t" with t the threshold that best reproduces the run's own
 * verdicts from its argmax scores (fitted on the run alone, never on the reference labels).
 */
async function expectedJudgments(
  prisma: PrismaClient,
  runId: string,
  videoIds: string[],
  compared: ComparedTarget,
  argmax: RunJudgments,
) {
  if (
    compared.kind === "metric" &&
    !(compared.task.verdict?.metricId === compared.id && compared.task.sweepWorstTarget)
  ) {
    throw new ValidationError(
      `${compared.label} is not a score: expected (logprob-weighted) scores compare on a target's scores or on a verdict read from the worst score.`,
    );
  }
  const ofTarget = compared.kind === "metric" ? Prisma.empty : Prisma.sql`AND category = ${compared.id}`;
  const ofScope =
    compared.kind === "score" && compared.unit === "video" ? Prisma.sql`AND "scopeIndex" = 0` : Prisma.empty;
  // Per item, the units are items (one score each); per video, the video's scores outside any item.
  const unit = compared.unit === "item" ? Prisma.sql`"itemId"` : Prisma.sql`"videoId"`;
  const ofUnit =
    compared.unit === "item"
      ? Prisma.sql`"itemId" = ANY(${videoIds}::text[])`
      : Prisma.sql`"itemId" = '' AND "videoId" = ANY(${videoIds}::text[])`;
  const rows = await prisma.$queryRaw<{ videoId: string; graded: number | null; whole: boolean }[]>`
    SELECT ${unit} AS "videoId", max(expected) AS graded, bool_and(expected IS NOT NULL) AS whole
    FROM score WHERE "runId" = ${runId} AND ${ofUnit} ${ofTarget} ${ofScope} GROUP BY ${unit}`;
  const expected = new Map(rows.flatMap((r) => (r.whole && r.graded !== null ? [[r.videoId, r.graded] as const] : [])));
  if (expected.size === 0 && rows.length > 0) {
    throw new ValidationError(
      `Run ${runId} has no logprob-weighted scores: its endpoint did not request logprobs, or the answers carried none.`,
    );
  }
  if (compared.kind === "presence") {
    const threshold = compared.task.presence!.defaultThreshold;
    return { graded: expected, verdict: new Map([...expected].map(([id, g]) => [id, g >= threshold])) };
  }
  if (compared.kind === "score") {
    const judged = [...expected].map(([videoId, value]) => ({
      videoId,
      ...positiveOf(compared.declaration.positive, value),
    }));
    return {
      graded: new Map(judged.map((v) => [v.videoId, v.graded])),
      verdict: new Map(judged.map((v) => [v.videoId, v.positive])),
    };
  }
  const judged = [...argmax.graded.keys()].filter((id) => argmax.verdict.has(id));
  const thresholds = [...new Set(judged.map((id) => argmax.graded.get(id)!))].sort((a, b) => a - b);
  thresholds.push((thresholds.at(-1) ?? 0) + 1);
  let best = { threshold: thresholds[0]!, agree: -1 };
  for (const t of thresholds) {
    const agree = judged.filter((id) => argmax.graded.get(id)! >= t === argmax.verdict.get(id)).length;
    if (agree > best.agree) best = { threshold: t, agree };
  }
  return { graded: expected, verdict: new Map([...expected].map(([id, g]) => [id, g >= best.threshold])) };
}
