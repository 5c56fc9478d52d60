/**
 * A label set's annotators as reviewers: `labelset:<labelSetId>` for a label set with one annotator,
 * `labelset:<labelSetId>:<column>` for each annotator column. No user id has this shape (ids are
 * cuids), so a label set can never be mistaken for a live reviewer, nor a reviewer for it.
 */
export const LABEL_SET_REVIEWER_PREFIX = "labelset:";

export function labelSetReviewerId(labelSetId: string, annotator?: string | null): string {
  return `${LABEL_SET_REVIEWER_PREFIX}${labelSetId}${annotator ? `:${annotator}` : ""}`;
}

export function isLabelSetReviewerId(reviewerId: string): boolean {
  return reviewerId.startsWith(LABEL_SET_REVIEWER_PREFIX);
}

/** The label set and annotator column of a label-set reviewer id, or null for a live reviewer. */
export function parseLabelSetReviewerId(reviewerId: string): { labelSetId: string; annotator: string | null } | null {
  if (!isLabelSetReviewerId(reviewerId)) return null;
  const rest = reviewerId.slice(LABEL_SET_REVIEWER_PREFIX.length);
  const colon = rest.indexOf(":");
  return colon < 0
    ? { labelSetId: rest, annotator: null }
    : { labelSetId: rest.slice(0, colon), annotator: rest.slice(colon + 1) };
}
