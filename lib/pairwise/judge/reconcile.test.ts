import { describe, expect, it } from "vitest";
import { inPairTerms, reconcileOrders } from "./reconcile";
import { judgeTrust, type TrustAnswer } from "./judge-trust";

const v = (verdict: "A" | "B" | "tie_good" | "tie_bad" | null, strength: 1 | 2 | null = verdict ? 1 : null) => ({
  verdict,
  strength,
});

describe("reconcileOrders", () => {
  it("keeps a verdict both orders agree on, strong only when both were", () => {
    expect(reconcileOrders(v("A", 2), v("A", 2))).toEqual({ verdict: "A", strength: 2, basis: "agreed" });
    expect(reconcileOrders(v("A", 2), v("A", 1))).toEqual({ verdict: "A", strength: 1, basis: "agreed" });
    expect(reconcileOrders(v("tie_bad"), v("tie_bad"))).toMatchObject({ verdict: "tie_bad", basis: "agreed" });
  });

  it("makes opposite winners a both-good tie counted as a flip", () => {
    expect(reconcileOrders(v("A"), v("B"))).toEqual({ verdict: "tie_good", strength: 1, basis: "flip" });
    expect(reconcileOrders(v("B"), v("A"))).toMatchObject({ verdict: "tie_good", basis: "flip" });
  });

  it("keeps the tie when one order names a winner and the other a tie", () => {
    expect(reconcileOrders(v("A"), v("tie_bad"))).toMatchObject({ verdict: "tie_bad", basis: "mixed" });
    expect(reconcileOrders(v("tie_good"), v("B"))).toMatchObject({ verdict: "tie_good", basis: "mixed" });
    expect(reconcileOrders(v("tie_good"), v("tie_bad"))).toMatchObject({ verdict: "tie_bad", basis: "mixed" });
  });

  it("takes the one order with a verdict, and gives none when neither has one", () => {
    expect(reconcileOrders(v(null), v("B", 2))).toEqual({ verdict: "B", strength: 2, basis: "single_order" });
    expect(reconcileOrders(v("A"), v(null))).toMatchObject({ verdict: "A", basis: "single_order" });
    expect(reconcileOrders(v(null), v(null))).toEqual({ verdict: null, strength: null, basis: "no_verdict" });
  });

  it("un-swaps the BA order's verdict into the pair's terms", () => {
    expect(inPairTerms("AB", "A")).toBe("A");
    expect(inPairTerms("BA", "A")).toBe("B");
    expect(inPairTerms("BA", "B")).toBe("A");
    expect(inPairTerms("BA", "tie_bad")).toBe("tie_bad");
  });
});

describe("judgeTrust", () => {
  it("counts flips, first-position wins and answers without a verdict per aspect", () => {
    const answers: TrustAnswer[] = [
      // p1: the judge always picks the first video shown: a flip, both answers first-position wins.
      { pairId: "p1", aspect: "overall", order: "AB", verdict: "A" },
      { pairId: "p1", aspect: "overall", order: "BA", verdict: "B" },
      // p2: consistent A: one first-position win (AB), one second (BA).
      { pairId: "p2", aspect: "overall", order: "AB", verdict: "A" },
      { pairId: "p2", aspect: "overall", order: "BA", verdict: "A" },
      // p3: one order without a verdict.
      { pairId: "p3", aspect: "overall", order: "AB", verdict: null },
      { pairId: "p3", aspect: "overall", order: "BA", verdict: "tie_good" },
      { pairId: "p1", aspect: "physics", order: "AB", verdict: "tie_bad" },
    ];
    const [overall, physics] = judgeTrust(answers);
    expect(overall).toMatchObject({
      aspect: "overall",
      answers: 6,
      answersWithoutVerdict: 1,
      pairsBothOrders: 2,
      positionFlips: 1,
      positionFlipRate: 0.5,
      inconsistentPairs: 1,
      decidedAnswers: 4,
      firstPositionWins: 3,
      firstPositionWinShare: 0.75,
    });
    expect(physics).toMatchObject({ aspect: "physics", pairsBothOrders: 0, positionFlipRate: null });
    expect(physics!.firstPositionWinShare).toBeNull();
  });
});
