import { describe, expect, it } from "vitest";
import { majorityVerdict } from "./pairwise-samples";

const votes = (...verdicts: ("A" | "B" | "tie_good" | "tie_bad")[]) =>
  verdicts.map((verdict) => ({ verdict, strength: 1 as const }));

describe("majorityVerdict", () => {
  it("takes the verdict most samples gave", () => {
    expect(majorityVerdict(votes("A", "A", "B"))).toEqual({ verdict: "A", strength: 1, agreed: 2 });
  });
  it("makes a draw between A and B a both-good tie, and any other draw the most cautious", () => {
    expect(majorityVerdict(votes("A", "B"))).toMatchObject({ verdict: "tie_good", agreed: 0 });
    expect(majorityVerdict(votes("A", "tie_bad"))).toMatchObject({ verdict: "tie_bad", agreed: 1 });
    expect(majorityVerdict(votes("tie_good", "B"))).toMatchObject({ verdict: "tie_good", agreed: 1 });
  });
  it("is strong only when every vote for it was, and gives nothing without votes", () => {
    expect(
      majorityVerdict([
        { verdict: "A", strength: 2 },
        { verdict: "A", strength: 2 },
      ]),
    ).toMatchObject({ strength: 2 });
    expect(
      majorityVerdict([
        { verdict: "A", strength: 2 },
        { verdict: "A", strength: 1 },
      ]),
    ).toMatchObject({ strength: 1 });
    expect(majorityVerdict([])).toBeNull();
  });
});
