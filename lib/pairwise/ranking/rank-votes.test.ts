import { describe, expect, it } from "vitest";
import { resampler, streamSeed } from "../../stats/bootstrap";
import { StatsInputError } from "../../stats/input-error";
import type { Vote } from "../verdicts";
import { RIDGE } from "./fit";
import { rankVotes } from "./rank-votes";
import { robustnessSearchLimit } from "./robustness";
import type { Ranking, RankingOptions } from "./ranking.types";
import { DEFAULT_RANKING_OPTIONS, vote, WORKED_EXAMPLE } from "../../../testkit/pairwise/ranking-fixtures";
import {
  referenceBradleyTerry,
  referenceDavidson,
  referenceElo,
  referencePercentile,
  type ReferenceRow,
} from "../../../testkit/pairwise/ranking-reference";

const POINT_ONLY: RankingOptions = { tieModel: "bradley_terry", bootstrapDraws: 0, seed: 1, minVotes: 5 };

function referenceRows(votes: readonly Vote[], generators: readonly string[]): ReferenceRow[] {
  return votes
    .filter((v) => v.generatorA !== v.generatorB)
    .map((v) => ({
      i: generators.indexOf(v.generatorA),
      j: generators.indexOf(v.generatorB),
      outcome: v.verdict === "A" ? "i" : v.verdict === "B" ? "j" : "tie",
      weight: 1,
    }));
}

function referenceRatings(votes: readonly Vote[], generators: readonly string[]): Map<string, number> {
  const rows = referenceRows(votes, generators);
  const present = generators.map((_, g) => rows.some((row) => row.i === g || row.j === g));
  const elo = referenceElo(referenceBradleyTerry(generators.length, rows, RIDGE), present);
  return new Map(generators.flatMap((name, g) => (present[g] ? [[name, elo[g]!] as const] : [])));
}

function ratingOf(ranking: Ranking, generator: string): number {
  return ranking.ratings.find((row) => row.generator === generator)!.rating;
}

const GENERATORS = ["Kestrel", "Lumen", "Mirage", "Nimbus"];

describe("rankVotes: the worked example (docs/guide/pairwise.md)", () => {
  const ranking = rankVotes(WORKED_EXAMPLE, POINT_ONLY);

  it("gives the reference gradient-ascent Bradley–Terry ratings to 0.01 points, mean 1000", () => {
    const reference = referenceRatings(WORKED_EXAMPLE, GENERATORS);
    for (const name of GENERATORS) expect(Math.abs(ratingOf(ranking, name) - reference.get(name)!)).toBeLessThan(0.01);
    const mean = ranking.ratings.reduce((sum, row) => sum + row.rating, 0) / 4;
    expect(mean).toBeCloseTo(1000, 9);
    expect(ranking.generators).toEqual(["Kestrel", "Lumen", "Nimbus", "Mirage"]);
    expect(ranking.ratings.map((row) => Math.round(row.rating))).toEqual([1110, 1075, 1039, 775]);
  });

  it("counts votes, wins, losses and both kinds of tie per generator, a strong preference as one win", () => {
    const kestrel = ranking.ratings.find((row) => row.generator === "Kestrel")!;
    expect(kestrel).toMatchObject({ votes: 11, wins: 6, losses: 2, tiesGood: 2, tiesBad: 1, preliminary: false });
    const mirage = ranking.ratings.find((row) => row.generator === "Mirage")!;
    expect(mirage).toMatchObject({ votes: 10, wins: 0, losses: 7, tiesGood: 1, tiesBad: 2 });
    expect(ranking.votes).toBe(20);
    expect(ranking.prompts).toBe(6);
  });

  it("fills the matrices in rating order, ties half a win, tie_bad in the both-bad rate", () => {
    // Kestrel vs Lumen: Kestrel won on p1 and p4, lost on p3, tied (good) on p6: (2 + 0.5) / 4.
    expect(ranking.winRate[0]![1]).toBe(0.625);
    expect(ranking.winRate[1]![0]).toBe(0.375);
    // Kestrel vs Mirage: won p1 and p6, tie_good p3, tie_bad p5.
    expect(ranking.winRate[0]![3]).toBe(0.75);
    expect(ranking.bothBadRate[0]![3]).toBe(0.25);
    expect(ranking.voteCount[0]).toEqual([0, 4, 3, 4]);
    expect(ranking.winRate[2]![2]).toBeNull();
  });

  it("marks generators under minVotes preliminary", () => {
    const strict = rankVotes(WORKED_EXAMPLE, { ...POINT_ONLY, minVotes: 10 });
    expect(strict.ratings.filter((row) => row.preliminary).map((row) => row.generator)).toEqual(["Nimbus"]);
  });

  it("does not depend on the order of the votes", () => {
    const reversed = rankVotes([...WORKED_EXAMPLE].reverse(), { ...POINT_ONLY, bootstrapDraws: 50 });
    const forward = rankVotes(WORKED_EXAMPLE, { ...POINT_ONLY, bootstrapDraws: 50 });
    expect(reversed.ratings).toEqual(forward.ratings);
  });
});

