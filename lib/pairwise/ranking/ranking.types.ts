import type { Vote } from "../verdicts";

/**
 * What a pairwise leaderboard is computed with and what it answers (lib/pairwise/ranking/). The fit reads only the
 * votes it is handed: the caller picks the raters and the aspect ("overall" pools every aspect's votes).
 */
export interface RankingOptions {
  /** "bradley_terry": ties count half a win to each side (FastChat's compute_mle_elo); "davidson": a tie parameter. */
  tieModel: "bradley_terry" | "davidson";
  /** Bootstrap draws of prompts (pairs of one prompt together); 0: no intervals. */
  bootstrapDraws: number;
  /** The seed of the bootstrap's random draws: the same votes and seed give the same intervals. */
  seed: number;
  /** Under this many votes a generator's rating is marked preliminary. */
  minVotes: number;
  /**
   * Every generator of the pairs the votes were asked on, voted on or not: those without a vote are listed in
   * `unrated` (a generator with no vote cannot be found from the votes themselves).
   */
  generators?: readonly string[];
}

export interface GeneratorRating {
  generator: string;
  /** On the Elo scale: 400 points per factor of 10 in odds, the mean anchored at 1000. */
  rating: number;
  /** 95% bootstrap interval (2.5th and 97.5th percentiles); null without bootstrap draws. */
  lower: number | null;
  upper: number | null;
  /** 1 + the number of generators whose interval lies wholly above this one's (1 + those rated higher without draws). */
  rankUb: number;
  votes: number;
  wins: number;
  losses: number;
  tiesGood: number;
  tiesBad: number;
  preliminary: boolean;
}

export interface Ranking {
  ratings: GeneratorRating[];
  /** Generators in rating order (the order of `ratings`), for the matrices' rows and columns. */
  generators: string[];
  /** winRate[i][j]: the share of i's votes against j that i won, ties counting half; null where they never met. */
  winRate: (number | null)[][];
  /** bothBadRate[i][j]: the share of i-vs-j votes that said both bad; null where they never met. */
  bothBadRate: (number | null)[][];
  /** voteCount[i][j]: votes between i and j. */
  voteCount: number[][];
  votes: number;
  prompts: number;
  /** The Davidson tie parameter ν when that model was fitted. */
  tieParameter: number | null;
  /** Generators present in pairs but with no vote: not rated, listed so the board says so. */
  unrated: string[];
  robustness: Robustness | null;
  options: RankingOptions;
  /** Why there are no ratings (no votes, or only votes of a generator against itself); null when there are. */
  emptyReason: string | null;
  /** Votes on a pair of two videos of one generator: no evidence between generators, so not in the fit. */
  sameGeneratorVotes: number;
}

/**
 * The fewest votes whose removal changes who is ranked first, found greedily (each step removes the vote that most
 * narrows the gap between the leader and the runner-up); `null` votes when the search stopped at its limit.
 */
export interface Robustness {
  leader: string;
  votesToChangeLeader: number | null;
  newLeader: string | null;
  method: "greedy";
  searchLimit: number;
}

/** Two rankings of the same generators compared (people's and a judge's). */
export interface RankingCorrelation {
  kendallTau: number | null;
  /** 95% bootstrap interval over prompts. */
  lower: number | null;
  upper: number | null;
  generators: number;
}

export type RankVotes = (votes: readonly Vote[], options: RankingOptions) => Ranking;
