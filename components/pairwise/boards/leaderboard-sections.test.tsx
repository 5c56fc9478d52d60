/**
 * The leaderboard's sections drawn from a board the ranking part answers (not the stand-in): the interval and its bar,
 * Rank (UB), the preliminary mark, the robustness line saying its search is greedy, τ with its interval, and a
 * withheld board's reason beside a ranked one.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Ranking } from "@/lib/pairwise/ranking/ranking.types";
import { DEFAULT_RANKING_OPTIONS } from "@/testkit/pairwise/ranking-fixtures";
import type { PairwiseLeaderboard } from "@/lib/pairwise/reports/reports.types";
import { LeaderboardBoards } from "./leaderboard-sections";

const ranking: Ranking = {
  ratings: [
    {
      generator: "Sora",
      rating: 1080.4,
      lower: 1040,
      upper: 1120,
      rankUb: 1,
      votes: 60,
      wins: 40,
      losses: 15,
      tiesGood: 3,
      tiesBad: 2,
      preliminary: false,
    },
    {
      generator: "Pika",
      rating: 919.6,
      lower: 880,
      upper: 990,
      rankUb: 2,
      votes: 20,
      wins: 15,
      losses: 40,
      tiesGood: 3,
      tiesBad: 2,
      preliminary: true,
    },
  ],
  generators: ["Sora", "Pika"],
  winRate: [
    [null, 0.72],
    [0.28, null],
  ],
  bothBadRate: [
    [null, 0.04],
    [0.04, null],
  ],
  voteCount: [
    [0, 60],
    [60, 0],
  ],
  votes: 60,
  prompts: 12,
  tieParameter: null,
  emptyReason: null,
  sameGeneratorVotes: 0,
  unrated: ["Kling"],
  robustness: { leader: "Sora", votesToChangeLeader: 7, newLeader: "Pika", method: "greedy", searchLimit: 1000 },
  options: DEFAULT_RANKING_OPTIONS,
};

const board: PairwiseLeaderboard = {
  pairSet: { id: "set1", name: "Round one", aspects: [], blind: true, votesPerPromptCap: 5 },
  aspect: { id: "overall", label: "Overall", pooled: true },
  boards: [
    { raters: "people", label: "People", cappedVotesDropped: 4, honeypotVotesLeftOut: 2, status: "ranked", ranking },
    {
      raters: "judge:r1",
      label: "gpt @ stub",
      cappedVotesDropped: 0,
      honeypotVotesLeftOut: 0,
      status: "withheld",
      reason: "This judge run has no verdict here yet: no ranking to show.",
    },
  ],
  correlations: [
    {
      raters: "judge:r1",
      label: "gpt @ stub",
      correlation: { kendallTau: 0.6, lower: 0.2, upper: 1, generators: 3 },
      reason: null,
    },
  ],
  honeypotPairs: 1,
  generators: ["Kling", "Pika", "Sora"],
  judgeRuns: [{ id: "r1", label: "gpt @ stub" }],
  labelSets: [],
};

describe("the leaderboard's sections", () => {
  const html = renderToStaticMarkup(<LeaderboardBoards board={board} />);

  it("shows each rating with its interval, Rank (UB), the preliminary mark and the unrated generator", () => {
    expect(html).toContain("[1040, 1120]");
    expect(html).toContain("[880, 990]");
    expect(html.match(/data-testid="preliminary"/g)).toHaveLength(1);
    expect(html).toContain("Kling");
    expect(html).toContain("unrated: no vote yet");
    expect(html).toContain("1000 bootstrap draws of prompts (seed 1)");
  });

  it("says the robustness search is greedy, τ with its interval, what was left out, and the withheld board's reason", () => {
    expect(html).toContain(
      "Removing 7 votes (found by a greedy search, so at most this many are needed) makes Pika the leader instead of Sora.",
    );
    expect(html).toContain("τ = 0.60 [0.20, 1.00] over 3 generators");
    expect(html).toContain("2 honeypot votes left out; 4 votes over the per-prompt cap left out.");
    expect(html).toContain("This judge run has no verdict here yet: no ranking to show.");
    expect(html).toContain("72%");
  });
});
