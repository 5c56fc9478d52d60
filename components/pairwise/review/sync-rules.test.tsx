import { describe, expect, it } from "vitest";
import { seededRandom, seedOf } from "./broken-rendering";
import { correctedRate } from "./synced-players";

describe("the follower's correction", () => {
  it("keeps rate 1 within a quarter of a frame, speeds up behind and slows down ahead, bounded", () => {
    expect(correctedRate(0.01, 24, true)).toBe(1);
    expect(correctedRate(0.02, 24, true)).toBeCloseTo(1.16);
    expect(correctedRate(0.05, 24, true)).toBeCloseTo(1.4);
    expect(correctedRate(-0.05, 24, true)).toBeCloseTo(0.6);
    expect(correctedRate(2, 24, true)).toBe(1.75);
    expect(correctedRate(0.1, 24, false)).toBe(1);
  });
});

describe("a honeypot's breakage", () => {
  it("is the same for every showing of a pair and differs between pairs", () => {
    const draws = (pairId: string) => Array.from({ length: 5 }, seededRandom(seedOf(pairId)));
    expect(draws("pair-1")).toEqual(draws("pair-1"));
    expect(draws("pair-1")).not.toEqual(draws("pair-2"));
    for (const value of draws("pair-3")) expect(value >= 0 && value < 1).toBe(true);
  });
});
