import { describe, expect, it } from "vitest";
import { disagreesWithJudge } from "./disagreement";

describe("disagreesWithJudge", () => {
  it("uses a gap of 2 on 0–10 scores", () => {
    expect(disagreesWithJudge("score", 7, 6)).toBe(false);
    expect(disagreesWithJudge("score", 8, 6)).toBe(true);
    expect(disagreesWithJudge("score", 4, 6)).toBe(true);
    expect(disagreesWithJudge("score", 4.5, 6)).toBe(false);
  });
  it("counts any difference on the verdict and 10 points on overall", () => {
    expect(disagreesWithJudge("verdict", 1, 0)).toBe(true);
    expect(disagreesWithJudge("verdict", 1, 1)).toBe(false);
    expect(disagreesWithJudge("overall", 70, 61)).toBe(false);
    expect(disagreesWithJudge("overall", 71, 61)).toBe(true);
  });
  it("never disagrees with a judge value that does not exist", () => {
    expect(disagreesWithJudge("verdict", 1, null)).toBe(false);
  });
});
