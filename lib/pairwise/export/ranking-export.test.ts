import { describe, expect, it } from "vitest";
import type { GeneratorRating, Ranking } from "../ranking/ranking.types";
import { DEFAULT_RANKING_OPTIONS } from "../../../testkit/pairwise/ranking-fixtures";
import { rankingToCsv, rankingToLatex } from "./ranking-export";

const rating = (generator: string, values: Partial<GeneratorRating>): GeneratorRating => ({
  generator,
  rating: 1000,
  lower: null,
  upper: null,
  rankUb: 1,
  votes: 0,
  wins: 0,
  losses: 0,
  tiesGood: 0,
  tiesBad: 0,
  preliminary: false,
  ...values,
});

/** Fields later parts of the ranking add (kept apart so the literal is not checked against this branch's type). */
const rankingExtras = { emptyReason: null, sameGeneratorVotes: 0 };

const ranking: Ranking = {
  ...rankingExtras,
  ratings: [
    rating("Sora", { rating: 1053.26, lower: 1031.04, upper: 1077.9, rankUb: 1, votes: 120 }),
    rating("=Gen_2 & co", { rating: 946.74, lower: 920.5, upper: 970.01, rankUb: 2, votes: 12, preliminary: true }),
  ],
  generators: ["Sora", "=Gen_2 & co"],
  winRate: [],
  bothBadRate: [],
  voteCount: [],
  votes: 132,
  prompts: 40,
  tieParameter: null,
  unrated: ["__proto__"],
  robustness: null,
  options: DEFAULT_RANKING_OPTIONS,
};

describe("a pairwise leaderboard as a file", () => {
  it("CSV: rank (UB), generator, rating and interval to a tenth, votes, preliminary; unrated listed last", () => {
    expect(rankingToCsv(ranking).split("\r\n")).toEqual([
      "rank_ub,generator,rating,lower,upper,votes,preliminary",
      "1,Sora,1053.3,1031,1077.9,120,false",
      "2,'=Gen_2 & co,946.7,920.5,970,12,true",
      ",__proto__,,,,0,true",
      "",
    ]);
  });

  it("LaTeX: a booktabs tabular with names escaped", () => {
    const latex = rankingToLatex(ranking);
    expect(latex).toContain("1 & Sora & 1053.3 & [1031.0, 1077.9] & 120 &  \\\\");
    expect(latex).toContain("2 & =Gen\\_2 \\& co & 946.7 & [920.5, 970.0] & 12 & prelim. \\\\");
    expect(latex).toContain("-- & \\_\\_proto\\_\\_ & -- & -- & 0 & no votes \\\\");
    expect(latex.startsWith("\\begin{tabular}{rlrrrr}\n\\toprule")).toBe(true);
  });
});
