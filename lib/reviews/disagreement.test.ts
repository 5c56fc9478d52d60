import { describe, expect, it } from "vitest";
import { disagreesWithJudge } from "./disagreement";
import { judgmentDeclaration } from "./judgment-target";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

describe("disagreesWithJudge", () => {
  it("uses a gap of 2 on 0–10 scores", () => {
    expect(disagreesWithJudge(judgmentDeclaration("score", null, BUILT_IN_DECLARATIONS.tasks), 7, 6)).toBe(false);
    expect(disagreesWithJudge(judgmentDeclaration("score", null, BUILT_IN_DECLARATIONS.tasks), 8, 6)).toBe(true);
    expect(disagreesWithJudge(judgmentDeclaration("score", null, BUILT_IN_DECLARATIONS.tasks), 4, 6)).toBe(true);
    expect(disagreesWithJudge(judgmentDeclaration("score", null, BUILT_IN_DECLARATIONS.tasks), 4.5, 6)).toBe(false);
  });
  it("counts any difference on the verdict and 10 points on overall", () => {
    expect(disagreesWithJudge(judgmentDeclaration("verdict", null, BUILT_IN_DECLARATIONS.tasks), 1, 0)).toBe(true);
    expect(disagreesWithJudge(judgmentDeclaration("verdict", null, BUILT_IN_DECLARATIONS.tasks), 1, 1)).toBe(false);
    expect(disagreesWithJudge(judgmentDeclaration("overall", null, BUILT_IN_DECLARATIONS.tasks), 70, 61)).toBe(false);
    expect(disagreesWithJudge(judgmentDeclaration("overall", null, BUILT_IN_DECLARATIONS.tasks), 71, 61)).toBe(true);
  });
  it("never disagrees with a judge value that does not exist", () => {
    expect(disagreesWithJudge(judgmentDeclaration("verdict", null, BUILT_IN_DECLARATIONS.tasks), 1, null)).toBe(false);
  });
});
