/**
 * Accuracy of QA runs: per run (a model at a frame count), over all its questions and per format, category,
 * granularity and their combinations, each with its Wilson 95% interval and n; the text-only baseline's
 * accuracy beside it and how many questions were answered right without the video; McNemar's test between
 * every two runs on the questions both decided.
 *
 * n counts the questions decided correct or wrong. Unanswerable ones (no decision could be made: a call or
 * the judge failed) are counted beside n, never as wrong; questions still running are counted as pending.
 */
import { discordantCounts, mcnemarTest, type McNemarResult } from "../../stats/mcnemar";
import { type ProportionInterval, wilsonInterval } from "./wilson-interval";

export type QaOutcome = "correct" | "wrong" | "unanswerable";

export interface QaOutcomeRow {
  runId: string;
  questionId: string;
  format: string;
  category: string | null;
  granularity: string | null;
  /** null: not decided yet (the run is still going). */
  outcome: QaOutcome | null;
  /** The text-only baseline's outcome; undefined when the run has no baseline. */
  textOnly?: QaOutcome | null;
}

export const BREAKDOWNS = ["all", "format", "category", "granularity", "format_category_granularity"] as const;
export type AccuracyBreakdown = (typeof BREAKDOWNS)[number];

export interface OutcomeCounts {
  correct: number;
  wrong: number;
  unanswerable: number;
  pending: number;
  /** correct / (correct + wrong), with its Wilson 95% interval and n = correct + wrong. */
  accuracy: ProportionInterval | null;
}

export interface AccuracyRow {
  runId: string;
  breakdown: AccuracyBreakdown;
  /** The group's values; null where the breakdown does not split by it (and "category": null is "no category"). */
  format: string | null;
  category: string | null;
  granularity: string | null;
  outcomes: OutcomeCounts;
  /** The text-only baseline over the same questions, when the run has one. */
  textOnly: OutcomeCounts | null;
  /** Questions answered right without the video (the baseline's correct ones). */
  rightWithoutVideo: number;
}

function counts(outcomes: readonly (QaOutcome | null | undefined)[]): OutcomeCounts {
  const tally = { correct: 0, wrong: 0, unanswerable: 0, pending: 0 };
  for (const outcome of outcomes) tally[outcome ?? "pending"] += 1;
  return { ...tally, accuracy: wilsonInterval(tally.correct, tally.correct + tally.wrong) };
}

function groupKey(
  row: QaOutcomeRow,
  breakdown: AccuracyBreakdown,
): { format: string | null; category: string | null; granularity: string | null } {
  switch (breakdown) {
    case "all":
      return { format: null, category: null, granularity: null };
    case "format":
      return { format: row.format, category: null, granularity: null };
    case "category":
      return { format: null, category: row.category, granularity: null };
    case "granularity":
      return { format: null, category: null, granularity: row.granularity };
    case "format_category_granularity":
      return { format: row.format, category: row.category, granularity: row.granularity };
  }
}

const compare = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b);

/** Rows per run in the order given, each run's breakdowns in BREAKDOWNS order, groups sorted by value (no value last). */
export function accuracyRows(rows: readonly QaOutcomeRow[], runIds: readonly string[]): AccuracyRow[] {
  const out: AccuracyRow[] = [];
  for (const runId of runIds) {
    const own = rows.filter((row) => row.runId === runId);
    const hasBaseline = own.some((row) => row.textOnly !== undefined);
    for (const breakdown of BREAKDOWNS) {
      const groups = new Map<string, { key: ReturnType<typeof groupKey>; rows: QaOutcomeRow[] }>();
      for (const row of own) {
        const key = groupKey(row, breakdown);
        const id = JSON.stringify(key);
        const group = groups.get(id) ?? { key, rows: [] };
        group.rows.push(row);
        groups.set(id, group);
      }
      if (breakdown === "all" && groups.size === 0)
        groups.set("all", { key: groupKey({} as QaOutcomeRow, "all"), rows: [] });
      const sorted = [...groups.values()].sort(
        (a, b) =>
          compare(a.key.format, b.key.format) ||
          compare(a.key.category, b.key.category) ||
          compare(a.key.granularity, b.key.granularity),
      );
      for (const group of sorted) {
        out.push({
          runId,
          breakdown,
          ...group.key,
          outcomes: counts(group.rows.map((r) => r.outcome)),
          textOnly: hasBaseline ? counts(group.rows.map((r) => r.textOnly ?? null)) : null,
          rightWithoutVideo: group.rows.filter((r) => r.textOnly === "correct").length,
        });
      }
    }
  }
  return out;
}

export interface RunComparison extends McNemarResult {
  first: string;
  second: string;
  /** Questions both runs decided (correct or wrong). */
  n: number;
  firstAccuracy: number | null;
  secondAccuracy: number | null;
}

/** McNemar's test for every two runs, on the questions both decided. */
export function pairwiseComparisons(rows: readonly QaOutcomeRow[], runIds: readonly string[]): RunComparison[] {
  const decided = new Map<string, Map<string, boolean>>();
  for (const runId of runIds) decided.set(runId, new Map());
  for (const row of rows) {
    if (row.outcome === "correct" || row.outcome === "wrong")
      decided.get(row.runId)?.set(row.questionId, row.outcome === "correct");
  }
  const comparisons: RunComparison[] = [];
  for (let i = 0; i < runIds.length; i++) {
    for (let j = i + 1; j < runIds.length; j++) {
      const first = decided.get(runIds[i]!)!;
      const second = decided.get(runIds[j]!)!;
      const { b, c, n } = discordantCounts(first, second);
      let firstRight = 0;
      let secondRight = 0;
      for (const [question, right] of first) {
        const other = second.get(question);
        if (other === undefined) continue;
        if (right) firstRight += 1;
        if (other) secondRight += 1;
      }
      comparisons.push({
        first: runIds[i]!,
        second: runIds[j]!,
        n,
        firstAccuracy: n ? firstRight / n : null,
        secondAccuracy: n ? secondRight / n : null,
        ...mcnemarTest(b, c),
      });
    }
  }
  return comparisons;
}
