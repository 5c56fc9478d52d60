import { describe, expect, it } from "vitest";
import { ValidationError } from "../../errors";
import type { Verdict, Vote } from "../verdicts";
import type { PairCandidate } from "./active.types";
import { differenceVariance, fitLaplace, PRIOR_PRECISION, scoreOfA } from "./laplace-bradley-terry";
import { pairScore, planNextPairs } from "./plan-next-pairs";

let counter = 0;
function vote(generatorA: string, generatorB: string, verdict: Verdict, prompt = "q1"): Vote {
  counter++;
  return {
    pairId: `pair${counter}`,
    prompt,
    aspect: "overall",
    generatorA,
    generatorB,
    raterId: "ann",
    raterKind: "reviewer",
    verdict,
    strength: 1,
    aShownOn: null,
    msToVerdict: null,
    honeypot: false,
  };
}
const many = (n: number, a: string, b: string, verdict: Verdict, prompt = "q1") =>
  Array.from({ length: n }, () => vote(a, b, verdict, prompt));
const candidate = (prompt: string, generatorA: string, generatorB: string, pairId: string | null = null) => ({
  prompt,
  generatorA,
  generatorB,
  pairId,
});

describe("the Laplace Bradley–Terry fit", () => {
  it("solves the two-generator case: 7 wins and a tie of 10 against the prior's pull, by bisection", () => {
    const votes = [...many(7, "x", "y", "A"), ...many(2, "x", "y", "B"), vote("x", "y", "tie_good")];
    const fit = fitLaplace(votes, ["x", "y"]);
    // θ_x = −θ_y = t with 7.5 − 10·σ(2t) − λ·t = 0 (the score equation of θ_x).
    const f = (t: number) => 7.5 - 10 / (1 + Math.exp(-2 * t)) - PRIOR_PRECISION * t;
    let lo = 0;
    let hi = 5;
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (f(mid) > 0) lo = mid;
      else hi = mid;
    }
    expect(fit.theta[0]).toBeCloseTo(lo, 9);
    expect(fit.theta[1]).toBeCloseTo(-lo, 9);
    // Var(θ_x − θ_y) from the 2 × 2 Hessian [[w + λ, −w], [−w, w + λ]], w = 10·p(1 − p): 2 / (2w + λ).
    const p = 1 / (1 + Math.exp(-2 * lo));
    const w = 10 * p * (1 - p);
    expect(differenceVariance(fit, 0, 1)).toBeCloseTo(2 / (2 * w + PRIOR_PRECISION), 9);
  });

  it("keeps an undefeated generator finite and a generator with no vote at the prior's variance", () => {
    const fit = fitLaplace(many(5, "x", "y", "A"), ["x", "y", "z"]);
    expect(Number.isFinite(fit.theta[0])).toBe(true);
    expect(fit.covariance[2 * 3 + 2]).toBeCloseTo(1 / PRIOR_PRECISION, 9);
  });

  it("reads verdicts as the first generator's score", () => {
    expect(["A", "B", "tie_good", "tie_bad"].map((v) => scoreOfA(v as Verdict))).toEqual([1, 0, 0.5, 0.5]);
  });
});

