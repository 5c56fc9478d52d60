import { z } from "zod";
import { blankAsMissing, intQueryParam } from "../../validation/query-params";
import type { AgreementFigure, AgreementRow, HumanNoiseLine, RaterQuality } from "../agreement/agreement.types";
import type { Ranking, RankingCorrelation } from "../ranking/ranking.types";
import type { Aspect } from "../aspects";
import { aspectIdSchema } from "../aspects";

/**
 * Whose verdicts a board ranks: the people (reviewers), one judge run (`judge:<runId>`), one imported label set
 * (`labelset:<labelSetId>`, all its annotators), the gold verdicts, or every person, judge run and label set pooled
 * ("all").
 */
export const raterChoiceSchema = z.union([
  z.enum(["people", "gold", "all"]),
  z
    .string()
    .regex(
      /^(judge|labelset):[A-Za-z0-9_-]{1,64}$/,
      "raters: people, gold, all, judge:<runId> or labelset:<labelSetId>.",
    ),
]);
export type RaterChoice = z.infer<typeof raterChoiceSchema>;

/** The aspect a board reads: one of the set's aspect ids, or "overall" (see `aspectVotesFilter`). */
export const boardAspectSchema = z
  .preprocess(blankAsMissing, aspectIdSchema.optional())
  .transform((v) => v ?? "overall");

/**
 * `GET /api/v1/pair-sets/{pairSetId}/leaderboard` and the leaderboard page: the aspect, the raters, the format, the
 * bootstrap's draws and seed, and the votes under which a rating is preliminary.
 */
export const pairwiseLeaderboardQuerySchema = z
  .object({
    aspect: boardAspectSchema,
    raters: z.preprocess(blankAsMissing, raterChoiceSchema.optional()).transform((v) => v ?? "people"),
    format: z.enum(["json", "csv", "latex"]).default("json"),
    draws: intQueryParam(0, 5000, 1000, "Draws"),
    seed: intQueryParam(0, 2 ** 31 - 1, 1, "Seed"),
    minVotes: intQueryParam(1, 100_000, 30, "Minimum votes"),
    /** "bradley_terry" (ties half a win to each side, as FastChat) or "davidson" (ties as their own outcome). */
    tieModel: z.preprocess(blankAsMissing, z.enum(["bradley_terry", "davidson"]).default("bradley_terry")),
  })
  .strict();
export type PairwiseLeaderboardQuery = z.output<typeof pairwiseLeaderboardQuerySchema>;

/** `GET /api/v1/pair-sets/{pairSetId}/agreement`: the bootstrap's draws and seed, and the format. */
export const pairwiseAgreementQuerySchema = z
  .object({
    format: z.enum(["json", "csv"]).default("json"),
    draws: intQueryParam(0, 5000, 1000, "Draws"),
    seed: intQueryParam(0, 2 ** 31 - 1, 1, "Seed"),
  })
  .strict();
export type PairwiseAgreementQuery = z.output<typeof pairwiseAgreementQuerySchema>;

export interface PairSetHeader {
  id: string;
  name: string;
  aspects: Aspect[];
  blind: boolean;
  votesPerPromptCap: number | null;
}

/** One ranking on the board: its raters, and either the ranking or why there is none (never a smaller board). */
export type RaterBoard = {
  raters: RaterChoice;
  label: string;
  /** Votes the cap on votes per prompt left out, and honeypot votes (never ranked). */
  cappedVotesDropped: number;
  honeypotVotesLeftOut: number;
} & ({ status: "ranked"; ranking: Ranking } | { status: "withheld"; reason: string });

/** Kendall's τ between the first board's ranking and another's. */
export interface BoardCorrelation {
  raters: RaterChoice;
  label: string;
  correlation: RankingCorrelation | null;
  /** Why there is no τ (a board withheld, fewer than two shared generators). */
  reason: string | null;
}

export interface PairwiseLeaderboard {
  pairSet: PairSetHeader;
  aspect: { id: string; label: string; pooled: boolean };
  /** The chosen raters' board first, then those shown beside it (each judge run, or the people beside a judge). */
  boards: RaterBoard[];
  correlations: BoardCorrelation[];
  /** Honeypot pairs of the set: never ranked, said so. */
  honeypotPairs: number;
  /** The generators of the set's pairs (honeypots left out): those a board does not rate are listed as unrated. */
  generators: string[];
  judgeRuns: { id: string; label: string }[];
  /** The label sets whose verdicts the set holds (imports), each a board of its own. */
  labelSets: { id: string; label: string }[];
}

export interface AspectAgreement {
  aspect: string;
  label: string;
  rows: AgreementRow[];
  noise: HumanNoiseLine[];
  /** Krippendorff's α among all the people at once (every pair two or more of them answered); null without verdicts. */
  peopleAlpha: AgreementFigure | null;
  /** Why the aspect has no rows (no verdicts, or no two raters on one pair). */
  withheld: string | null;
}

export interface PairwiseAgreement {
  pairSet: PairSetHeader;
  aspects: AspectAgreement[];
  /** Rater ids to names: people by their name or email, judge runs by their endpoint. */
  raterNames: Record<string, string>;
  honeypotVotesLeftOut: number;
  cappedVotesDropped: number;
}

export interface RaterBoardRow extends RaterQuality {
  name: string;
  /** Votes of this rater the cap on votes per prompt leaves out of rankings and agreement. */
  votesCapped: number;
}

export interface PairwiseRaterBoard {
  pairSet: PairSetHeader;
  raters: RaterBoardRow[];
}
