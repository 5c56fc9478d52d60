"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/lib/api-client";
import { type Judgment, JudgmentForm, JudgmentHistory, LabelledValues } from "@/components/videos/judgment-item";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { targetIdOfCategory } from "@/lib/task-modules/task-declaration";

export interface CaptionScore {
  id: string;
  category: string;
  /** Null while the caller reviews the caption's video blind. */
  value: number | null;
}

type Task = NonNullable<ReturnType<ReturnType<typeof useTaskCatalogue>["findTask"]>>;
type Target = Task["targets"][number];
type ReviewJudgment = Judgment & { target: string };

/** The caption's scores a reviewer can give a value for, each with its target, in key point order. */
function reviewableScores(task: Task, scores: CaptionScore[]): { score: CaptionScore; target: Target }[] {
  return scores
    .map((score) => ({ score, target: task.targets.find((t) => t.id === targetIdOfCategory(task, score.category)) }))
    .filter(
      (x): x is { score: CaptionScore; target: NonNullable<typeof x.target> } =>
        x.target !== undefined && x.target.reviewable !== false,
    )
    .sort(
      (a, b) =>
        (Number(a.score.category.replace(/^\D+/, "")) || 0) - (Number(b.score.category.replace(/^\D+/, "")) || 0),
    );
}

/**
 * Reviewers' own values for a caption's judge scores in one run: the style score (0–4) or each key
 * point (hit 1 / missed 0), with a note. A judgment belongs to the caption's target, so the same
 * values show against every run that scored it.
 */
export function CaptionReviews({
  pipeline,
  runId,
  videoId,
  captionId,
  scores,
  keyPoints,
  canReview,
  currentUserId,
}: {
  pipeline: string;
  runId: string;
  videoId: string;
  captionId: string;
  scores: CaptionScore[];
  keyPoints: string[];
  canReview: boolean;
  currentUserId: string;
}) {
  const task = useTaskCatalogue().findTask(pipeline);
  const [open, setOpen] = useState<string | null>(null);
  const reviews = useQuery({
    queryKey: ["reviews", videoId, runId, captionId],
    queryFn: () =>
      apiFetch<{ judgments: ReviewJudgment[]; blind: boolean }>(
        `/api/v1/videos/${videoId}/reviews?runId=${encodeURIComponent(runId)}&itemId=${encodeURIComponent(captionId)}`,
      ),
  });
  if (!task) return null;
  const reviewable = reviewableScores(task, scores);
  if (reviewable.length === 0) return null;
  const judgments = reviews.data?.judgments ?? [];
  return (
    <section
      className="flex flex-col gap-2 border-t border-slate-100 pt-3"
      data-testid="caption-reviews"
      aria-label="Reviewers' values"
    >
      <h3 className="text-sm font-medium">Reviewers&apos; values</h3>
      {reviews.error && (
        <p role="alert" className="text-xs text-red-700">
          {reviews.error.message}
        </p>
      )}
      <ul className="flex flex-col gap-2">
        {reviewable.map(({ score, target }) => (
          <CaptionReviewTarget
            key={score.id}
            score={score}
            target={target}
            keyPoints={keyPoints}
            judgments={judgments}
            videoId={videoId}
            canReview={canReview}
            currentUserId={currentUserId}
            open={open === score.id}
            setOpen={(isOpen) => setOpen(isOpen ? score.id : null)}
          />
        ))}
      </ul>
    </section>
  );
}

/** One score's row: its label (a key point's text), the values given, the reviewer's form and the history. */
function CaptionReviewTarget({
  score,
  target,
  keyPoints,
  judgments,
  videoId,
  canReview,
  currentUserId,
  open,
  setOpen,
}: {
  score: CaptionScore;
  target: Target;
  keyPoints: string[];
  judgments: ReviewJudgment[];
  videoId: string;
  canReview: boolean;
  currentUserId: string;
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const mine = judgments.filter((j) => j.scoreId === score.id);
  const own = mine.find((j) => j.reviewer.id === currentUserId) ?? null;
  const index = score.category === target.id ? null : Number(score.category.replace(/^\D+/, ""));
  const label =
    index === null
      ? target.label
      : `${target.label} ${index}${keyPoints[index - 1] ? `: ${keyPoints[index - 1]}` : ""}`;
  return (
    <li
      className="flex flex-col gap-1 rounded border border-slate-200 p-2 text-sm"
      data-testid="caption-review-target"
      data-category={score.category}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 flex-1" title={target.definition}>
          {label}
        </span>
        <LabelledValues targetType={target} judgeValue={score.value} judgments={mine} currentUserId={currentUserId} />
        {canReview && !open && (
          <button
            type="button"
            className="rounded border border-indigo-300 px-2 py-0.5 text-xs text-indigo-800"
            onClick={() => setOpen(true)}
          >
            {own ? "Change your value" : "Give your value"}
          </button>
        )}
      </div>
      {open && (
        <JudgmentForm
          targetType="score"
          declared={target}
          saveUrl={`/api/v1/scores/${encodeURIComponent(score.id)}/review`}
          own={own}
          judgeValue={score.value}
          videoId={videoId}
          onSaved={() => setOpen(false)}
          onCancel={() => setOpen(false)}
        />
      )}
      {mine.length > 0 && <JudgmentHistory targetType={target} judgments={mine} />}
    </li>
  );
}