describe("rankVotes: bootstrap intervals over prompts", () => {
  const draws = 200;
  const options: RankingOptions = { ...POINT_ONLY, bootstrapDraws: draws, seed: 7 };

  it("match a reference bootstrap that resamples prompts and refits by gradient ascent, to 0.01 points", () => {
    const prompts = ["p1", "p2", "p3", "p4", "p5", "p6"];
    const perGenerator = new Map<string, number[]>(GENERATORS.map((name) => [name, []]));
    const sample = new Int32Array(prompts.length);
    for (let d = 0; d < draws; d++) {
      resampler(streamSeed(7, `prompts:${d}`))(sample, prompts.length);
      const drawn = [...sample].flatMap((p) => WORKED_EXAMPLE.filter((v) => v.prompt === prompts[p]));
      for (const [name, rating] of referenceRatings(drawn, GENERATORS)) perGenerator.get(name)!.push(rating);
    }
    const ranking = rankVotes(WORKED_EXAMPLE, options);
    for (const row of ranking.ratings) {
      const ratings = perGenerator.get(row.generator)!;
      expect(Math.abs(row.lower! - referencePercentile(ratings, 0.025))).toBeLessThan(0.01);
      expect(Math.abs(row.upper! - referencePercentile(ratings, 0.975))).toBeLessThan(0.01);
    }
  });

  it("are the same under the same seed and move with another seed", () => {
    const first = rankVotes(WORKED_EXAMPLE, options);
    expect(rankVotes(WORKED_EXAMPLE, options).ratings).toEqual(first.ratings);
    const other = rankVotes(WORKED_EXAMPLE, { ...options, seed: 8 });
    expect(other.ratings.map((row) => row.lower)).not.toEqual(first.ratings.map((row) => row.lower));
  });
});

/** 40 prompts; on each, Apex beats Brook and Cove, and Brook and Cove trade wins. */
function dominantLeader(): Vote[] {
  return Array.from({ length: 40 }, (_, k) => [
    vote(`q${k}`, "Apex", "Brook", "A"),
    vote(`q${k}`, "Cove", "Apex", "B"),
    vote(`q${k}`, "Brook", "Cove", k % 2 === 0 ? "A" : "B"),
  ]).flat();
}

describe("rankVotes: Rank (UB)", () => {
  it("is 1 + the generators whose interval lies wholly above", () => {
    const ranking = rankVotes(dominantLeader(), { ...POINT_ONLY, bootstrapDraws: 300 });
    const [apex, second, third] = ranking.ratings;
    expect(apex!.generator).toBe("Apex");
    expect(apex!.lower!).toBeGreaterThan(Math.max(second!.upper!, third!.upper!));
    expect(second!.lower!).toBeLessThan(third!.upper!);
    expect(ranking.ratings.map((row) => row.rankUb)).toEqual([1, 2, 2]);
  });

  it("without draws is 1 + the generators rated higher, and the interval is null", () => {
    const ranking = rankVotes(WORKED_EXAMPLE, POINT_ONLY);
    expect(ranking.ratings.map((row) => row.rankUb)).toEqual([1, 2, 3, 4]);
    expect(ranking.ratings[0]!.lower).toBeNull();
  });
});

