// Reliability data from published worked examples, shared by the tests. Rows are items, columns raters;
// null is a missing rating.
import type { Rating } from "../../lib/stats/rating-table";

const _ = null;

/** Transposes coders × units (the layout of Krippendorff's papers) into items × raters. */
function unitsAsRows(coders: readonly (readonly Rating[])[]): Rating[][] {
  return coders[0]!.map((_value, unit) => coders.map((coder) => coder[unit]!));
}

/**
 * Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for Communication,
 * Departmental Papers 43, section C (also Content Analysis, 4th ed., 2019, p. 290): observers A–D, 12 units,
 * values 1–5, with missing values. Published: nominal α = .743, ordinal .815, interval .849, ratio .797.
 */
export const KRIPPENDORFF_2011 = unitsAsRows([
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, _],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
]);

/**
 * Wikipedia, "Krippendorff's alpha", section "A computational example": 3 coders, 15 units, values 1–4.
 * Published: nominal α = 0.691, interval α = 0.811.
 */
export const WIKIPEDIA_KRIPPENDORFF = unitsAsRows([
  [_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
  [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
  [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4],
]);

/**
 * Hayes, A. F., & Krippendorff, K. (2007). Answering the call for a standard reliability measure for coding
 * data. Communication Methods and Measures 1(1), 77–89: 5 observers, 40 units, ordinal scale 0–3.
 * Published: ordinal α = .7598 (their KALPHA macro output).
 */
export const HAYES_KRIPPENDORFF_2007: Rating[][] = [
  [1, 1, 2, _, 2],
  [1, 1, 0, 1, _],
  [2, 3, 3, 3, _],
  [_, 0, 0, _, 0],
  [0, 0, 0, _, 0],
  [0, 0, 0, _, 0],
  [1, 0, 2, _, 1],
  [1, _, 2, 0, _],
  [2, 2, 2, _, 2],
  [2, 1, 1, 1, _],
  [_, 1, 0, 0, _],
  [0, 0, 0, 0, _],
  [1, 2, 2, 2, _],
  [3, 3, 2, 2, 3],
  [1, 1, 1, _, 1],
  [1, 1, 1, _, 1],
  [2, 1, 2, _, 2],
  [1, 2, 3, 3, _],
  [1, 1, 0, 1, _],
  [0, 0, 0, _, 0],
  [0, 0, 1, 1, _],
  [0, 0, _, 0, 0],
  [2, 3, 3, 3, _],
  [0, 0, 0, 0, _],
  [1, 2, _, 2, 2],
  [0, 1, 1, 1, _],
  [0, 0, 0, 1, 0],
  [1, 2, 1, 2, _],
  [1, 1, 2, 2, _],
  [1, 1, 2, _, 2],
  [1, 1, 0, _, 0],
  [2, 1, 2, 1, _],
  [2, 2, _, 2, 2],
  [3, 2, 2, 2, _],
  [2, 2, 2, _, 2],
  [2, 2, 3, _, 2],
  [2, 2, 2, _, 2],
  [2, 2, _, 1, 2],
  [2, 2, 2, 2, _],
  [1, 1, 1, _, 1],
];

/**
 * Wikipedia, "Fleiss' kappa", section "Worked example": 10 subjects, 14 raters each, 5 categories; the
 * number of raters who put subject i in category j. Published: P̄ = 0.378, P̄ₑ = 0.213, κ = 0.210.
 */
export const WIKIPEDIA_FLEISS_COUNTS = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

/**
 * Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological Bulletin 76(5),
 * 378–382, Table 1: 30 patients, 6 psychiatrists each, 5 diagnoses (1 depression, 2 personality disorder,
 * 3 schizophrenia, 4 neurosis, 5 other), as distributed in R's irr package (data set `diagnoses`).
 * Published: κ = .430 (irr's kappam.fleiss: 0.4302445).
 */
export const FLEISS_1971_DIAGNOSES: Rating[][] = [
  [4, 4, 4, 4, 4, 4],
  [2, 2, 2, 5, 5, 5],
  [2, 3, 3, 3, 3, 5],
  [5, 5, 5, 5, 5, 5],
  [2, 2, 2, 4, 4, 4],
  [1, 1, 3, 3, 3, 3],
  [3, 3, 3, 3, 5, 5],
  [1, 1, 3, 3, 3, 4],
  [1, 1, 4, 4, 4, 4],
  [5, 5, 5, 5, 5, 5],
  [1, 4, 4, 4, 4, 4],
  [1, 2, 4, 4, 4, 4],
  [2, 2, 2, 3, 3, 3],
  [1, 4, 4, 4, 4, 4],
  [2, 2, 4, 4, 4, 5],
  [3, 3, 3, 3, 3, 5],
  [1, 1, 1, 4, 5, 5],
  [1, 1, 1, 1, 1, 2],
  [2, 2, 4, 4, 4, 4],
  [1, 3, 3, 5, 5, 5],
  [5, 5, 5, 5, 5, 5],
  [2, 4, 4, 4, 4, 4],
  [2, 2, 4, 5, 5, 5],
  [1, 1, 4, 4, 4, 4],
  [1, 4, 4, 4, 4, 5],
  [2, 2, 2, 2, 2, 4],
  [1, 1, 1, 1, 5, 5],
  [2, 2, 4, 4, 4, 4],
  [1, 3, 3, 3, 3, 3],
  [5, 5, 5, 5, 5, 5],
];
