import { StatsInputError } from "./input-error";

function checkPaired(predicted: ArrayLike<number>, actual: ArrayLike<number>): number {
  if (predicted.length !== actual.length) {
    throw new StatsInputError(`the two samples differ in length (${predicted.length} and ${actual.length})`);
  }
  for (let i = 0; i < predicted.length; i++) {
    if (!Number.isFinite(predicted[i]!) || !Number.isFinite(actual[i]!))
      throw new StatsInputError(`pair ${i} is not a pair of finite numbers`);
  }
  return predicted.length;
}

/** Mean absolute difference between paired values, in the ratings' own unit. `null` with no pairs. */
export function meanAbsoluteError(predicted: ArrayLike<number>, actual: ArrayLike<number>): number | null {
  const n = checkPaired(predicted, actual);
  if (n === 0) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs(predicted[i]! - actual[i]!);
  return sum / n;
}

/** Root of the mean squared difference: like MAE but large disagreements weigh more. `null` with no pairs. */
export function rootMeanSquaredError(predicted: ArrayLike<number>, actual: ArrayLike<number>): number | null {
  const n = checkPaired(predicted, actual);
  if (n === 0) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = predicted[i]! - actual[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum / n);
}
