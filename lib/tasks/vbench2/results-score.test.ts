/**
 * One rule per VBench-2.0 dimension score: the run's (vbench2ScoreOf over its videos' values) and a generator's on the
 * leaderboard (buildLeaderboard with vbench2DimensionScore) are the same numbers from the same videos, the
 * Motion_Order_Understanding rule included (motion_order_understanding.py: `count > 0.9 * len(video_results)` → 0).
 */
import { describe, expect, it } from "vitest";
import { buildLeaderboard, type LeaderboardRow } from "../../leaderboard/leaderboard";
import type { VideoValue } from "./dimension";
import { vbench2DimensionScore, vbench2ScoreOf } from "./results-score";
import { ALL_DIMENSIONS, VBENCH2_CATEGORIES } from "./vbench2-dimensions";

const minusOne: VideoValue = { value: null, excludedReason: "VBench gave -1" };
const value = (v: number): VideoValue => ({ value: v, excludedReason: null });
const unknown: VideoValue = { value: null, excludedReason: null };

/** Each generator's videos of each dimension, one prompt per video. */
const VIDEOS: Record<string, Record<string, VideoValue[]>> = {
  // 10 of 11 at -1: more than 90%, so 0.
  GenA: {
    Motion_Order_Understanding: [...Array<VideoValue>(10).fill(minusOne), value(1)],
    Material: [value(1), value(0), minusOne],
  },
  // 9 of 10 at -1: exactly 90%, so the mean of the one counted.
  GenB: {
    Motion_Order_Understanding: [...Array<VideoValue>(9).fill(minusOne), value(1)],
    Material: [value(1), unknown],
  },
  // 9 of 11 at -1 with one unknown: the unknown counts among the videos (9 > 9.9 is false), not as a -1.
  GenC: { Motion_Order_Understanding: [...Array<VideoValue>(9).fill(minusOne), unknown, value(0)] },
};

function rows(): LeaderboardRow[] {
  return Object.entries(VIDEOS).flatMap(([generator, dimensions]) =>
    Object.entries(dimensions).flatMap(([dimension, values]) =>
      values.map((v, i) => ({
        generator,
        dimension,
        promptKey: `p${i}`,
        value: v.value,
        excluded: v.excludedReason !== null,
      })),
    ),
  );
}

describe("a VBench-2.0 dimension's score", () => {
  it("is 0 past 90% of videos at -1, else the mean of those counted", () => {
    expect(vbench2ScoreOf("Motion_Order_Understanding", VIDEOS.GenA!.Motion_Order_Understanding!)).toBe(0);
    expect(vbench2ScoreOf("Motion_Order_Understanding", VIDEOS.GenB!.Motion_Order_Understanding!)).toBe(1);
    expect(vbench2ScoreOf("Motion_Order_Understanding", VIDEOS.GenC!.Motion_Order_Understanding!)).toBe(0);
    // Material has no such rule: every video at -1 is no score, not 0.
    expect(vbench2ScoreOf("Material", [minusOne, minusOne])).toBeNull();
    expect(vbench2ScoreOf("Material", VIDEOS.GenA!.Material!)).toBe(0.5);
  });

  it("is the same per generator on the leaderboard as per run over that generator's videos", () => {
    const board = buildLeaderboard({
      rows: rows(),
      dimensions: ALL_DIMENSIONS,
      categories: VBENCH2_CATEGORIES,
      missingCountsZero: true,
      scoreRule: vbench2DimensionScore,
      bootstrap: { samples: 200, seed: 5 },
    });
    for (const [generator, dimensions] of Object.entries(VIDEOS)) {
      const cells = board.generators.find((g) => g.model === generator)!.dimensions;
      for (const [dimension, values] of Object.entries(dimensions)) {
        expect(cells[dimension]!.score, `${generator} ${dimension}`).toBe(vbench2ScoreOf(dimension, values));
        expect(cells[dimension]!.excluded).toBe(values.filter((v) => v.excludedReason !== null).length);
      }
    }
    expect(board.generators.find((g) => g.model === "GenA")!.dimensions.Motion_Order_Understanding).toMatchObject({
      score: 0,
      n: 1,
      excluded: 10,
    });
  });
});
