import { ValidationError } from "../../errors";
import type { Verdict, Vote } from "../verdicts";
import type { RaterQuality } from "./agreement.types";
import { unitKey } from "./preference-agreement";
import { compareCodeUnits } from "./prompt-bootstrap";

/**
 * A rater is said to always give the same verdict only from this many verdicts on: one or two equal verdicts are
 * what anyone gives by chance.
 */
export const ALWAYS_SAME_MIN_VERDICTS = 3;

/** A honeypot pairs a video with a visibly broken copy of itself as B: the expected verdict is A. */
export const HONEYPOT_EXPECTED: Verdict = "A";

export interface RaterQualityOptions {
  /** Gold verdicts; by default the votes' own raterKind "gold" verdicts. */
  gold?: readonly Vote[];
}

/** Whether the verdict chose the video shown on the left; null for ties and when the side is not recorded. */
function choseLeft(vote: Vote): boolean | null {
  if (vote.aShownOn === null || (vote.verdict !== "A" && vote.verdict !== "B")) return null;
  return (vote.verdict === "A") === (vote.aShownOn === "left");
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function qualityOf(rater: string, votes: readonly Vote[], gold: ReadonlyMap<string, Verdict>): RaterQuality {
  const honeypots = { answered: 0, correct: 0 };
  const agreement = { answered: 0, agreed: 0 };
  let sided = 0;
  let left = 0;
  const ms: number[] = [];
  for (const vote of votes) {
    if (vote.honeypot) {
      honeypots.answered++;
      if (vote.verdict === HONEYPOT_EXPECTED) honeypots.correct++;
    }
    const goldVerdict = gold.get(unitKey(vote));
    if (goldVerdict !== undefined) {
      agreement.answered++;
      if (goldVerdict === vote.verdict) agreement.agreed++;
    }
    const isLeft = choseLeft(vote);
    if (isLeft !== null) {
      sided++;
      if (isLeft) left++;
    }
    if (vote.msToVerdict !== null) ms.push(vote.msToVerdict);
  }
  const first = votes[0]!.verdict;
  const alwaysSame =
    votes.length >= ALWAYS_SAME_MIN_VERDICTS && votes.every((vote) => vote.verdict === first) ? first : null;
  return {
    rater,
    raterKind: votes[0]!.raterKind as RaterQuality["raterKind"],
    verdicts: votes.length,
    honeypots,
    gold: agreement,
    leftRate: sided === 0 ? null : left / sided,
    medianMsPerVerdict: median(ms),
    alwaysSame,
  };
}

/**
 * Per rater (every rater but the gold, in code-unit order): honeypots answered and answered A, agreement with the
 * gold verdict of the same pair and aspect (four-way), the share of A-or-B verdicts that chose the video shown on
 * the left (ties and verdicts with no recorded side left out), the median time per verdict, and the verdict a rater
 * gave every time (from ALWAYS_SAME_MIN_VERDICTS verdicts on), so an "always A" rater shows as such.
 */
export function raterQuality(votes: readonly Vote[], options: RaterQualityOptions = {}): RaterQuality[] {
  const goldVotes = options.gold ?? votes.filter((vote) => vote.raterKind === "gold");
  const gold = new Map<string, Verdict>();
  for (const vote of goldVotes) gold.set(unitKey(vote), vote.verdict);
  const byRater = new Map<string, Vote[]>();
  for (const vote of votes) {
    if (vote.raterKind === "gold") continue;
    const list = byRater.get(vote.raterId);
    if (list) list.push(vote);
    else byRater.set(vote.raterId, [vote]);
  }
  return [...byRater.keys()].sort(compareCodeUnits).map((rater) => qualityOf(rater, byRater.get(rater)!, gold));
}

export interface CappedVotes {
  votes: Vote[];
  /** Verdicts left out because their (prompt, rater, aspect) had `cap` verdicts already; the caller shows it. */
  dropped: number;
}

/**
 * Keeps at most `cap` verdicts per (prompt, rater, aspect), so that one prompt a rater answered many pairs of does
 * not outweigh the others. Which ones are kept does not depend on the input's order: the first `cap` by pair id (then
 * by their order in the input, for two verdicts of one pair). Kept verdicts stay in the input's order.
 */
export function capVotesPerPrompt(votes: readonly Vote[], cap: number): CappedVotes {
  if (!Number.isInteger(cap) || cap < 1)
    throw new ValidationError(`cap must be a whole number of 1 or more, not ${cap}`);
  const groups = new Map<string, number[]>();
  votes.forEach((vote, index) => {
    const key = `${vote.prompt}\u0000${vote.raterId}\u0000${vote.aspect}`;
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  });
  const keep = new Uint8Array(votes.length);
  for (const indices of groups.values()) {
    indices.sort((x, y) => compareCodeUnits(votes[x]!.pairId, votes[y]!.pairId) || x - y);
    for (const index of indices.slice(0, cap)) keep[index] = 1;
  }
  const kept = votes.filter((_, index) => keep[index] === 1);
  return { votes: kept, dropped: votes.length - kept.length };
}