describe("rankVotes: the robustness line (greedy)", () => {
  it("needs 3 removals when one generator leads another 3 wins to 1", () => {
    // Removing two of Apex's wins leaves 1–1 (level, no new leader); the third puts Brook ahead.
    const votes = [
      vote("a", "Apex", "Brook", "A"),
      vote("b", "Apex", "Brook", "A"),
      vote("c", "Brook", "Apex", "B"),
      vote("d", "Brook", "Apex", "A"),
    ];
    expect(rankVotes(votes, POINT_ONLY).robustness).toEqual({
      leader: "Apex",
      votesToChangeLeader: 3,
      newLeader: "Brook",
      method: "greedy",
      searchLimit: 4,
    });
  });

  it("reports null when removing every vote never puts anyone ahead (two wins and a tie)", () => {
    const votes = [
      vote("a", "Apex", "Brook", "A"),
      vote("b", "Apex", "Brook", "A"),
      vote("c", "Apex", "Brook", "tie_good"),
    ];
    expect(rankVotes(votes, POINT_ONLY).robustness).toMatchObject({
      leader: "Apex",
      votesToChangeLeader: null,
      newLeader: null,
      searchLimit: 3,
    });
  });

  it("changes the worked example's leader with one vote (Kestrel and Lumen are 35 points apart on 20 votes)", () => {
    expect(rankVotes(WORKED_EXAMPLE, POINT_ONLY).robustness).toMatchObject({
      leader: "Kestrel",
      votesToChangeLeader: 1,
      newLeader: "Lumen",
    });
  });
});

describe("rankVotes: the Davidson tie model", () => {
  it("reproduces the two-generator closed form: the gap is 400·log10(wins ratio), ν = ties / √(winsA·winsB)", () => {
    // 8 wins for Apex, 2 for Brook, 6 ties: the model is saturated, so its probabilities are the frequencies.
    const votes = [
      ...Array.from({ length: 8 }, (_, k) => vote(`w${k}`, "Apex", "Brook", "A")),
      ...Array.from({ length: 2 }, (_, k) => vote(`l${k}`, "Apex", "Brook", "B")),
      ...Array.from({ length: 6 }, (_, k) => vote(`t${k}`, "Apex", "Brook", k % 2 ? "tie_good" : "tie_bad")),
    ];
    const ranking = rankVotes(votes, { ...POINT_ONLY, tieModel: "davidson" });
    // The tiny ridge moves the gap by about 0.1 point and ν by about 0.1%.
    expect(ratingOf(ranking, "Apex") - ratingOf(ranking, "Brook")).toBeCloseTo(400 * Math.log10(4), 0);
    expect(ranking.tieParameter!).toBeCloseTo(6 / Math.sqrt(16), 2);
  });

  it("gives the reference Davidson ratings and ν on the worked example", () => {
    const ranking = rankVotes(WORKED_EXAMPLE, { ...POINT_ONLY, tieModel: "davidson" });
    const reference = referenceDavidson(4, referenceRows(WORKED_EXAMPLE, GENERATORS), RIDGE);
    const elo = referenceElo(reference.theta, [true, true, true, true]);
    GENERATORS.forEach((name, g) => expect(Math.abs(ratingOf(ranking, name) - elo[g]!)).toBeLessThan(0.01));
    expect(Math.abs(ranking.tieParameter! - reference.nu)).toBeLessThan(1e-6);
    expect(rankVotes(WORKED_EXAMPLE, POINT_ONLY).tieParameter).toBeNull();
  });
});

