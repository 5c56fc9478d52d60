import type { SubjectViewProps } from "@/components/tasks/subject-view-props";

/** What a caption-queue item reviews (the queue item API's `caption`). */
export interface CaptionView {
  id: string;
  externalId: string;
  model: string | null;
  captionType: string;
  output: string;
  instruction: string | null;
  reference: string | null;
  restriction: string | null;
  keyPoints: string[];
}

/** The caption a caption-queue item reviews: what was asked, what the model wrote, and the reference. */
export function CaptionUnderReview({ caption }: { caption: CaptionView }) {
  const block = (label: string, text: string | null, testId: string) =>
    text ? (
      <div>
        <div className="text-xs font-medium uppercase text-slate-500">{label}</div>
        <p className="whitespace-pre-wrap" data-testid={testId}>
          {text}
        </p>
      </div>
    ) : null;
  return (
    <section
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3 text-sm"
      data-testid="review-caption"
      aria-label="Caption under review"
    >
      <p className="text-xs text-slate-500">
        <b className="text-slate-800">{caption.captionType}</b> caption by{" "}
        <b className="text-slate-800" data-testid="review-caption-model">
          {caption.model ?? "—"}
        </b>{" "}
        (id {caption.externalId})
      </p>
      {block("Instruction", caption.instruction, "review-caption-instruction")}
      {block("Restriction", caption.restriction, "review-caption-restriction")}
      {block("Caption", caption.output, "review-caption-output")}
      {block("Reference", caption.reference, "review-caption-reference")}
    </section>
  );
}

/** The review screen's view of a caption queue's subject (TaskViews.subjectViews). */
export function CaptionSubjectView({ subject }: SubjectViewProps) {
  return <CaptionUnderReview caption={subject as CaptionView} />;
}
