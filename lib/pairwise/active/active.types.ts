/**
 * Which pair next (lib/pairwise/active/): candidates are generator pairs of prompts that have videos of both; the plan
 * orders them by how much one more verdict on them is expected to narrow the ranking's uncertainty.
 */
export interface PairCandidate {
  prompt: string;
  generatorA: string;
  generatorB: string;
  /** The pair's id when the pair exists already. */
  pairId: string | null;
}

export interface PlannedPair extends PairCandidate {
  /** The expected reduction the rule scores the pair with (larger first). */
  score: number;
}

export interface ActivePlan {
  rule: "variance_reduction" | "information_gain";
  pairs: PlannedPair[];
}
