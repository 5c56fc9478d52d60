import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatCost,
  formatInterval,
  formatPercent,
  formatPValue,
  formatScore,
  formatSeconds,
  formatStatistic,
  MISSING,
} from "./numbers";

describe("number formatting: one precision per kind", () => {
  it("shows statistics (κ, α, F1) with 2 decimals, missing ones as a dash", () => {
    expect(formatStatistic(0.41666)).toBe("0.42");
    expect(formatStatistic(-0.1)).toBe("-0.10");
    expect(formatStatistic(1)).toBe("1.00");
    expect(formatStatistic(null)).toBe(MISSING);
    expect(formatStatistic(Number.NaN)).toBe(MISSING);
    expect(formatInterval([0.123, 0.987])).toBe("[0.12, 0.99]");
    expect(formatInterval(null)).toBe("");
  });

  it("shows percentages of a proportion with 1 decimal", () => {
    expect(formatPercent(0.1234)).toBe("12.3%");
    expect(formatPercent(1)).toBe("100.0%");
    expect(formatPercent(0)).toBe("0.0%");
    expect(formatPercent(undefined)).toBe(MISSING);
  });

  it("shows scores with at most 2 decimals and no trailing zeros, whole scores as integers", () => {
    expect(formatScore(7)).toBe("7");
    expect(formatScore(75.0)).toBe("75");
    expect(formatScore(5.1)).toBe("5.1");
    expect(formatScore(6.25)).toBe("6.25");
    expect(formatScore(6.04)).toBe("6.04");
    expect(formatScore(5.125)).toBe("5.13");
    expect(formatScore(5.999)).toBe("6");
    expect(formatScore(-0.001)).toBe("0");
    expect(formatScore(null)).toBe(MISSING);
  });

  it("shows costs in dollars with 4 decimals, p-values with 3, seconds with 2", () => {
    expect(formatCost(0.012345)).toBe("$0.0123");
    expect(formatCost(0)).toBe("$0.0000");
    expect(formatPValue(0.04213)).toBe("0.042");
    expect(formatPValue(0.0004)).toBe("< 0.001");
    expect(formatSeconds(1.5)).toBe("1.50 s");
  });
});

describe("formatBytes", () => {
  it("shows bytes below a KiB as bytes, then one binary unit with a decimal below 10", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(20 * 1024 ** 3)).toBe("20 GiB");
  });
});
