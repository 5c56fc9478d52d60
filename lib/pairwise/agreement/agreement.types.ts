import type { Verdict } from "../verdicts";

/**
 * Agreement on preferences (lib/pairwise/agreement/), per aspect, as GenAI-Bench defines its accuracies:
 * four-way over A, B, tie_good, tie_bad; three-way with the two ties merged; two-way over the pairs both raters
 * said A or B (ties left out).
 */
export interface AgreementFigure {
  value: number | null;
  /** 95% bootstrap interval over prompts. */
  lower: number | null;
  upper: number | null;
  /** The pairs the figure counts. */
  n: number;
}

export interface PreferenceAgreement {
  accuracy4: AgreementFigure;
  accuracy3: AgreementFigure;
  accuracy2: AgreementFigure;
  cohenKappa: AgreementFigure;
  /** Krippendorff's α, nominal, over the four verdicts. */
  krippendorffAlpha: AgreementFigure;
}

/** One comparison: a rater (or pooled raters) against a reference on one aspect. */
export interface AgreementRow {
  aspect: string;
  /** The rater compared: a user id, `run:<id>`, `labelset:…`. */
  rater: string;
  raterKind: "reviewer" | "judge" | "label_set";
  /** "person:<id>" (each person), "people" (the pooled majority of the people other than the rater), "gold". */
  reference: string;
  agreement: PreferenceAgreement;
  /** On "people" rows: the pairs left out because the other people's most-given verdict was shared by two verdicts. */
  referenceTiesLeftOut?: number;
}

/**
 * Whether a judge's agreement with people reaches the lower bound of people's agreement with each other (on the
 * three-way accuracy); null `within` when people's agreement cannot be computed (fewer than two people on a pair).
 */
export interface HumanNoiseLine {
  aspect: string;
  judge: string;
  judgeAccuracy3: AgreementFigure;
  humanAccuracy3: AgreementFigure;
  within: boolean | null;
  reason: string | null;
}

/** What rankings and agreement know of one verdict's position effect: used for judge trust and rater quality. */
export interface RaterQuality {
  rater: string;
  raterKind: "reviewer" | "judge" | "label_set";
  verdicts: number;
  honeypots: { answered: number; correct: number };
  gold: { answered: number; agreed: number };
  /** The share of verdicts (ties left out) that chose the video shown on the left. */
  leftRate: number | null;
  /** Median milliseconds per verdict (reviewers). */
  medianMsPerVerdict: number | null;
  /** The verdict this rater gave to every pair, when they always give one (e.g. always "A"). */
  alwaysSame: Verdict | null;
}
