/** The QA results as CSV and JSONL: a run's questions, and the accuracy overview's rows. */
import { csvRow } from "../../format/csv";
import { jsonLines } from "../../export/text-stream";
import type { QaOverview } from "./qa-overview";
import type { QaQuestionResult } from "./qa-run-questions";
import type { QaRunSummary } from "./qa-run-summary";

const QUESTION_CSV_COLUMNS = [
  "run_id",
  "model",
  "frames",
  "question_id",
  "external_id",
  "video",
  "question_format",
  "category",
  "granularity",
  "question",
  "options",
  "correct_answer",
  "status",
  "outcome",
  "decided_by",
  "letter",
  "judgement",
  "reason",
  "no_letter_because",
  "raw_answer",
  "finish_reason",
  "text_only_outcome",
  "text_only_decided_by",
  "text_only_letter",
  "text_only_reason",
  "text_only_raw_answer",
  "right_without_video",
] as const;

export const QA_RESULTS_CSV_HEADER = csvRow(QUESTION_CSV_COLUMNS);

/** The CSV export's rows of `questions` (after QA_RESULTS_CSV_HEADER). */
export function qaResultsCsvRows(run: QaRunSummary, questions: readonly QaQuestionResult[]): string {
  let text = "";
  for (const q of questions) {
    const r = q.result;
    const t = q.textOnly;
    text += csvRow([
      run.id,
      run.model,
      run.settings.frames,
      q.questionId,
      q.externalId,
      q.video.relativePath,
      q.format,
      q.category,
      q.granularity,
      q.question,
      q.options ? JSON.stringify(q.options) : null,
      q.answer,
      r.status,
      r.outcome ?? "pending",
      r.decidedBy,
      r.letter,
      r.judgement,
      r.reason,
      r.extraction,
      r.rawAnswer,
      r.finishReason,
      t?.outcome ?? (t ? "pending" : null),
      t?.decidedBy,
      t?.letter,
      t?.reason,
      t?.rawAnswer,
      t ? Number(q.rightWithoutVideo) : null,
    ]);
  }
  return text;
}

/** A JSONL export's line of a question. */
export const qaResultJsonLine = (run: QaRunSummary, question: QaQuestionResult) => ({
  runId: run.id,
  model: run.model,
  frames: run.settings.frames,
  ...question,
});

const ACCURACY_CSV_COLUMNS = [
  "run_id",
  "model",
  "frames",
  "breakdown",
  "question_format",
  "category",
  "granularity",
  "correct",
  "wrong",
  "unanswerable",
  "pending",
  "n",
  "accuracy",
  "ci_low",
  "ci_high",
  "text_only_n",
  "text_only_accuracy",
  "text_only_ci_low",
  "text_only_ci_high",
  "right_without_video",
] as const;

export function qaAccuracyCsv(overview: QaOverview): string {
  const runs = new Map(overview.chosen.map((r) => [r.id, r]));
  let text = csvRow(ACCURACY_CSV_COLUMNS);
  for (const row of overview.rows) {
    const run = runs.get(row.runId)!;
    const a = row.outcomes.accuracy;
    const t = row.textOnly?.accuracy ?? null;
    text += csvRow([
      row.runId,
      run.model,
      run.settings.frames,
      row.breakdown,
      row.format,
      row.category,
      row.granularity,
      row.outcomes.correct,
      row.outcomes.wrong,
      row.outcomes.unanswerable,
      row.outcomes.pending,
      a?.n ?? 0,
      a?.value,
      a?.lower,
      a?.upper,
      row.textOnly ? (t?.n ?? 0) : null,
      t?.value,
      t?.lower,
      t?.upper,
      row.textOnly ? row.rightWithoutVideo : null,
    ]);
  }
  return text;
}

/** The accuracy rows as JSONL: one object per row, with its run's model and frame count. */
export function qaAccuracyJsonl(overview: QaOverview): string {
  const runs = new Map(overview.chosen.map((r) => [r.id, r]));
  return jsonLines(
    overview.rows.map((row) => ({
      model: runs.get(row.runId)!.model,
      frames: runs.get(row.runId)!.settings.frames,
      ...row,
    })),
  );
}
