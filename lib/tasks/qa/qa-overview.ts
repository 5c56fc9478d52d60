/**
 * The accuracy overview of a project's QA runs: the accuracy table with Wilson intervals, the model × category
 * heat map, the 8-against-16-frames comparison and McNemar's test between runs (lib/tasks/qa/accuracy.ts).
 */
import type { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { requireExportRoleFor } from "../../export/run-downloads";
import { accuracyRows, pairwiseComparisons, type AccuracyRow, type QaOutcomeRow, type RunComparison } from "./accuracy";
import type { qaAccuracyQuerySchema } from "./qa-query";
import { runQuestionsMatching } from "./qa-run-questions";
import { projectQaRuns, type QaRunSummary } from "./qa-run-summary";

/**
 * The runs an overview compares, oldest first however they were named: those named, else the latest run of
 * each model at each frame count and resize.
 */
function chooseRuns(runs: readonly QaRunSummary[], runIds: readonly string[]): QaRunSummary[] {
  if (runIds.length) {
    for (const id of runIds)
      if (!runs.some((r) => r.id === id)) throw new NotFoundError(`No such QA run in this project: ${id}.`);
    // `runs` is newest first.
    return runs.filter((r) => runIds.includes(r.id)).reverse();
  }
  const seen = new Set<string>();
  const chosen: QaRunSummary[] = [];
  for (const run of runs) {
    if (seen.has(run.label)) continue;
    seen.add(run.label);
    chosen.push(run);
  }
  return chosen.reverse();
}

export interface QaOverview {
  runs: QaRunSummary[];
  /** The runs compared, oldest first. */
  chosen: QaRunSummary[];
  rows: AccuracyRow[];
  /** Model (run) × category: each cell's accuracy with its interval and n. */
  heatmap: {
    categories: (string | null)[];
    cells: { runId: string; category: string | null; accuracy: AccuracyRow["outcomes"]["accuracy"] }[];
  };
  /** McNemar's test for every two compared runs, on the questions both decided. */
  comparisons: RunComparison[];
  /** Models run at more than one frame count: each count's overall accuracy and the test between them. */
  frames: {
    model: string;
    runs: { runId: string; frames: number; accuracy: AccuracyRow["outcomes"]["accuracy"] }[];
    comparison: RunComparison | null;
  }[];
}

/** The accuracy overview of the project's QA runs (every member; CSV and JSONL need export.read). */
export async function projectQaOverview(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: z.output<typeof qaAccuracyQuerySchema>,
): Promise<QaOverview> {
  requireExportRoleFor(access, query.format);
  const runs = await projectQaRuns(prisma, access);
  const chosen = chooseRuns(runs, query.runId);
  const outcomes: QaOutcomeRow[] = [];
  for (const run of chosen) {
    for (const q of await runQuestionsMatching(prisma, run, {})) {
      outcomes.push({
        runId: run.id,
        questionId: q.questionId,
        format: q.format,
        category: q.category,
        granularity: q.granularity,
        outcome: q.result.outcome,
        ...(q.textOnly ? { textOnly: q.textOnly.outcome } : {}),
      });
    }
  }
  const ids = chosen.map((r) => r.id);
  const rows = accuracyRows(outcomes, ids);
  const comparisons = pairwiseComparisons(outcomes, ids);
  const categoryRows = rows.filter((r) => r.breakdown === "category");
  const categories = [...new Set(categoryRows.map((r) => r.category))].sort((a, b) =>
    a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b),
  );
  const overall = (runId: string) => rows.find((r) => r.runId === runId && r.breakdown === "all")!.outcomes.accuracy;
  const byModel = new Map<string, QaRunSummary[]>();
  for (const run of chosen) byModel.set(run.model, [...(byModel.get(run.model) ?? []), run]);
  const frames = [...byModel]
    .filter(([, modelRuns]) => new Set(modelRuns.map((r) => r.settings.frames)).size > 1)
    .map(([model, modelRuns]) => {
      const eight = modelRuns.find((r) => r.settings.frames === 8);
      const sixteen = modelRuns.find((r) => r.settings.frames === 16);
      const comparison =
        eight && sixteen
          ? (comparisons.find(
              (c) =>
                (c.first === eight.id && c.second === sixteen.id) || (c.first === sixteen.id && c.second === eight.id),
            ) ?? null)
          : null;
      return {
        model,
        runs: modelRuns
          .map((r) => ({ runId: r.id, frames: r.settings.frames, accuracy: overall(r.id) }))
          .sort((a, b) => a.frames - b.frames),
        comparison,
      };
    });
  return {
    runs,
    chosen,
    rows,
    heatmap: {
      categories,
      cells: categoryRows.map((r) => ({ runId: r.runId, category: r.category, accuracy: r.outcomes.accuracy })),
    },
    comparisons,
    frames,
  };
}
