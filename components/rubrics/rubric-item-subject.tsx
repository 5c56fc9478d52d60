import type { SubjectViewProps } from "@/components/tasks/subject-view-props";
import type { RubricItemSubject } from "@/lib/rubrics/rubric-item-queue-type";

/**
 * The item a rubric task's item queue reviews (the queue item API's `rubricItem`): its id in the imported file and
 * each field the rubric declares, labelled; the review screen shows the frames of its video beside it. Nothing of
 * the judge is here, so a blind reviewer sees it whole.
 */
export function RubricItemSubjectView({ subject }: SubjectViewProps) {
  const item = subject as RubricItemSubject;
  return (
    <section
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3 text-sm"
      data-testid="review-rubric-item"
      aria-label="Item under review"
    >
      <p className="text-xs text-slate-500">Item {item.externalId}</p>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
        {item.fields.map((field) => (
          <div key={field.id} className="contents" data-testid="review-rubric-item-field" data-field={field.id}>
            <dt className="text-xs font-medium uppercase text-slate-500">{field.label}</dt>
            <dd className="whitespace-pre-wrap">{field.value || <span className="text-slate-500">(empty)</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
