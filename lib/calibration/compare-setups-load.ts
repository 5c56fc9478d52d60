import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import { createTemplateStore } from "../judge/prompt-templates";
import { labelSetReviewerId, LABEL_SET_REVIEWER_PREFIX } from "../label-sets/label-set-reviewer";
import { TASK_MODULES } from "../tasks/modules";
import { findTask } from "../tasks/registry";
import { consensusValue, type TaskDeclaration } from "../tasks/task-declaration";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import type { CompareSetupsQuery } from "./calibration.validation";
import { compareSetups, type RunJudgments, type SetupComparison } from "./compare-setups";
import { lineDiff, type DiffLine } from "./line-diff";

export interface RunSetup {
  /** The setup's id: the run's id, or `<runId>:expected` for its logprob-weighted scores. */
  id: string;
  runId: string;
  /** Which of the run's scores the setup reads: the judge's answers (argmax), or the logprob-weighted ones. */
  scores: "argmax" | "expected";
  createdAt: Date;
  endpoint: string;
  model: string;
  /** Generation parameters from the endpoint snapshot (temperature, image detail, …). */
  parameters: Record<string, unknown>;
  aggregation: string | null;
  verdict: string | null;
  /** Per step: its template id and the template hashes its results were made with. */
  templates: Record<string, { templateId: string; hashes: string[] }>;
  /** The frame-set settings of the run's videos (mode and parameters), each distinct one once. */
  frameSets: string[];
  /** Null when some call was answered without `usage` (its tokens and cost are unknown); `callsWithoutUsage` says how many. */
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

export interface TemplateDiff {
  stepId: string;
  /** The first run's text and, for each other run whose hash differs, the diff from it. */
  base: { runId: string; hash: string | null; source: string };
  others: { runId: string; hash: string | null; source: string; diff: DiffLine[] }[];
}

export interface CompareSetupsReport {
  reference: { kind: "label_set"; id: string; name: string; annotator: string | null } | { kind: "consensus" };
  runs: RunSetup[];
  /** Which settings differ between the runs. */
  differs: { endpoint: boolean; model: boolean; parameters: boolean; templates: string[]; frameSets: boolean; aggregation: boolean; verdict: boolean };
  templateDiffs: TemplateDiff[];
  comparison: SetupComparison;
  bootstrap: { iterations: number; seed: number };
}

const json = (v: unknown) => JSON.stringify(v, Object.keys((v ?? {}) as object).sort());

/** The task whose runs are compared (declared by the registry): one whose subject is the video and that has a yes/no verdict. */
function verdictTaskOf(runs: readonly { id: string; pipeline: string }[]): { task: TaskDeclaration; verdictId: string } {
  const first = runs[0]!;
  const task = findTask(first.pipeline);
  if (!task?.verdict || task.subject !== "video") throw new ValidationError(`Setups are compared on runs whose task gives each video a verdict; run ${first.id} is a "${first.pipeline}" run.`);
  const other = runs.find((r) => r.pipeline !== task.id);
  if (other) throw new ValidationError(`Setups are compared on ${task.id} runs; run ${other.id} is a "${other.pipeline}" run.`);
  return { task, verdictId: task.verdict.metricId };
}

async function referenceLabels(prisma: PrismaClient, projectId: string, query: CompareSetupsQuery, { task, verdictId }: { task: TaskDeclaration; verdictId: string }) {
  if (query.reference === "consensus") {
    // Live reviewers only (no label set), independent of the judge (accepted judge values are left out, as in agreement).
    const rows = await prisma.humanJudgment.findMany({
      where: { projectId, task: task.id, targetType: verdictId, itemId: "", withdrawn: false, acceptedJudge: false, labelSetId: null, NOT: { reviewerId: { startsWith: LABEL_SET_REVIEWER_PREFIX } } },
      select: { videoId: true, value: true },
    });
    const byVideo = new Map<string, number[]>();
    for (const r of rows) byVideo.set(r.videoId, [...(byVideo.get(r.videoId) ?? []), r.value]);
    const labels = new Map<string, boolean>();
    for (const [videoId, values] of byVideo) {
      const value = consensusValue("nominal", values);
      if (value !== null) labels.set(videoId, value === 1);
    }
    return { reference: { kind: "consensus" as const }, labels };
  }
  const labelSet = await prisma.labelSet.findFirst({ where: { id: query.labelSetId!, projectId } });
  if (!labelSet) throw new NotFoundError("No such label set in this project.");
  let annotator: string | null = null;
  if (labelSet.annotators.length > 0) {
    annotator = query.annotator ?? labelSet.annotators[0]!;
    if (!labelSet.annotators.includes(annotator)) throw new ValidationError(`The label set has no annotator "${annotator}"; it has ${labelSet.annotators.join(", ")}.`);
  } else if (query.annotator) {
    throw new ValidationError("This label set is one annotator: leave `annotator` out.");
  }
  const rows = await prisma.humanJudgment.findMany({
    where: { labelSetId: labelSet.id, reviewerId: labelSetReviewerId(labelSet.id, annotator), task: task.id, targetType: verdictId, itemId: "", withdrawn: false },
    select: { videoId: true, value: true },
  });
  return { reference: { kind: "label_set" as const, id: labelSet.id, name: labelSet.name, annotator }, labels: new Map(rows.map((r) => [r.videoId, r.value === 1])) };
}

export async function compareSetupsReport(prisma: PrismaClient, actor: Actor, projectId: string, query: CompareSetupsQuery): Promise<CompareSetupsReport> {
  await requireProjectAccess(prisma, actor, projectId, "export.read");
  const wanted = query.runIds.map((setupId) => ({ setupId, runId: setupId.replace(/:expected$/, ""), expected: setupId.endsWith(":expected") }));
  const runIds = [...new Set(wanted.map((w) => w.runId))];
  const runs = await prisma.judgeRun.findMany({ where: { id: { in: runIds }, projectId }, include: { endpoint: { select: { name: true, model: true } } } });
  const missing = runIds.filter((id) => !runs.some((r) => r.id === id));
  if (missing.length) throw new NotFoundError(`No run ${missing.join(", ")} in this project.`);
  const ordered = wanted.map((w) => ({ ...runs.find((r) => r.id === w.runId)!, setupId: w.setupId, expected: w.expected }));
  const verdictTask = verdictTaskOf(ordered);
  // The task's module names its runs' settings (their aggregation and verdict rule).
  const taskModule = TASK_MODULES.find((m) => m.pipelines.some((p) => p.id === verdictTask.task.id));
  const setupSettingsOf = (settings: unknown) => taskModule?.setupSettings?.(settings) ?? { aggregation: null, verdict: null };
  const { reference, labels } = await referenceLabels(prisma, projectId, query, verdictTask);
  const hidden = await blindVideoIdsFor(prisma, actor.userId, [...labels.keys()]);
  for (const id of hidden) labels.delete(id);
  const labelled = [...labels.keys()];

  const judgments: RunJudgments[] = [];
  const setups: RunSetup[] = [];
  for (const run of ordered) {
    const [verdicts, worst, steps, calls, stepStatus, frameSets, withoutUsage] = await Promise.all([
      prisma.runMetric.findMany({ where: { runId: run.id, videoId: { in: labelled }, itemId: "", metric: verdictTask.verdictId }, select: { videoId: true, value: true } }),
      prisma.score.groupBy({ by: ["videoId"], where: { runId: run.id, videoId: { in: labelled }, itemId: "" }, _max: { value: true } }),
      prisma.stepResult.groupBy({ by: ["stepId", "templateId", "templateHash"], where: { runId: run.id }, _count: { _all: true } }),
      prisma.llmCall.aggregate({ where: { runId: run.id }, _sum: { promptTokens: true, completionTokens: true, costUsd: true, latencyMs: true }, _count: { _all: true } }),
      prisma.stepResult.groupBy({ by: ["status"], where: { runId: run.id, status: { in: ["parse_failed", "failed"] } }, _count: { _all: true } }),
      prisma.$queryRaw<{ mode: string; parameters: unknown }[]>`
        SELECT DISTINCT fs.mode, fs.parameters FROM run_video rv JOIN frame_set fs ON fs.id = rv."frameSetId" WHERE rv."runId" = ${run.id}`,
      prisma.llmCall.count({ where: { runId: run.id, usageKnown: false } }),
    ]);
    const verdict = new Map(verdicts.map((v) => [v.videoId, v.value === 1]));
    const graded = new Map(worst.flatMap((w) => (w._max.value === null ? [] : [[w.videoId, w._max.value] as const])));
    judgments.push(run.expected ? { runId: run.setupId, ...(await expectedJudgments(prisma, run.id, labelled, verdict, graded)) } : { runId: run.setupId, verdict, graded });
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
    setups.push({
      id: run.setupId,
      runId: run.id,
      scores: run.expected ? "expected" : "argmax",
      createdAt: run.createdAt,
      endpoint: typeof name === "string" ? name : run.endpoint.name,
      model: typeof model === "string" ? model : run.endpoint.model,
      parameters,
      aggregation: settings.aggregation,
      verdict: settings.verdict,
      templates,
      frameSets: frameSets.map((f) => `${f.mode} ${json(f.parameters)}`).sort(),
      costUsd: withoutUsage > 0 ? null : (calls._sum.costUsd ?? 0),
      tokens: withoutUsage > 0 ? { prompt: null, completion: null } : { prompt: calls._sum.promptTokens ?? 0, completion: calls._sum.completionTokens ?? 0 },
      calls: calls._count._all,
      callsWithoutUsage: withoutUsage,
      wallSeconds: run.startedAt && run.finishedAt ? (run.finishedAt.getTime() - run.startedAt.getTime()) / 1000 : null,
      latencySeconds: (calls._sum.latencyMs ?? 0) / 1000,
      parseFailures: status.parse_failed ?? 0,
      failedSteps: status.failed ?? 0,
    });
  }
  const bootstrap = { iterations: query.iterations ?? 1000, seed: query.seed ?? 1 };
  const comparison = compareSetups(labels, judgments, bootstrap);
  const distinct = (f: (s: RunSetup) => unknown) => new Set(setups.map((s) => JSON.stringify(f(s)))).size > 1;
  const stepIds = [...new Set(setups.flatMap((s) => Object.keys(s.templates)))].sort();
  const differingSteps = stepIds.filter((step) => distinct((s) => s.templates[step]?.hashes ?? []));
  return {
    reference,
    runs: setups,
    differs: {
      endpoint: distinct((s) => s.endpoint),
      model: distinct((s) => s.model),
      parameters: distinct((s) => json(s.parameters)),
      templates: differingSteps,
      frameSets: distinct((s) => s.frameSets),
      aggregation: distinct((s) => s.aggregation),
      verdict: distinct((s) => s.verdict),
    },
    templateDiffs: await templateDiffs(prisma, setups, differingSteps, comparison.videoIds[0] ?? null),
    comparison,
    bootstrap,
  };
}

/**
 * A run's judgments read from its logprob-weighted scores: the graded score is the video's worst
 * expected score (videos where any score has none are left out, so they drop from the comparison);
 * the verdict is "graded ≥ t" with t the threshold that best reproduces the run's own verdicts from its
 * argmax scores (fitted on the run alone, never on the reference labels).
 */
async function expectedJudgments(prisma: PrismaClient, runId: string, videoIds: string[], verdict: ReadonlyMap<string, boolean>, argmaxGraded: ReadonlyMap<string, number>) {
  const rows = await prisma.$queryRaw<{ videoId: string; graded: number | null; whole: boolean }[]>`
    SELECT "videoId", max(expected) AS graded, bool_and(expected IS NOT NULL) AS whole
    FROM score WHERE "runId" = ${runId} AND "itemId" = '' AND "videoId" = ANY(${videoIds}::text[]) GROUP BY "videoId"`;
  const graded = new Map(rows.flatMap((r) => (r.whole && r.graded !== null ? [[r.videoId, r.graded] as const] : [])));
  if (graded.size === 0 && rows.length > 0) {
    throw new ValidationError(`Run ${runId} has no logprob-weighted scores: its endpoint did not request logprobs, or the answers carried none.`);
  }
  const judged = [...argmaxGraded.keys()].filter((id) => verdict.has(id));
  const thresholds = [...new Set(judged.map((id) => argmaxGraded.get(id)!))].sort((a, b) => a - b);
  thresholds.push((thresholds.at(-1) ?? 0) + 1);
  let best = { threshold: thresholds[0]!, agree: -1 };
  for (const t of thresholds) {
    const agree = judged.filter((id) => argmaxGraded.get(id)! >= t === verdict.get(id)).length;
    if (agree > best.agree) best = { threshold: t, agree };
  }
  return { graded, verdict: new Map([...graded].map(([id, g]) => [id, g >= best.threshold])) };
}

/**
 * The texts behind differing template hashes: the shipped template when its hash is the run's, else the
 * prompt the run actually sent for that step (on the first compared video, where the runs' inputs are
 * the same, so what differs is the template).
 */
async function templateDiffs(prisma: PrismaClient, setups: readonly RunSetup[], stepIds: readonly string[], videoId: string | null): Promise<TemplateDiff[]> {
  const store = createTemplateStore();
  const textOf = async (setup: RunSetup, stepId: string): Promise<{ hash: string | null; source: string; text: string }> => {
    const t = setup.templates[stepId];
    const hash = t?.hashes[0] ?? null;
    if (t && hash) {
      try {
        const shipped = store.get(t.templateId);
        if (shipped.hash === hash) return { hash, source: `prompts/${t.templateId}.md (shipped)`, text: shipped.raw };
      } catch {
        // Not a shipped template (or no longer on disk): fall back to the prompt the run sent.
      }
    }
    const call = await prisma.llmCall.findFirst({
      where: { runId: setup.runId, isRepair: false, stepResult: { stepId, ...(videoId ? { videoId } : {}) } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { request: true, videoId: true },
    });
    const text = (call?.request as { text?: unknown } | null)?.text;
    if (typeof text === "string") return { hash, source: `the prompt sent for video ${call!.videoId}`, text };
    return { hash, source: "no text stored", text: "" };
  };
  const diffs: TemplateDiff[] = [];
  for (const stepId of stepIds) {
    const [first, ...rest] = setups;
    const base = await textOf(first!, stepId);
    const others = [];
    for (const setup of rest) {
      if (JSON.stringify(setup.templates[stepId]?.hashes ?? []) === JSON.stringify(first!.templates[stepId]?.hashes ?? [])) continue;
      const other = await textOf(setup, stepId);
      others.push({ runId: setup.id, hash: other.hash, source: other.source, diff: lineDiff(base.text, other.text) });
    }
    diffs.push({ stepId, base: { runId: first!.id, hash: base.hash, source: base.source }, others });
  }
  return diffs;
}
