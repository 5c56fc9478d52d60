import type { RankingOptions } from "../../lib/pairwise/ranking/ranking.types";
import type { Verdict, Vote } from "../../lib/pairwise/verdicts";

/** One vote as the ranking tests write them: prompt, A's generator, B's generator, verdict. */
export function vote(prompt: string, generatorA: string, generatorB: string, verdict: Verdict, raterId = "r1"): Vote {
  return {
    pairId: `${prompt}:${generatorA}:${generatorB}:${raterId}`,
    prompt,
    aspect: "overall",
    generatorA,
    generatorB,
    raterId,
    raterKind: "reviewer",
    verdict,
    strength: 1,
    aShownOn: "left",
    msToVerdict: null,
    honeypot: false,
  };
}

/**
 * The guide's worked example (docs/guide/pairwise.md, "Worked example: ratings"): four generators, 20 votes over
 * six prompts, with ties of both kinds and one strong preference.
 */
export const WORKED_EXAMPLE: Vote[] = [
  vote("p1", "Kestrel", "Lumen", "A"),
  vote("p1", "Kestrel", "Mirage", "A"),
  vote("p1", "Lumen", "Nimbus", "tie_good"),
  vote("p2", "Kestrel", "Nimbus", "A"),
  vote("p2", "Mirage", "Lumen", "B"),
  vote("p2", "Mirage", "Nimbus", "tie_bad"),
  vote("p3", "Lumen", "Kestrel", "A"),
  vote("p3", "Nimbus", "Mirage", "A"),
  vote("p3", "Kestrel", "Mirage", "tie_good"),
  { ...vote("p4", "Kestrel", "Lumen", "A"), strength: 2 },
  vote("p4", "Lumen", "Mirage", "A"),
  vote("p4", "Mirage", "Nimbus", "B"),
  vote("p5", "Nimbus", "Kestrel", "B"),
  vote("p5", "Lumen", "Nimbus", "A"),
  vote("p5", "Mirage", "Kestrel", "tie_bad"),
  vote("p6", "Kestrel", "Lumen", "tie_good"),
  vote("p6", "Mirage", "Lumen", "B"),
  vote("p6", "Nimbus", "Kestrel", "A"),
  vote("p6", "Lumen", "Nimbus", "B"),
  vote("p6", "Mirage", "Kestrel", "B"),
];

/** The leaderboard's defaults, as tests ask for them. */
export const DEFAULT_RANKING_OPTIONS: RankingOptions = {
  tieModel: "bradley_terry",
  bootstrapDraws: 1000,
  seed: 1,
  minVotes: 30,
};