describe("planNextPairs", () => {
  // a and b compared often and close; c never compared.
  const votes = [...many(20, "a", "b", "A"), ...many(18, "a", "b", "B")];
  const candidates: PairCandidate[] = [
    candidate("q1", "a", "b", "ab1"),
    candidate("q2", "a", "b", "ab2"),
    candidate("q1", "a", "c", "ac1"),
    candidate("q2", "b", "c", "bc2"),
    candidate("q1", "b", "c", "bc1"),
  ];

  it("takes the pairs with a generator never compared first (variance reduction), then spreads", () => {
    const plan = planNextPairs(votes, candidates, { n: 5, rule: "variance_reduction" });
    expect(plan.rule).toBe("variance_reduction");
    expect(plan.pairs).toHaveLength(5);
    const first = plan.pairs[0]!;
    expect([first.generatorA, first.generatorB]).toContain("c");
    expect(plan.pairs.slice(0, 3).every((p) => p.generatorA === "c" || p.generatorB === "c")).toBe(true);
    for (let i = 1; i < plan.pairs.length; i++) {
      expect(plan.pairs[i]!.score).toBeGreaterThan(0);
    }
    // Every candidate once.
    expect(new Set(plan.pairs.map((p) => p.pairId)).size).toBe(5);
  });

  it("scores a pair with √V · (1 − √(n / (n + 1)))", () => {
    const fit = fitLaplace(votes, ["a", "b", "c"]);
    const v = differenceVariance(fit, 0, 1);
    expect(pairScore(fit, "variance_reduction", 0, 1, 38)).toBeCloseTo(Math.sqrt(v) * (1 - Math.sqrt(38 / 39)), 12);
    expect(pairScore(fit, "variance_reduction", 0, 2, 0)).toBeCloseTo(Math.sqrt(differenceVariance(fit, 0, 2)), 12);
  });

  it("scores information gain with ½·log(1 + p(1 − p)·V)", () => {
    const fit = fitLaplace(votes, ["a", "b", "c"]);
    const p = 1 / (1 + Math.exp(-(fit.theta[0]! - fit.theta[1]!)));
    const expected = 0.5 * Math.log(1 + p * (1 - p) * differenceVariance(fit, 0, 1));
    expect(pairScore(fit, "information_gain", 0, 1, 38)).toBeCloseTo(expected, 12);
    const plan = planNextPairs(votes, candidates, { n: 2, rule: "information_gain" });
    expect(plan.pairs.map((p) => p.generatorB)).toEqual(["c", "c"]);
  });

  it("gives the same plan whatever the order of votes and candidates", () => {
    const plan = planNextPairs(votes, candidates, { n: 4, rule: "variance_reduction" });
    const shuffled = planNextPairs([...votes].reverse(), [...candidates].reverse(), {
      n: 4,
      rule: "variance_reduction",
    });
    expect(shuffled).toEqual(plan);
  });

  it("within a generator pair, takes the prompt with the fewest verdicts first", () => {
    const abVotes = [...many(3, "a", "b", "A", "q1"), ...many(1, "a", "b", "B", "q2")];
    const plan = planNextPairs(abVotes, [candidate("q1", "a", "b", "x1"), candidate("q2", "a", "b", "x2")], {
      n: 2,
      rule: "variance_reduction",
    });
    expect(plan.pairs.map((p) => p.pairId)).toEqual(["x2", "x1"]);
  });

  it("stops when the candidates run out, and plans nothing for n = 0", () => {
    expect(planNextPairs(votes, candidates, { n: 50, rule: "variance_reduction" }).pairs).toHaveLength(5);
    expect(planNextPairs(votes, candidates, { n: 0, rule: "variance_reduction" }).pairs).toEqual([]);
    expect(planNextPairs([], [], { n: 3, rule: "information_gain" }).pairs).toEqual([]);
  });

  it("works with __proto__ as a generator name", () => {
    const plan = planNextPairs(many(3, "__proto__", "b", "A"), [candidate("q", "__proto__", "b")], {
      n: 1,
      rule: "variance_reduction",
    });
    expect(plan.pairs[0]).toMatchObject({ generatorA: "__proto__", generatorB: "b" });
  });

  it("refuses bad options and a candidate of a generator with itself", () => {
    expect(() => planNextPairs(votes, candidates, { n: -1, rule: "variance_reduction" })).toThrow(ValidationError);
    expect(() => planNextPairs(votes, candidates, { n: 1, rule: "nope" as "information_gain" })).toThrow(
      ValidationError,
    );
    expect(() => planNextPairs(votes, [candidate("q", "a", "a")], { n: 1, rule: "variance_reduction" })).toThrow(
      ValidationError,
    );
  });
});
