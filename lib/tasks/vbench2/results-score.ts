/**
 * The one rule for a VBench-2.0 dimension's score, from the tally of its videos' values: the dimension's own rule
 * where it has one (Motion_Order_Understanding: 0 when more than 90% of its videos are -1), else the mean of the
 * videos that are not -1, as VBench-2.0's evaluators compute it. A run's score, a generator's on the leaderboard
 * (and every bootstrap draw of it), people's and VBench's own values' all come from here, so they never disagree.
 */
import { meanOfTally, type ScoreTally } from "../../leaderboard/leaderboard";
import { tallyOf, type VideoValue } from "./dimension";
import { DIMENSIONS } from "./dimensions";
import { isJudgedDimension } from "./vbench2-dimensions";

/** A dimension's score from its tally (the leaderboard's `scoreRule`). */
export function vbench2DimensionScore(dimension: string, tally: ScoreTally): number | null {
  const rule = isJudgedDimension(dimension) ? DIMENSIONS[dimension].score : undefined;
  return (rule ?? meanOfTally)(tally);
}

/** A dimension's score from its videos' values. */
export function vbench2ScoreOf(dimension: string, values: readonly VideoValue[]): number | null {
  return vbench2DimensionScore(dimension, tallyOf(values));
}
