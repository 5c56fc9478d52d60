import { describe, expect, it } from "vitest";
import { discordantCounts, mcnemarTest } from "./mcnemar";

describe("mcnemarTest, against worked examples", () => {
  it("exact: b = 1, c = 5 gives 2·P(X ≤ 1 | n = 6, ½) = 2·(1 + 6)/64 = 0.21875", () => {
    expect(mcnemarTest(1, 5)).toMatchObject({ method: "exact", statistic: null });
    expect(mcnemarTest(1, 5).p).toBeCloseTo(14 / 64, 12);
    expect(mcnemarTest(0, 0).p).toBe(1);
  });

  it("chi-square with continuity correction: b = 150, c = 86 gives (64 − 1)²/236 = 16.818, p ≈ 4.11e-5", () => {
    const r = mcnemarTest(150, 86);
    expect(r.method).toBe("chi_square");
    expect(r.statistic).toBeCloseTo(3969 / 236, 10);
    expect(r.p).toBeGreaterThan(4.0e-5);
    expect(r.p).toBeLessThan(4.2e-5);
  });

  it("counts discordant pairs only over items both have", () => {
    const a = new Map([
      ["v1", true],
      ["v2", true],
      ["v3", false],
      ["v4", false],
    ]);
    const b = new Map([
      ["v1", false],
      ["v2", true],
      ["v3", true],
      ["v5", true],
    ]);
    expect(discordantCounts(a, b)).toEqual({ b: 1, c: 1, n: 3 });
  });
});
