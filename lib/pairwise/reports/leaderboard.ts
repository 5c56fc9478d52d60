import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import type { RankingOptions } from "../ranking/ranking.types";
import type { Vote } from "../verdicts";
import {
  boardAspect,
  judgeRunsOfSet,
  labelSetsOfSet,
  readPairSetHeader,
  requireWholePairSet,
  setGenerators,
  votesOfAspect,
  votesOfRaters,
} from "./pair-set-votes";
import { capVotesPerPrompt } from "../agreement/rater-quality";
import { rankingCorrelation } from "../ranking/correlation";
import { rankVotes } from "../ranking/rank-votes";
import { loadVotes } from "../votes";
import type {
  BoardCorrelation,
  PairwiseLeaderboard,
  PairwiseLeaderboardQuery,
  RaterBoard,
  RaterChoice,
} from "./reports.types";

/**
 * The pairwise leaderboard of a set on one aspect (or overall): the chosen raters' Bradley–Terry ranking, and beside it
 * each judge run's (or, for a judge, the people's), with Kendall's τ between the first and each other. Honeypot votes
 * are never ranked and the set's cap on votes per prompt applies; both counts are on each board. A board without votes
 * says so instead of ranking fewer generators; generators of the set a board does not rate are its `unrated`. The
 * numbers depend on the set's verdicts and the query only, never on who asks (a reviewer with blind pairs left gets
 * none: `requireWholePairSet`).
 */
export async function pairwiseLeaderboard(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
  query: Pick<PairwiseLeaderboardQuery, "aspect" | "raters" | "draws" | "seed" | "minVotes" | "tieModel">,
): Promise<PairwiseLeaderboard> {
  const pairSet = await readPairSetHeader(prisma, access, pairSetId);
  const aspect = boardAspect(pairSet.aspects, query.aspect);
  await requireWholePairSet(prisma, access, pairSet, "The pairwise leaderboard");
  const [judgeRuns, labelSets, { generators, honeypotPairs }, allVotes] = await Promise.all([
    judgeRunsOfSet(prisma, access, pairSetId),
    labelSetsOfSet(prisma, access, pairSetId),
    setGenerators(prisma, access, pairSetId),
    loadVotes(prisma, access, { pairSetId, aspect: aspect.pooled ? undefined : aspect.id }),
  ]);
  const votes = votesOfAspect(allVotes, aspect);
  const options: RankingOptions = {
    tieModel: query.tieModel,
    bootstrapDraws: query.draws,
    seed: query.seed,
    minVotes: query.minVotes,
  };
  const labelOf = (raters: RaterChoice) => raterLabel(raters, judgeRuns, labelSets);
  const ranked = boardChoices(query.raters, judgeRuns, labelSets).map((raters) =>
    raterBoard(votesOfRaters(votes, raters), raters, labelOf(raters), {
      generators,
      options,
      cap: pairSet.votesPerPromptCap,
    }),
  );
  const [first, ...others] = ranked;
  const correlations = others.map((other) => correlationOf(first!, other, options));
  const boards = ranked.map((entry) => entry.board);
  return { pairSet, aspect, boards, correlations, honeypotPairs, generators, judgeRuns, labelSets };
}

/**
 * The boards shown: the chosen raters', then beside people (or gold) each judge run and label set, or beside a judge
 * run or label set the people.
 */
function boardChoices(
  chosen: RaterChoice,
  judgeRuns: readonly { id: string }[],
  labelSets: readonly { id: string }[],
): RaterChoice[] {
  if (chosen === "all") return ["all"];
  if (chosen === "people" || chosen === "gold")
    return [
      chosen,
      ...judgeRuns.map((run): RaterChoice => `judge:${run.id}`),
      ...labelSets.map((set): RaterChoice => `labelset:${set.id}`),
    ];
  return [chosen, "people"];
}

function raterLabel(
  raters: RaterChoice,
  judgeRuns: readonly { id: string; label: string }[],
  labelSets: readonly { id: string; label: string }[],
): string {
  if (raters === "people") return "People";
  if (raters === "gold") return "Gold verdicts";
  if (raters === "all") return "All people, judges and label sets";
  if (raters.startsWith("labelset:")) {
    const id = raters.slice("labelset:".length);
    return `Label set: ${labelSets.find((set) => set.id === id)?.label ?? id}`;
  }
  const runId = raters.slice("judge:".length);
  return judgeRuns.find((run) => run.id === runId)?.label ?? `Judge run ${runId}`;
}

/** A board with the votes it ranked (kept beside it for Kendall's τ, whose interval refits both on the same draws). */
interface RankedBoard {
  board: RaterBoard;
  votes: readonly Vote[];
}

function raterBoard(
  votes: readonly Vote[],
  raters: RaterChoice,
  label: string,
  context: { generators: readonly string[]; options: RankingOptions; cap: number | null },
): RankedBoard {
  const honeypotVotesLeftOut = votes.filter((vote) => vote.honeypot).length;
  const counted = votes.filter((vote) => !vote.honeypot);
  const capped = context.cap === null ? { votes: counted, dropped: 0 } : capVotesPerPrompt(counted, context.cap);
  const counts = { raters, label, honeypotVotesLeftOut, cappedVotesDropped: capped.dropped };
  if (capped.votes.length === 0) {
    const reason = withheldReason(raters, votes.length, honeypotVotesLeftOut);
    return { board: { ...counts, status: "withheld", reason }, votes: [] };
  }
  const ranking = rankVotes(capped.votes, { ...context.options, generators: context.generators });
  const rated = new Set(ranking.ratings.map((rating) => rating.generator));
  const unrated = [...new Set([...ranking.unrated, ...context.generators.filter((g) => !rated.has(g))])].sort();
  return { board: { ...counts, status: "ranked", ranking: { ...ranking, unrated } }, votes: capped.votes };
}

function withheldReason(raters: RaterChoice, votes: number, honeypotVotes: number): string {
  const who =
    raters === "people"
      ? "No person"
      : raters === "gold"
        ? "No gold verdict"
        : raters === "all"
          ? "No person, judge or label set"
          : raters.startsWith("labelset:")
            ? "This label set"
            : "This judge run";
  const said = raters.includes(":") ? `${who} has no verdict here yet` : `${who} has given a verdict here yet`;
  if (votes > 0 && votes === honeypotVotes)
    return `${said} except on honeypot pairs, which are never ranked: no ranking to show.`;
  return `${said}: no ranking to show.`;
}

function correlationOf(first: RankedBoard, other: RankedBoard, options: RankingOptions): BoardCorrelation {
  const base = { raters: other.board.raters, label: other.board.label };
  if (first.board.status !== "ranked" || other.board.status !== "ranked")
    return { ...base, correlation: null, reason: "One of the two boards has no ranking." };
  const correlation = rankingCorrelation(first.votes, other.votes, options);
  if (correlation.generators < 2)
    return { ...base, correlation, reason: "The two rankings share fewer than two generators." };
  return { ...base, correlation, reason: null };
}
