/**
 * Runs of one task side by side (frames or video, 8 or 64 frames, one model or another): what differs between them,
 * each run's agreement with people (the agreement report's κ and α, span agreement where the task has spans), the
 * Kendall τ between the generator rankings they give, and what each cost and took. Whole or withheld: while the
 * caller reviews any of the runs' videos blind, the whole comparison is withheld (WithheldError, 409), never one
 * computed from the other videos.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError, isAppErrorCode } from "../errors";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema } from "../agreement/report-filter";
import { kendallTau, type RankingInput } from "../leaderboard/ranking-agreement";
import { runLeaderboard } from "../leaderboard/run-leaderboard";
import { runNameOfRow } from "../run-records/run-name";
import { runPickerLabels } from "../judge/runs/run-option-labels";
import { projectSpanAgreement } from "../spans/agreement/load-span-agreement";
import { catalogFor, type TaskCatalogue } from "../task-modules/task-catalogue";
import { requireWholeView } from "../visibility/withheld";
import { inputModeOf, type InputMode } from "../judge/input-modes";
import { comparedRunCosts, type RunCost } from "./run-comparison-costs";

/** How many runs one comparison puts side by side. */
export const MAX_COMPARED_RUNS = 8;

/** `?runs=a,b[,c…]`: two to eight distinct runs of the project. */
export const runComparisonQuerySchema = z
  .object({
    runs: z
      .string()
      .trim()
      .max(MAX_COMPARED_RUNS * 65, "runs: too long.")
      .transform((s) => [...new Set(s.split(",").map((id) => id.trim()))].filter(Boolean))
      .pipe(
        z
          .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "runs: not a run id."))
          .min(2, "runs: name at least two runs, separated by commas.")
          .max(MAX_COMPARED_RUNS, `runs: at most ${MAX_COMPARED_RUNS} runs.`),
      ),
  })
  .strict();
export type RunComparisonQuery = z.output<typeof runComparisonQuerySchema>;

/** One setting of the compared runs, with each run's value in the runs' order. */
export interface RunDifference {
  field: "inputMode" | "frames" | "model" | "endpoint" | "promptVersions" | "settings" | "batch" | "videos";
  label: string;
  values: string[];
}

export interface RunAgreementSummary {
  /** Targets compared (judge against the reviewers' consensus), binarised. */
  n: number;
  kappa: number | null;
  accuracy: number | null;
  /** Per target type with pairs, on its own scale: quadratic-weighted κ and Krippendorff's α at its declared level. */
  native: { targetType: string; n: number; kappaQuadratic: number | null; alpha: number | null }[];
  /**
   * The judge against each imported label set (or annotator column) with values of the run's targets: people's
   * values too, kept apart from the live reviewers' consensus as the agreement report keeps them.
   */
  labelSets: { reviewerId: string; label: string; n: number; kappa: number | null; accuracy: number | null }[];
}

export interface RunSpanAgreement {
  label: string;
  name: string;
  /** The judge against the people (pooled, else the one person who marked spans). */
  against: string;
  videos: number;
  f1At50: number | null;
  frameKappa: number | null;
  frameAlpha: number | null;
}

export interface ComparedRun {
  id: string;
  name: string;
  status: string;
  inputMode: InputMode;
  /** The distinct frame counts of the frame sets the run's videos were judged with, ascending. */
  frameCounts: number[];
  model: string;
  endpointName: string;
  videos: number;
  agreement: RunAgreementSummary;
  /** One row per span label some rater marked; empty when the task's videos have no spans. */
  spans: RunSpanAgreement[];
  /** The run's generator ranking, best first (a nested list is a tie); null with `rankingNote` when it has none. */
  ranking: RankingInput | null;
  rankingNote: string | null;
  cost: RunCost;
}

export interface RunComparison {
  task: { id: string; label: string };
  runs: ComparedRun[];
  /** What differs between the runs; settings they share are not listed. */
  differences: RunDifference[];
  /** The metric the rankings are by (the first run's headline metric), or null when the task ranks no generators. */
  rankingMetric: { id: string; label: string } | null;
  /** Kendall's τ-b between every two runs' rankings, over the generators both rank. */
  tau: { a: string; b: string; generators: number; tau: number | null }[];
}

type RunRow = Awaited<ReturnType<typeof loadRuns>>[number];

function loadRuns(prisma: PrismaClient, projectId: string, runIds: readonly string[]) {
  return prisma.judgeRun.findMany({
    where: { projectId, id: { in: [...runIds] } },
    select: {
      id: true,
      pipeline: true,
      status: true,
      inputMode: true,
      settings: true,
      promptVersionIds: true,
      batchMode: true,
      createdAt: true,
      endpointSnapshot: true,
      endpoint: { select: { name: true, model: true } },
    },
  });
}

