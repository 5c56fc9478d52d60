import { z } from "zod";

/**
 * The words of pairwise comparison, shared by every part of lib/pairwise (making pairs, reviewing, judging,
 * importing, ranking, agreement). A verdict is said of the pair's own A and B, whatever side a rater saw each on.
 */
export const VERDICTS = ["A", "B", "tie_good", "tie_bad"] as const;
export type Verdict = (typeof VERDICTS)[number];
export const verdictSchema = z.enum(VERDICTS);

/** Who gave a verdict: a reviewer (user id), a judge run (`run:<id>`), a label set's annotator, or the gold. */
export const RATER_KINDS = ["reviewer", "judge", "label_set", "gold"] as const;
export type RaterKind = (typeof RATER_KINDS)[number];

/** The side video A was shown on to a person. */
export type Side = "left" | "right";

/** 2: a strong preference (A>>B) on an aspect of five levels; 1 otherwise (and always for ties). */
export type Strength = 1 | 2;

/** The verdict with A and B exchanged: what a rater who saw the pair the other way round said in the pair's terms. */
export function swapVerdict(verdict: Verdict): Verdict {
  if (verdict === "A") return "B";
  if (verdict === "B") return "A";
  return verdict;
}

/**
 * One verdict as rankings and agreement read it: the pair's prompt and generators come with it, so statistics need
 * no database. `raterId` names the rater as stored (a user id, `run:<id>`, `labelset:<id>[:<annotator>]`, `gold`).
 */
export interface Vote {
  pairId: string;
  prompt: string;
  aspect: string;
  generatorA: string;
  generatorB: string;
  raterId: string;
  raterKind: RaterKind;
  verdict: Verdict;
  strength: Strength;
  aShownOn: Side | null;
  msToVerdict: number | null;
  /** The pair is a honeypot whose expected verdict is A. */
  honeypot: boolean;
}
