"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/lib/api-client";
import { type Judgment, JudgmentForm, JudgmentHistory, LabelledValues } from "@/components/videos/judgment-item";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";

/**
 * Reviewers' decisions on one run's answer to a question: correct (1) or wrong (0) with a note, beside the
 * judge's (or the letter's) decision, which stays as it is. The judgment belongs to this run's answer: another
 * model's answer to the same question is judged on its own. A letter FrameJury read needs no review, but may
 * be overridden.
 */
export function QaAnswerReviews({
  runId,
  videoId,
  questionId,
  scoreId,
  judgeValue,
  decidedBy,
  canReview,
  currentUserId,
}: {
  runId: string;
  videoId: string;
  questionId: string;
  /** The run's correctness score; null when the answer has no decision to review (pending, unanswerable). */
  scoreId: string | null;
  /** 1 correct / 0 wrong; null while the caller reviews the video blind. */
  judgeValue: number | null;
  decidedBy: "letter" | "judge" | null;
  canReview: boolean;
  currentUserId: string;
}) {
  const target = BUILT_IN_DECLARATIONS.taskOf("qa").targets.find((t) => t.id === "correctness")!;
  const [open, setOpen] = useState(false);
  const reviews = useQuery({
    queryKey: ["reviews", videoId, runId, questionId],
    queryFn: () =>
      apiFetch<{ judgments: (Judgment & { subjectRunId: string })[]; blind: boolean }>(
        `/api/v1/videos/${videoId}/reviews?runId=${encodeURIComponent(runId)}&itemId=${encodeURIComponent(questionId)}`,
      ),
    enabled: scoreId !== null,
  });
  if (scoreId === null) {
    return (
      <p className="text-xs text-slate-500" data-testid="qa-review-none">
        No decision to review yet: reviewers judge an answer once it is decided.
      </p>
    );
  }
  const mine = (reviews.data?.judgments ?? []).filter((j) => j.subjectRunId === runId);
  const own = mine.find((j) => j.reviewer.id === currentUserId) ?? null;
  const letterRead = decidedBy === "letter";
  return (
    <section
      className="flex flex-col gap-2 border-t border-slate-100 pt-3"
      data-testid="qa-answer-reviews"
      data-run={runId}
      aria-label="Reviewers' decisions"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <h3 className="font-medium">Reviewers&apos; decisions</h3>
        {letterRead && (
          <span className="text-xs text-slate-500" data-testid="qa-review-not-needed">
            the letter was read deterministically: no review needed, but you may override it
          </span>
        )}
        <span className="flex-1" />
        <LabelledValues targetType={target} judgeValue={judgeValue} judgments={mine} currentUserId={currentUserId} />
        {canReview && !open && (
          <button
            type="button"
            className="rounded border border-indigo-300 px-2 py-0.5 text-xs text-indigo-800"
            onClick={() => setOpen(true)}
            data-testid="qa-review-open"
          >
            {own ? "Change your decision" : letterRead ? "Override" : "Give your decision"}
          </button>
        )}
      </div>
      {reviews.error && (
        <p role="alert" className="text-xs text-red-700">
          {reviews.error.message}
        </p>
      )}
      {open && (
        <JudgmentForm
          targetType="score"
          declared={target}
          saveUrl={`/api/v1/scores/${encodeURIComponent(scoreId)}/review`}
          own={own}
          judgeValue={judgeValue}
          videoId={videoId}
          onSaved={() => setOpen(false)}
          onCancel={() => setOpen(false)}
        />
      )}
      {mine.length > 0 && <JudgmentHistory targetType={target} judgments={mine} />}
    </section>
  );
}