describe("rankVotes: bad input", () => {
  it("answers an empty ranking with a reason for no votes", () => {
    const ranking = rankVotes([], POINT_ONLY);
    expect(ranking).toMatchObject({ ratings: [], votes: 0, robustness: null, emptyReason: "no votes" });
  });

  it("answers an empty ranking with a reason when every vote compares one generator with itself", () => {
    const ranking = rankVotes([vote("a", "Solo", "Solo", "A"), vote("b", "Solo", "Solo", "tie_bad")], POINT_ONLY);
    expect(ranking.ratings).toEqual([]);
    expect(ranking.sameGeneratorVotes).toBe(2);
    expect(ranking.emptyReason).toMatch(/itself/);
    expect(ranking.unrated).toEqual(["Solo"]);
  });

  it("lists a generator of the pairs with no vote as unrated, and counts same-generator votes apart", () => {
    const ranking = rankVotes([...WORKED_EXAMPLE, vote("p1", "Lumen", "Lumen", "A")], {
      ...POINT_ONLY,
      generators: ["Kestrel", "Orphan"],
    });
    expect(ranking.unrated).toEqual(["Orphan"]);
    expect(ranking.sameGeneratorVotes).toBe(1);
    expect(ranking.votes).toBe(20);
  });

  it("rates generators called __proto__ and constructor like any other", () => {
    const votes = [
      vote("a", "__proto__", "constructor", "A"),
      vote("b", "__proto__", "constructor", "A"),
      vote("c", "constructor", "__proto__", "tie_good"),
      vote("d", "toString", "__proto__", "B"),
    ];
    const ranking = rankVotes(votes, { ...POINT_ONLY, bootstrapDraws: 20 });
    expect(ranking.generators[0]).toBe("__proto__");
    expect(ranking.generators).toHaveLength(3);
    expect(ranking.ratings.every((row) => Number.isFinite(row.rating))).toBe(true);
  });

  it("keeps an undefeated and a winless generator finite (the ridge)", () => {
    const votes = Array.from({ length: 5 }, (_, k) => vote(`u${k}`, "Apex", "Brook", "A"));
    const ranking = rankVotes(votes, POINT_ONLY);
    const gap = ratingOf(ranking, "Apex") - ratingOf(ranking, "Brook");
    expect(gap).toBeGreaterThan(1000);
    expect(gap).toBeLessThan(5000);
  });

  it("gives level ratings to a rater who always answers A when each generator is A as often as B", () => {
    const names = ["Apex", "Brook", "Cove"];
    const votes = names.flatMap((a, i) =>
      names.flatMap((b, j) => (i === j ? [] : [vote(`${a}-${b}`, a, b, "A", "always-a")])),
    );
    const ranking = rankVotes(votes, POINT_ONLY);
    for (const row of ranking.ratings) expect(row.rating).toBeCloseTo(1000, 6);
  });

  it("refuses bad options and an unknown verdict with a StatsInputError", () => {
    expect(() => rankVotes(WORKED_EXAMPLE, { ...POINT_ONLY, bootstrapDraws: -1 })).toThrow(StatsInputError);
    expect(() => rankVotes(WORKED_EXAMPLE, { ...POINT_ONLY, bootstrapDraws: 1e9 })).toThrow(/bootstrapDraws/);
    expect(() => rankVotes(WORKED_EXAMPLE, { ...POINT_ONLY, tieModel: "elo" as "davidson" })).toThrow(StatsInputError);
    const bad = { ...vote("a", "Apex", "Brook", "A"), verdict: "A>B" as "A" };
    expect(() => rankVotes([bad], POINT_ONLY)).toThrow(/unknown verdict/);
  });
});

describe("rankVotes: the guide's table (docs/guide/pairwise.md, default options)", () => {
  it("gives the ratings, intervals, Rank (UB) and Davidson figures the guide prints", () => {
    const ranking = rankVotes(WORKED_EXAMPLE, { ...DEFAULT_RANKING_OPTIONS, minVotes: 10 });
    const round = (x: number | null) => Math.round(x! * 10) / 10;
    expect(
      ranking.ratings.map((row) => [row.generator, round(row.rating), round(row.lower), round(row.upper)]),
    ).toEqual([
      ["Kestrel", 1110.5, 869.6, 1440.3],
      ["Lumen", 1075.1, 884.5, 1261.7],
      ["Nimbus", 1038.9, 687.2, 1459.3],
      ["Mirage", 775.5, 430.5, 865.9],
    ]);
    expect(ranking.ratings.map((row) => row.rankUb)).toEqual([1, 1, 1, 3]);
    const davidsonRanking = rankVotes(WORKED_EXAMPLE, { ...DEFAULT_RANKING_OPTIONS, tieModel: "davidson" });
    expect(davidsonRanking.ratings.map((row) => round(row.rating))).toEqual([1165.5, 1113.2, 1059.5, 661.8]);
    expect(davidsonRanking.tieParameter!).toBeCloseTo(0.92, 2);
  });
});

describe("robustnessSearchLimit", () => {
  it("is 2,000 removals, never more than the votes, and fewer with hundreds of generators", () => {
    expect(robustnessSearchLimit(1_000_000, 50)).toBe(2000);
    expect(robustnessSearchLimit(20, 4)).toBe(20);
    expect(robustnessSearchLimit(1_000_000, 200)).toBe(312);
    expect(robustnessSearchLimit(1_000_000, 5000)).toBe(1);
  });
});
