/**
 * The video list's "has spans" filter (`spans=`): videos with any span that counts, with a person's (a reviewer's or
 * a label set's annotator's), or with a judge run's. Plain data: the filter form and the filter's schema read it.
 */
export const SPAN_AUTHOR_FILTERS = ["any", "people", "judge"] as const;
export type SpanAuthorFilter = (typeof SPAN_AUTHOR_FILTERS)[number];

/** What each choice reads as in a filter form. */
export const SPAN_AUTHOR_FILTER_LABELS: Record<SpanAuthorFilter, string> = {
  any: "any spans",
  people: "spans by people",
  judge: "spans by a judge run",
};
