import { describe, expect, it } from "vitest";
import { meanAbsoluteError, rootMeanSquaredError } from "./error-metrics";
import { StatsInputError } from "./input-error";

describe("MAE and RMSE", () => {
  // scikit-learn's documented example (mean_absolute_error, mean_squared_error):
  // y_true = [3, −0.5, 2, 7], y_pred = [2.5, 0.0, 2, 8]; MAE 0.5, MSE 0.375.
  // By hand: |errors| = 0.5, 0.5, 0, 1 → 2/4 = 0.5; squares 0.25 + 0.25 + 0 + 1 = 1.5 → 1.5/4 = 0.375.
  const truth = [3, -0.5, 2, 7];
  const predicted = [2.5, 0.0, 2, 8];

  it("reproduces scikit-learn's example: MAE 0.5", () => {
    expect(meanAbsoluteError(predicted, truth)).toBeCloseTo(0.5, 14);
  });

  it("reproduces scikit-learn's example: RMSE √0.375", () => {
    expect(rootMeanSquaredError(predicted, truth)).toBeCloseTo(Math.sqrt(0.375), 14);
  });

  it("is 0 for identical ratings and null for none", () => {
    expect(meanAbsoluteError([4, 4], [4, 4])).toBe(0);
    expect(rootMeanSquaredError([4, 4], [4, 4])).toBe(0);
    expect(meanAbsoluteError([], [])).toBeNull();
    expect(rootMeanSquaredError([], [])).toBeNull();
  });

  it("rejects mismatched or non-finite input", () => {
    expect(() => meanAbsoluteError([1], [1, 2])).toThrow(StatsInputError);
    expect(() => rootMeanSquaredError([Infinity], [1])).toThrow(StatsInputError);
  });
});
