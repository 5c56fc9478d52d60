/** The caption results as CSV: a run's captions, and the leaderboard's rows. */
import { csvRow } from "../../format/csv";
import type { captionLeaderboard, LeaderboardMetric } from "./caption-leaderboard";
import type { CaptionRunResult } from "./caption-run-results";
import type { CaptionLengthRulesOutput } from "./caption-style";

const CAPTION_CSV_COLUMNS = [
  "run_id",
  "caption_id",
  "external_id",
  "video",
  "model",
  "caption_type",
  "status",
  "error",
  "output_words",
  "reference_words",
  "output_sentences",
  "deviation",
  "rule_brief_detail_10pct",
  "rule_instruction_restriction",
  "cap",
  "judge_score",
  "score_after_rules",
  "counted_score",
  "length_violation",
  "judge_broke_rule",
  "reason",
  "key_points_hit",
  "key_points_total",
  "coverage",
  "key_points",
  "instruction",
  "reference",
  "output",
  "word_counting",
] as const;

function ruleCell(rules: CaptionLengthRulesOutput["rules"] | null, id: string) {
  const rule = rules?.find((r) => r.id === id);
  return !rule ? null : !rule.applies ? "n/a" : rule.passed ? "pass" : "fail";
}

export const CAPTION_RESULTS_CSV_HEADER = csvRow(CAPTION_CSV_COLUMNS);

/** The CSV export's rows of `captions` (after CAPTION_RESULTS_CSV_HEADER). */
export function captionResultsCsvRows(runId: string, captions: readonly CaptionRunResult[]): string {
  let text = "";
  for (const c of captions) {
    const s = c.style;
    const k = c.content;
    text += csvRow([
      runId,
      c.captionId,
      c.externalId,
      c.video.relativePath,
      c.model,
      c.captionType,
      (s ?? k)!.status,
      (s ?? k)!.error,
      s?.counts?.outputWords,
      s?.counts?.referenceWords,
      s?.counts?.outputSentences,
      s?.counts?.deviation,
      ruleCell(s?.rules ?? null, "brief_detail_10pct"),
      ruleCell(s?.rules ?? null, "instruction_restriction"),
      s?.cap,
      s?.rawScore,
      s?.scoreAfterRules,
      s?.countedScore,
      s?.flags ? Number(s.flags.lengthViolation) : null,
      s?.flags ? Number(s.flags.judgeBrokeRule) : null,
      s?.reason,
      k?.hit,
      k?.total,
      k?.coverage,
      k ? JSON.stringify(k.keyPoints) : null,
      c.instruction,
      c.reference,
      c.output,
      s?.counts?.counting,
    ]);
  }
  return text;
}

export function leaderboardCsv(rows: ReturnType<typeof captionLeaderboard>): string {
  let text = csvRow(["model", "caption_type", "metric", "value", "ci_low", "ci_high", "n"]);
  const metrics: [string, (row: (typeof rows)[number]) => LeaderboardMetric | null][] = [
    ["style_score", (r) => r.styleScore],
    ["content_coverage", (r) => r.contentCoverage],
    ["length_violation_rate", (r) => r.lengthViolationRate],
  ];
  for (const row of rows) {
    for (const [name, pick] of metrics) {
      const metric = pick(row);
      if (metric)
        text += csvRow([
          row.model,
          row.captionType ?? "(all)",
          name,
          metric.value,
          metric.ci?.lower,
          metric.ci?.upper,
          metric.n,
        ]);
    }
  }
  return text;
}
