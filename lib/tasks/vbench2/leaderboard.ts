/**
 * VBench-2.0's generator leaderboard: the videos' generators (their `model`) ranked by VBench's total (the mean of
 * the five category means, a missing dimension counting 0), with bootstrap 95% intervals over prompts for every
 * dimension, category and the total, every pair compared over the prompts both have (lib/leaderboard), and the
 * rankings by FrameJury's judge, by VBench's own results and by people set side by side with Kendall's τ.
 *
 * The main table takes each dimension from the judge where FrameJury judges it and from VBench's results where it
 * does not (the six imported dimensions). People's ranking takes a video's value from their answers where they
 * answered any of its questions, else the judge's, as the results page's people column does. Each generator's
 * dimension score is the run's rule (results-score.ts: Motion_Order_Understanding is 0 past 90% of videos at -1),
 * so a generator's own total is its own run's total.
 *
 * A ranking is computed from every video or not shown: while the caller reviews any of the run's videos in a blind
 * queue, the whole leaderboard (and its CSV and LaTeX) is withheld with a WithheldError (lib/visibility/withheld).
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import {
  buildLeaderboard,
  kendallTau,
  type LeaderboardResult,
  type LeaderboardRow,
} from "../../leaderboard/leaderboard";
import { requireWholeView } from "../../visibility/withheld";
import type { VideoValue } from "./dimension";
import { vbench2RunResults, type Vbench2Results } from "./results";
import { vbench2DimensionScore } from "./results-score";
import { ALL_DIMENSIONS, VBENCH2_CATEGORIES } from "./vbench2-dimensions";
import { videoIdsOf } from "./visible-results";

export type LeaderboardSource = "judge" | "vbench" | "humans";

export interface Vbench2LeaderboardOptions {
  runId: string;
  labelSetId?: string | null;
  samples?: number;
  seed?: number;
}

export interface Vbench2Leaderboard {
  runId: string;
  labelSetId: string | null;
  /** The main table: each dimension's source is the judge where FrameJury judges it, else VBench. */
  result: LeaderboardResult;
  generators: {
    model: string;
    rank: number;
    /** `n`: videos counted; `excluded`: videos at -1 (the dimension's rule may turn many of them into a 0). */
    dimensions: Record<
      string,
      {
        score: number | null;
        lower: number | null;
        upper: number | null;
        n: number;
        excluded: number;
        source: LeaderboardSource;
      }
    >;
    categories: LeaderboardResult["generators"][number]["categories"];
    total: LeaderboardResult["generators"][number]["total"];
  }[];
  pairs: LeaderboardResult["pairs"];
  /** Each source's ranking (best first), for the sources that have values. */
  rankings: Partial<Record<LeaderboardSource, string[]>>;
  kendallTau: { a: LeaderboardSource; b: LeaderboardSource; tau: number | null }[];
  /** Video values left out: no generator (model). */
  leftOut: { withoutModel: number };
}

type Dimension = Vbench2Results["dimensions"][number];
type Video = Dimension["videos"][number];
const promptKey = (video: Video) => video.prompt ?? video.videoPath;

/** One row per video the source has (a value, -1 or none yet), so each generator's score follows the run's rule; null: the source has nothing. */
function rowsOf(
  results: Vbench2Results,
  pick: (dimension: Dimension, video: Video) => VideoValue | null,
): LeaderboardRow[] {
  const rows: LeaderboardRow[] = [];
  for (const dimension of results.dimensions) {
    for (const video of dimension.videos) {
      const value = video.model ? pick(dimension, video) : null;
      if (value)
        rows.push({
          generator: video.model!,
          promptKey: promptKey(video),
          dimension: dimension.dimension,
          value: value.value,
          excluded: value.excludedReason !== null,
        });
    }
  }
  return rows;
}

const judgeValue = (video: Video): VideoValue => ({ value: video.value, excludedReason: video.excludedReason });
const vbenchValue = (video: Video): VideoValue | null =>
  video.vbenchValue === null
    ? null
    : video.vbenchValue === -1
      ? { value: null, excludedReason: "VBench gave -1" }
      : { value: video.vbenchValue, excludedReason: null };
const humanValue = (video: Video): VideoValue =>
  video.humanValue !== null || video.humanExcludedReason !== null
    ? { value: video.humanValue, excludedReason: video.humanExcludedReason }
    : judgeValue(video);

export async function vbench2Leaderboard(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  options: Vbench2LeaderboardOptions,
): Promise<Vbench2Leaderboard> {
  const results = await vbench2RunResults(prisma, projectId, options.runId, { labelSetId: options.labelSetId ?? null });
  await requireWholeView(prisma, actor.userId, videoIdsOf(results), "The VBench-2.0 leaderboard");
  const build = (rows: LeaderboardRow[]) =>
    buildLeaderboard({
      rows,
      dimensions: ALL_DIMENSIONS,
      categories: VBENCH2_CATEGORIES,
      missingCountsZero: true,
      scoreRule: vbench2DimensionScore,
      bootstrap: { samples: options.samples ?? 1000, seed: options.seed ?? 1 },
    });
  const main = build(rowsOf(results, (d, v) => (d.source === "judge" ? judgeValue(v) : vbenchValue(v))));
  const sourceRows: Record<LeaderboardSource, LeaderboardRow[]> = {
    judge: rowsOf(results, (d, v) => (d.source === "judge" ? judgeValue(v) : null)),
    vbench: rowsOf(results, (_d, v) => vbenchValue(v)),
    humans: rowsOf(results, (d, v) => (d.source === "judge" ? humanValue(v) : null)),
  };
  const answeredByPeople = results.dimensions.some((d) => d.humanN > 0);
  const rankings: Partial<Record<LeaderboardSource, string[]>> = {};
  for (const source of ["judge", "vbench", "humans"] as const) {
    if (sourceRows[source].length === 0 || (source === "humans" && !answeredByPeople)) continue;
    rankings[source] = build(sourceRows[source]).ranking;
  }
  const sources = Object.keys(rankings) as LeaderboardSource[];
  const taus = sources.flatMap((a, i) =>
    sources.slice(i + 1).map((b) => ({ a, b, tau: kendallTau(rankings[a]!, rankings[b]!) })),
  );
  const sourceOf = (dimension: string): LeaderboardSource =>
    results.dimensions.find((d) => d.dimension === dimension)?.source === "judge" ? "judge" : "vbench";
  const videos = results.dimensions.flatMap((d) => d.videos);
  return {
    runId: options.runId,
    labelSetId: options.labelSetId ?? null,
    result: main,
    generators: main.generators.map((g) => ({
      model: g.model,
      rank: g.rank,
      dimensions: Object.fromEntries(
        Object.entries(g.dimensions).map(([dimension, cell]) => [
          dimension,
          {
            score: cell.score,
            lower: cell.lower,
            upper: cell.upper,
            n: cell.n,
            excluded: cell.excluded,
            source: sourceOf(dimension),
          },
        ]),
      ),
      categories: g.categories,
      total: g.total,
    })),
    pairs: main.pairs,
    rankings,
    kendallTau: taus,
    leftOut: { withoutModel: videos.filter((v) => !v.model).length },
  };
}
