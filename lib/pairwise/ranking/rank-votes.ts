import { StatsInputError } from "../../stats/input-error";
import type { Vote } from "../verdicts";
import { aggregateVotes, byCodeUnit, type VoteTable } from "./aggregate";
import { bootstrapRatings, ratingIntervals } from "./bootstrap";
import { bradleyTerry, davidson, fitModel, toElo, type FitCells, type PairModel } from "./fit";
import { pairMatrices } from "./matrices";
import type { GeneratorRating, Ranking, RankingOptions, RankVotes } from "./ranking.types";
import { rankingOptionsSchema } from "./ranking.validation";
import { leaderRobustness } from "./robustness";

/**
 * The pairwise leaderboard of generators from votes (issue 66 §4): the model's ratings on the Elo scale (fit.ts),
 * 95% intervals from the bootstrap over prompts (bootstrap.ts), Rank (UB), the pair matrices and the robustness
 * line (robustness.ts).
 */
export function modelFor(tieModel: RankingOptions["tieModel"]): PairModel {
  switch (tieModel) {
    case "bradley_terry":
      return bradleyTerry;
    case "davidson":
      return davidson;
    default: {
      const unknown: never = tieModel;
      throw new StatsInputError(`unknown tie model ${JSON.stringify(unknown)}`);
    }
  }
}

export function parseRankingOptions(options: RankingOptions): RankingOptions {
  const parsed = rankingOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StatsInputError(`ranking options: ${issue.path.join(".") || "options"}: ${issue.message}`);
  }
  return parsed.data;
}

export function totalCells(table: VoteTable): FitCells {
  return { cellI: table.cellI, cellJ: table.cellJ, ...table.totals };
}

/** The strengths fitted on every vote (the point estimate, and the bootstrap's warm start). */
export function fitTable(table: VoteTable, options: RankingOptions): Float64Array {
  return fitModel(modelFor(options.tieModel), table.generators.length, totalCells(table));
}

function emptyRanking(table: VoteTable, options: RankingOptions, emptyReason: string): Ranking {
  return {
    ratings: [],
    generators: [],
    winRate: [],
    bothBadRate: [],
    voteCount: [],
    votes: 0,
    prompts: 0,
    tieParameter: null,
    unrated: table.generators,
    robustness: null,
    options,
    emptyReason,
    sameGeneratorVotes: table.sameGeneratorVotes,
  };
}

/** Rank (UB): 1 + the generators whose interval lies wholly above (whose rating is higher, without intervals). */
function rankUpperBounds(rows: Omit<GeneratorRating, "rankUb">[]): number[] {
  return rows.map((row) => {
    const upper = row.upper ?? row.rating;
    const above = rows.filter((other) => (row.upper === null ? other.rating : (other.lower ?? other.rating)) > upper);
    return 1 + above.length;
  });
}

/**
 * The ranking of an aggregated table. `draws` (Elo ratings, n per draw, as `bootstrapRatings` gives them) may be
 * computed elsewhere, e.g. over worker threads; without it the bootstrap runs here.
 */
export function rankTable(table: VoteTable, options: RankingOptions, draws?: Float64Array): Ranking {
  const n = table.generators.length;
  if (table.votes === 0) {
    const reason = table.sameGeneratorVotes > 0 ? "every vote compares a generator with itself" : "no votes";
    return emptyRanking(table, options, reason);
  }
  const model = modelFor(options.tieModel);
  const params = fitTable(table, options);
  const rated = (g: number) => table.generatorCounts[g]!.votes > 0;
  const elo = toElo(params, n, rated);
  const drawn =
    draws ??
    (options.bootstrapDraws > 0
      ? bootstrapRatings(table, model, params, options.seed, 0, options.bootstrapDraws)
      : null);
  const intervals = drawn ? ratingIntervals(drawn, n) : null;
  const order = [...Array(n).keys()]
    .filter(rated)
    .sort((g, h) => elo[h]! - elo[g]! || byCodeUnit(table.generators[g]!, table.generators[h]!));
  const rows = order.map((g) => ({
    generator: table.generators[g]!,
    rating: elo[g]!,
    lower: intervals?.[g]?.lower ?? null,
    upper: intervals?.[g]?.upper ?? null,
    ...table.generatorCounts[g]!,
    preliminary: table.generatorCounts[g]!.votes < options.minVotes,
  }));
  const rankUb = rankUpperBounds(rows);
  return {
    ratings: rows.map((row, k) => ({ ...row, rankUb: rankUb[k]! })),
    generators: rows.map((row) => row.generator),
    ...pairMatrices(table, order),
    votes: table.votes,
    prompts: table.promptsWithVotes,
    tieParameter: model.extraParameters > 0 ? Math.exp(params[n]!) : null,
    unrated: table.generators.filter((_, g) => !rated(g)),
    robustness: leaderRobustness(table, model, params),
    options,
    emptyReason: null,
    sameGeneratorVotes: table.sameGeneratorVotes,
  };
}

export const rankVotes: RankVotes = (votes: readonly Vote[], options: RankingOptions): Ranking => {
  const parsed = parseRankingOptions(options);
  return rankTable(aggregateVotes(votes, { generators: parsed.generators }), parsed);
};
