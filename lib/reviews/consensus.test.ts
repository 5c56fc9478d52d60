import { describe, expect, it } from "vitest";
import { consensusOf } from "./consensus";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

describe("consensusOf", () => {
  it("takes the median of scores and overalls", () => {
    expect(consensusOf("score", [7], null, BUILT_IN_DECLARATIONS.tasks)).toBe(7);
    expect(consensusOf("score", [2, 9, 3], null, BUILT_IN_DECLARATIONS.tasks)).toBe(3);
    expect(consensusOf("overall", [60, 80], null, BUILT_IN_DECLARATIONS.tasks)).toBe(70);
    expect(consensusOf("score", [10, 0, 4, 6], null, BUILT_IN_DECLARATIONS.tasks)).toBe(5);
  });
  it("takes the majority of verdicts, and no consensus on a tie", () => {
    expect(consensusOf("verdict", [1, 1, 0], null, BUILT_IN_DECLARATIONS.tasks)).toBe(1);
    expect(consensusOf("verdict", [0, 0, 1], null, BUILT_IN_DECLARATIONS.tasks)).toBe(0);
    expect(consensusOf("verdict", [1, 0], null, BUILT_IN_DECLARATIONS.tasks)).toBeNull();
  });
  it("is null without values", () => {
    expect(consensusOf("score", [], null, BUILT_IN_DECLARATIONS.tasks)).toBeNull();
    expect(consensusOf("verdict", [], null, BUILT_IN_DECLARATIONS.tasks)).toBeNull();
  });
});