/** The same JSON, keys sorted at every level, so settings written in another order compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function snapshotText(run: RunRow, key: "name" | "model", fallback: string): string {
  const value = (run.endpointSnapshot as Record<string, unknown> | null)?.[key];
  return typeof value === "string" ? value : fallback;
}

const framesText = (counts: readonly number[]) =>
  counts.length === 0 ? "none" : counts.length === 1 ? String(counts[0]) : `${counts[0]}–${counts[counts.length - 1]}`;

/** The settings that differ between the runs, each with every run's value. */
export function runDifferences(
  runs: readonly {
    inputMode: string;
    frameCounts: readonly number[];
    model: string;
    endpointName: string;
    promptVersionIds: unknown;
    settings: unknown;
    batchMode: boolean;
    videos: number;
  }[],
): RunDifference[] {
  const fields: [RunDifference["field"], string, (run: (typeof runs)[number]) => string][] = [
    ["inputMode", "Input mode", (r) => r.inputMode],
    ["frames", "Frames per video", (r) => framesText(r.frameCounts)],
    ["model", "Model", (r) => r.model],
    ["endpoint", "Endpoint", (r) => r.endpointName],
    ["promptVersions", "Prompt versions", (r) => stableJson(r.promptVersionIds ?? {})],
    ["settings", "Settings", (r) => stableJson(r.settings ?? {})],
    ["batch", "Batch API", (r) => (r.batchMode ? "yes" : "no")],
    ["videos", "Videos judged", (r) => String(r.videos)],
  ];
  return fields.flatMap(([field, label, read]) => {
    const values = runs.map(read);
    return new Set(values).size > 1 ? [{ field, label, values }] : [];
  });
}

/** Per run: its videos and the distinct frame counts of the frame sets it judged them with. */
async function runVideoFacts(prisma: PrismaClient, runIds: readonly string[]) {
  const rows = await prisma.$queryRaw<{ runId: string; videos: bigint; frameCounts: number[] }[]>`
    SELECT rv."runId", count(*) AS "videos", array_agg(DISTINCT fs."frameCount" ORDER BY fs."frameCount") AS "frameCounts"
    FROM run_video rv JOIN frame_set fs ON fs.id = rv."frameSetId"
    WHERE rv."runId" = ANY(${[...runIds]}::text[])
    GROUP BY rv."runId"`;
  return new Map(rows.map((r) => [r.runId, { videos: Number(r.videos), frameCounts: r.frameCounts }]));
}

async function agreementOf(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  catalogue: TaskCatalogue,
  runId: string,
): Promise<RunAgreementSummary> {
  const query = agreementQuerySchema(catalogue).parse({ runId });
  const report = await projectAgreement(prisma, access, query, catalogue);
  const { binary, native } = report.humanVsJudge.consensus;
  return {
    n: binary.n,
    kappa: binary.values.kappa ?? null,
    accuracy: binary.values.accuracy ?? null,
    labelSets: report.humanVsJudge.reviewers
      .filter((r) => r.labelSet && r.binary.n > 0)
      .map((r) => ({
        reviewerId: r.reviewerId,
        label: r.label,
        n: r.binary.n,
        kappa: r.binary.values.kappa ?? null,
        accuracy: r.binary.values.accuracy ?? null,
      })),
    native: Object.entries(native)
      .filter(([, block]) => block.n > 0)
      .map(([targetType, block]) => ({
        targetType,
        n: block.n,
        kappaQuadratic: block.values.kappaQuadratic ?? null,
        alpha: block.values.alpha ?? null,
      })),
  };
}

async function spansOf(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  catalogue: TaskCatalogue,
  task: string,
  runId: string,
): Promise<RunSpanAgreement[]> {
  const report = await projectSpanAgreement(prisma, access, { task, runId }, catalogue);
  return report.labels.flatMap((label) => {
    const mine = label.comparisons.filter((c) => c.kind === "judge_people" || c.kind === "judge_person");
    const chosen = mine.find((c) => c.kind === "judge_people") ?? mine[0];
    if (!chosen) return [];
    return [
      {
        label: label.label,
        name: label.name,
        against: chosen.referenceLabel,
        videos: chosen.videos,
        f1At50: chosen.thresholds.find((t) => t.threshold === 0.5)?.f1.value ?? null,
        frameKappa: chosen.frames.kappa.value,
        frameAlpha: chosen.frames.alpha.value,
      },
    ];
  });
}

