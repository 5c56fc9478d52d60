// Statistics' values as the report gives them, and means over bootstrap resamples read in place.

export const finite = (x: number | null | undefined): number | null =>
  x === null || x === undefined || !Number.isFinite(x) ? null : x;

/** |judge − human| of each pair, as meanAbsoluteError takes them. */
export function absoluteErrors(judge: Float64Array, human: Float64Array): Float64Array {
  const errors = new Float64Array(judge.length);
  for (let i = 0; i < judge.length; i++) errors[i] = Math.abs(judge[i]! - human[i]!);
  return errors;
}

/**
 * meanAbsoluteError of a resample's pairs from their absolute errors, read in place (the same sum in the
 * same order as over copies; the values are checked finite by the statistics on all pairs).
 */
export function meanOfSample(values: Float64Array, sample: Int32Array): number | null {
  if (sample.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < sample.length; i++) sum += values[sample[i]!]!;
  return sum / sample.length;
}
