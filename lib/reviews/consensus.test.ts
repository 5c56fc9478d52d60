import { describe, expect, it } from "vitest";
import { consensusOf } from "./consensus";

describe("consensusOf", () => {
  it("takes the median of scores and overalls", () => {
    expect(consensusOf("score", [7])).toBe(7);
    expect(consensusOf("score", [2, 9, 3])).toBe(3);
    expect(consensusOf("overall", [60, 80])).toBe(70);
    expect(consensusOf("score", [10, 0, 4, 6])).toBe(5);
  });
  it("takes the majority of verdicts, and no consensus on a tie", () => {
    expect(consensusOf("verdict", [1, 1, 0])).toBe(1);
    expect(consensusOf("verdict", [0, 0, 1])).toBe(0);
    expect(consensusOf("verdict", [1, 0])).toBeNull();
  });
  it("is null without values", () => {
    expect(consensusOf("score", [])).toBeNull();
    expect(consensusOf("verdict", [])).toBeNull();
  });
});
