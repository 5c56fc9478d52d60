import type { QaAnswerResult } from "./qa-run-questions";

/** An answer's result with every judge value withheld; whether its steps finished stays. Each field is named. */
export function withheldAnswerResult(result: QaAnswerResult): QaAnswerResult {
  return { ...result, outcome: null, reason: null, decidedBy: null, letter: null, judgement: null, extraction: null };
}

/** What a QA run's result of one question carries: the answer's result, the text-only baseline's and the flag they make. */
interface QaResultLike {
  result: QaAnswerResult;
  textOnly: QaAnswerResult | null;
  rightWithoutVideo: boolean;
}

/**
 * A question's result in a run (a list row, or an entry of the question's page) for a blind video: the
 * answer's and the baseline's judge values withheld, and no "right without the video" flag. The QA task's
 * `redactResult` (lib/visibility applies it).
 */
export function withheldQuestionResult<R extends QaResultLike>(question: R): R {
  return {
    ...question,
    result: withheldAnswerResult(question.result),
    textOnly: question.textOnly ? withheldAnswerResult(question.textOnly) : null,
    rightWithoutVideo: false,
  };
}
