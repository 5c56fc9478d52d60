import type { SubjectViewProps } from "@/components/tasks/subject-view-props";
import type { QaAnswerResult } from "@/lib/tasks/qa/qa-run-questions";

/** What a QA answer-queue item reviews (the queue item API's `answer`). */
export interface AnswerView {
  questionId: string;
  externalId: string;
  model: string;
  question: string;
  format: "mc" | "open";
  options: Record<string, string> | null;
  /** The correct letter (mc) or the reference answer (open). */
  answer: string;
  category: string | null;
  /** The model's raw answer and the decision; the decision's fields are null while blind. */
  result: QaAnswerResult;
}

/**
 * The answer a QA queue item reviews: the question, its options (the correct one marked) or reference answer,
 * the evaluated model's answer as given and, once shown, the letter read or the judge's decision and reason.
 */
export function AnswerUnderReview({ answer, blind }: { answer: AnswerView; blind: boolean }) {
  const r = answer.result;
  return (
    <section
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3 text-sm"
      data-testid="review-answer"
      aria-label="Answer under review"
    >
      <p className="text-xs text-slate-500">
        {answer.format === "mc" ? "Multiple-choice" : "Open-ended"} question {answer.externalId}
        {answer.category ? ` · ${answer.category}` : ""} answered by{" "}
        <b className="text-slate-800" data-testid="review-answer-model">
          {answer.model}
        </b>
      </p>
      <p className="text-base" data-testid="review-answer-question">
        {answer.question}
      </p>
      {answer.options ? (
        <ol className="flex flex-col gap-0.5">
          {Object.entries(answer.options).map(([letter, text]) => (
            <li key={letter} className={letter === answer.answer ? "font-medium text-emerald-800" : ""}>
              {letter}. {text}
              {letter === answer.answer && <span className="ml-2 rounded bg-emerald-100 px-1 text-xs">correct</span>}
            </li>
          ))}
        </ol>
      ) : (
        <p data-testid="review-answer-reference">
          <span className="text-xs font-medium uppercase text-slate-500">Reference answer</span> {answer.answer}
        </p>
      )}
      <div>
        <div className="text-xs font-medium uppercase text-slate-500">The model&apos;s answer, as given</div>
        <pre className="whitespace-pre-wrap rounded bg-slate-50 p-2 text-sm" data-testid="review-answer-raw">
          {r.rawAnswer ?? "(no answer)"}
        </pre>
      </div>
      {blind ? (
        <p className="text-xs text-slate-500" data-testid="review-answer-withheld">
          The decision and its reason are shown once you submit.
        </p>
      ) : (
        <p className="text-slate-700" data-testid="review-answer-decision">
          <span className="text-xs font-medium uppercase text-slate-500">
            {r.decidedBy === "letter"
              ? `Letter ${r.letter ?? "?"} read by FrameJury`
              : `The judge said ${r.judgement ?? "?"}`}
          </span>{" "}
          {r.reason}
        </p>
      )}
    </section>
  );
}

/** The review screen's view of an answer queue's subject (TaskViews.subjectViews). */
export function AnswerSubjectView({ subject, blind }: SubjectViewProps) {
  return <AnswerUnderReview answer={subject as AnswerView} blind={blind} />;
}