/** The generators best first, those of equal rank as one tie. */
function rankingOf(generators: readonly { model: string; rank: number }[]): RankingInput {
  const byRank = new Map<number, string[]>();
  for (const g of generators) byRank.set(g.rank, [...(byRank.get(g.rank) ?? []), g.model]);
  return [...byRank.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, models]) => (models.length === 1 ? models[0]! : models));
}

/** Each run's ranking by one metric (the first run's headline metric); a task that ranks no generators says why. */
async function rankings(prisma: PrismaClient, access: ProjectAccess, runIds: readonly string[]) {
  let metric: { id: string; label: string } | null = null;
  const out = new Map<string, { ranking: RankingInput | null; note: string | null }>();
  for (const runId of runIds) {
    try {
      const board = await runLeaderboard(prisma, access, runId, { metric: metric?.id, samples: 100, seed: 1 });
      metric ??= { id: board.metric.id, label: board.metric.label };
      const ranked = board.leaderboard.generators.filter((g) => g.total.value !== null);
      out.set(runId, {
        ranking: ranked.length ? rankingOf(ranked) : null,
        note: ranked.length ? null : "No video of the run has a value with a generator model.",
      });
    } catch (error) {
      if (!isAppErrorCode(error, "invalid_request")) throw error;
      out.set(runId, { ranking: null, note: error.message });
    }
  }
  return { metric, byRun: out };
}

function tauBetween(runs: readonly ComparedRun[]): RunComparison["tau"] {
  const pairs: RunComparison["tau"] = [];
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++) {
      const a = runs[i]!;
      const b = runs[j]!;
      if (!a.ranking || !b.ranking) continue;
      const inA = new Set(a.ranking.flat());
      const generators = b.ranking.flat().filter((g) => inA.has(g)).length;
      pairs.push({ a: a.id, b: b.id, generators, tau: kendallTau(a.ranking, b.ranking) });
    }
  return pairs;
}

/** The runs side by side, in the order asked; 404 for a run not in the project, 400 for runs of different tasks. */
export async function compareRuns(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  query: RunComparisonQuery,
): Promise<RunComparison> {
  const { actor, projectId } = access;
  const found = new Map((await loadRuns(prisma, projectId, query.runs)).map((r) => [r.id, r]));
  const missing = query.runs.filter((id) => !found.has(id));
  if (missing.length) throw new NotFoundError(`No such run in this project: ${missing.join(", ")}.`);
  const rows = query.runs.map((id) => found.get(id)!);
  const catalogue = await catalogFor(prisma, projectId);
  const pipelines = [...new Set(rows.map((r) => r.pipeline))];
  if (pipelines.length > 1)
    throw new ValidationError(
      `runs: only runs of one task compare side by side; these judge ${pipelines.map((p) => `"${catalogue.findTask(p)?.label ?? p}"`).join(" and ")}.`,
    );
  const task = catalogue.findTask(pipelines[0]!);
  // Whole or withheld over every video of every run, before any number is read.
  const videoIds = await prisma.runVideo.findMany({
    where: { runId: { in: query.runs } },
    distinct: ["videoId"],
    select: { videoId: true },
  });
  await requireWholeView(
    prisma,
    actor.userId,
    videoIds.map((v) => v.videoId),
    "This comparison of runs",
  );
  const [facts, costs, ranked, labels] = await Promise.all([
    runVideoFacts(prisma, query.runs),
    comparedRunCosts(prisma, rows),
    rankings(prisma, access, query.runs),
    runPickerLabels(prisma, projectId, query.runs),
  ]);
  const runs: ComparedRun[] = [];
  for (const row of rows) {
    const fact = facts.get(row.id) ?? { videos: 0, frameCounts: [] };
    const ranking = ranked.byRun.get(row.id)!;
    runs.push({
      id: row.id,
      name: labels.get(row.id) ?? runNameOfRow(row, catalogue),
      status: row.status,
      inputMode: inputModeOf(row.inputMode),
      frameCounts: fact.frameCounts,
      model: snapshotText(row, "model", row.endpoint.model),
      endpointName: snapshotText(row, "name", row.endpoint.name),
      videos: fact.videos,
      agreement: await agreementOf(prisma, access, catalogue, row.id),
      spans: await spansOf(prisma, access, catalogue, row.pipeline, row.id),
      ranking: ranking.ranking,
      rankingNote: ranking.note,
      cost: costs.get(row.id)!,
    });
  }
  const differences = runDifferences(
    runs.map((run, i) => ({ ...run, ...rows[i]!, inputMode: run.inputMode, videos: run.videos })),
  );
  return {
    task: { id: pipelines[0]!, label: task?.label ?? pipelines[0]! },
    runs,
    differences,
    rankingMetric: ranked.metric,
    tau: tauBetween(runs),
  };
}
