"use client";

/**
 * The review screen's pieces for a target that is a question the judge was asked (VBench-2.0's yes/no questions,
 * `TaskModule.scoreQuestions`): the question in the judge's words, the frames it was asked with, and the Judge line
 * that lists the item's own questions with the judge's answers.
 */
import { formatValue, type MetricDeclaration, type TargetDeclaration } from "@/lib/task-modules/task-declaration";

/** What the item payload says a target asked (null: the target's label says what it is). */
export interface TargetQuestionView {
  text: string;
  framesNote: string | null;
}

interface FrameView {
  id: string;
  index: number;
  timestampS: number;
  url: string;
}

/** Where the player seeks and which frames the strip lights for a focused question: the frames it was asked with. */
export function questionFocus(
  frames: readonly Pick<FrameView, "index" | "timestampS">[],
  frameIndexes: readonly number[],
): { seekS: number | null; frameIndexes: number[]; label: string } {
  const asked = new Set(frameIndexes);
  const first = frames.find((frame) => asked.has(frame.index));
  return {
    seekS: first?.timestampS ?? null,
    frameIndexes: [...asked],
    label: `the ${asked.size} frame${asked.size === 1 ? "" : "s"} this question was asked with`,
  };
}

/** "Material question 2" of the label "Material question 2: Is it green?" (the label before the question's words). */
export function questionName(label: string, question: TargetQuestionView): string {
  const suffix = `: ${question.text}`;
  return label.endsWith(suffix) ? label.slice(0, -suffix.length) : label;
}

/** The target's name above the question, which is what the reviewer answers. */
export function QuestionLabel({ label, question }: { label: string; question: TargetQuestionView }) {
  return (
    <span className="flex flex-col" data-testid="target-question">
      <span className="text-xs text-slate-500">{questionName(label, question)}</span>
      <span className="font-medium text-slate-900" data-testid="question-text">
        {question.text}
      </span>
    </span>
  );
}

/** The frames a question was asked with, as a scrolling strip of small images (VBench-2.0 asks with 64). */
export function QuestionFrames({
  frameIndexes,
  frames,
  note,
}: {
  frameIndexes: readonly number[];
  frames: readonly FrameView[];
  note: string | null;
}) {
  const byIndex = new Map(frames.map((frame) => [frame.index, frame]));
  const shown = frameIndexes.flatMap((index) => byIndex.get(index) ?? []);
  if (shown.length === 0) return null;
  const first = shown[0]!.timestampS;
  const last = shown.at(-1)!.timestampS;
  return (
    <div className="mt-1 flex flex-col gap-0.5" data-testid="question-frames">
      <p className="text-xs text-slate-500">
        Asked with{" "}
        {shown.length === 1
          ? `1 frame (${first.toFixed(2)} s)`
          : `${shown.length} frames (${first.toFixed(2)}–${last.toFixed(2)} s)`}
        {note ? ` · ${note}` : ""}
      </p>
      <div className="flex gap-0.5 overflow-x-auto pb-1" data-testid="target-frames">
        {shown.map((frame) => (
          // eslint-disable-next-line @next/next/no-img-element
          <img
            key={frame.id}
            src={frame.url}
            alt={`frame at ${frame.timestampS.toFixed(2)} s`}
            className="h-10 shrink-0 rounded"
            loading="lazy"
          />
        ))}
      </div>
    </div>
  );
}

/** The Judge line of an item of questions: each of its questions by name with the judge's answer, nothing else. */
export function JudgeAnswersLine<
  T extends { key: string; label: string; question?: TargetQuestionView | null; judge?: number | null },
>({
  targets,
  declarationOf,
}: {
  targets: readonly T[];
  /** The target's declaration, whose scale names the answer ("yes"); null: the number as it is. */
  declarationOf: (target: T) => Pick<TargetDeclaration | MetricDeclaration, "scale"> | null;
}) {
  const asked = targets.filter((target) => target.question);
  return (
    <>
      {asked.map((target, i) => (
        <span key={target.key} data-testid="judge-answer">
          {i > 0 && " · "}
          <abbr title={target.question!.text}>{questionName(target.label, target.question!)}</abbr>{" "}
          {formatValue(
            declarationOf(target) ?? { scale: { kind: "numeric", min: -Infinity, max: Infinity, step: null } },
            target.judge,
          )}
        </span>
      ))}
    </>
  );
}
