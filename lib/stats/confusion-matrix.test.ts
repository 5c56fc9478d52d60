import { describe, expect, it } from "vitest";
import {
  confusionMatrix,
  confusionMatrixForRaters,
  confusionMatrixFromCounts,
  type ConfusionMatrix,
} from "./confusion-matrix";
import { StatsInputError } from "./input-error";
import {
  binaryMetricsFromConfusion,
  type BinaryClassificationMetrics,
} from "../../testkit/stats/binary-classification";
import { type Category, type Rating, ratingTableFromMatrix } from "./rating-table";

/**
 * Precision, recall and F1 of `predicted` against `truth` for binary labels (every label that is not
 * `positive` is the negative class; more than two distinct labels is an error, as it is then not binary).
 * Pairs with a `null` on either side are left out.
 */
function binaryClassificationMetrics(
  truth: readonly Rating[],
  predicted: readonly Rating[],
  positive: Category,
): BinaryClassificationMetrics {
  const matrix = confusionMatrix(truth, predicted);
  if (matrix.labels.length > 2) {
    throw new StatsInputError(
      `binary metrics need at most two labels, found ${matrix.labels.length}: ${matrix.labels.join(", ")}`,
    );
  }
  return binaryMetricsFromConfusion(matrix, positive);
}

function countAt(matrix: ConfusionMatrix, row: number, column: number): number {
  return matrix.counts[row * matrix.labels.length + column]!;
}

describe("confusion matrix", () => {
  it("cross-tabulates two label lists over the pairs both labelled, labels ascending", () => {
    const m = confusionMatrix([2, 1, 1, 3, null], [2, 1, 2, 3, 1]);
    expect(m.labels).toEqual([1, 2, 3]);
    expect(m.total).toBe(4);
    expect(countAt(m, 0, 0)).toBe(1);
    expect(countAt(m, 0, 1)).toBe(1);
    expect(countAt(m, 1, 1)).toBe(1);
    expect(countAt(m, 2, 2)).toBe(1);
    expect(countAt(m, 1, 0)).toBe(0);
  });

  it("uses every table category as a label for a table's raters", () => {
    const table = ratingTableFromMatrix([
      [1, 1, 5],
      [2, 1, 5],
    ]);
    const m = confusionMatrixForRaters(table, 0, 1);
    expect(m.labels).toEqual([1, 2, 5]);
    expect(m.total).toBe(2);
    expect(countAt(m, 1, 0)).toBe(1);
    expect(() => confusionMatrixForRaters(table, 0, 3)).toThrow(StatsInputError);
  });

  it("rejects lists of different lengths and non-square tables", () => {
    expect(() => confusionMatrix([1, 2], [1])).toThrow(StatsInputError);
    expect(() => confusionMatrixFromCounts([[1, 2], [3]])).toThrow(StatsInputError);
  });
});

describe("precision, recall and F1", () => {
  it("reproduces Wikipedia's dog-photo example: precision 5/8, recall 5/12", () => {
    // Wikipedia, "Precision and recall": a program finds 8 dogs in a picture of 12 dogs and 10 cats, 5 of
    // them really dogs. tp = 5, fp = 3, fn = 12 − 5 = 7, tn = 10 − 3 = 7; F1 = 2·5/(2·5 + 3 + 7) = 0.5.
    const truth = [...Array<string>(12).fill("dog"), ...Array<string>(10).fill("cat")];
    const predicted = [
      ...Array<string>(5).fill("dog"),
      ...Array<string>(7).fill("cat"), // the 12 dogs
      ...Array<string>(3).fill("dog"),
      ...Array<string>(7).fill("cat"), // the 10 cats
    ];
    const metrics = binaryClassificationMetrics(truth, predicted, "dog");
    expect(metrics).toMatchObject({ truePositives: 5, falsePositives: 3, falseNegatives: 7, trueNegatives: 7 });
    expect(metrics.precision).toBeCloseTo(5 / 8, 12);
    expect(metrics.recall).toBeCloseTo(5 / 12, 12);
    expect(metrics.f1).toBeCloseTo(0.5, 12);
  });

  it("gives null precision when nothing is predicted positive, and F1 0 rather than undefined", () => {
    const metrics = binaryClassificationMetrics([1, 1, 0], [0, 0, 0], 1);
    expect(metrics.precision).toBeNull();
    expect(metrics.recall).toBe(0);
    expect(metrics.f1).toBe(0);
  });

  it("gives null recall and F1 when there are no positives anywhere", () => {
    const metrics = binaryClassificationMetrics([0, 0], [0, 0], 1);
    expect(metrics).toMatchObject({ precision: null, recall: null, f1: null, trueNegatives: 2 });
  });

  it("refuses more than two labels", () => {
    expect(() => binaryClassificationMetrics([1, 2, 3], [1, 2, 3], 1)).toThrow(/at most two labels/);
  });
});
