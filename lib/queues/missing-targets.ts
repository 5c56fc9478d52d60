/**
 * What the review screen says when the reviewer submits with required targets left without a value. A few are
 * named; past NAMED_UP_TO only their count is given (so a 96-target item does not list 95 labels in one red block), and
 * the screen offers a button to the first of them.
 */
export const NAMED_UP_TO = 3;

export function missingTargetsMessage(missingLabels: readonly string[], total: number): string {
  if (missingLabels.length <= NAMED_UP_TO)
    return `Judge every target before submitting; missing: ${missingLabels.join(", ")}.`;
  return `Judge every target before submitting: ${missingLabels.length} of ${total} still need a value.`;
}
