import { MISSING, type RatingTable } from "./rating-table";

export type MeasurementLevel = "nominal" | "ordinal" | "interval" | "ratio";

export const MEASUREMENT_LEVELS: readonly MeasurementLevel[] = ["nominal", "ordinal", "interval", "ratio"];

/**
 * Krippendorff's coincidence matrix: `o[c * k + k']` counts the ordered pairs of values (c, k') given to the
 * same item by different raters, each pair weighted 1 / (mᵤ − 1) where mᵤ is the item's number of ratings.
 * Items with fewer than two ratings are not pairable and contribute nothing. O(items × raters²).
 * `rows`: the table's rows to read instead of every row, in that order, repeats counting again (a
 * bootstrap resample of items, without copying the table).
 */
export function coincidenceMatrix(table: RatingTable, rows?: Int32Array): Float64Array {
  const k = table.categories.length;
  const nItems = rows ? rows.length : table.itemIds.length;
  const nRaters = table.raterIds.length;
  const codes = table.codes;
  const o = new Float64Array(k * k);
  for (let i = 0; i < nItems; i++) {
    const row = (rows ? rows[i]! : i) * nRaters;
    let m = 0;
    for (let r = 0; r < nRaters; r++) if (codes[row + r] !== MISSING) m++;
    if (m < 2) continue;
    const w = 1 / (m - 1);
    for (let r = 0; r < nRaters; r++) {
      const c = codes[row + r]!;
      if (c === MISSING) continue;
      for (let s = r + 1; s < nRaters; s++) {
        const d = codes[row + s]!;
        if (d === MISSING) continue;
        o[c * k + d]! += w;
        o[d * k + c]! += w;
      }
    }
  }
  return o;
}

/**
 * Squared difference δ²(c, k) for each pair of categories, following Krippendorff (2011), "Computing
 * Krippendorff's Alpha-Reliability": nominal 0/1; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)² from the
 * coincidence marginals n_g, so only the order of values matters and unused values take no room;
 * interval (c − k)²; ratio ((c − k)/(c + k))².
 */
function differences(
  level: MeasurementLevel,
  values: Float64Array | null,
  marginals: Float64Array,
): Float64Array | null {
  const k = marginals.length;
  const delta = new Float64Array(k * k);
  if (level === "nominal") {
    for (let c = 0; c < k; c++) for (let d = 0; d < k; d++) delta[c * k + d] = c === d ? 0 : 1;
    return delta;
  }
  if (values === null) return null;
  if (level === "ordinal") {
    // cumulative[g] = n_0 + … + n_{g-1}, so Σ_{g=c..d} n_g = cumulative[d + 1] − cumulative[c].
    const cumulative = new Float64Array(k + 1);
    for (let g = 0; g < k; g++) cumulative[g + 1] = cumulative[g]! + marginals[g]!;
    for (let c = 0; c < k; c++) {
      for (let d = c + 1; d < k; d++) {
        const between = cumulative[d + 1]! - cumulative[c]! - (marginals[c]! + marginals[d]!) / 2;
        delta[c * k + d] = delta[d * k + c] = between * between;
      }
    }
    return delta;
  }
  if (level === "ratio" && values.some((v) => v < 0)) return null;
  for (let c = 0; c < k; c++) {
    for (let d = c + 1; d < k; d++) {
      const diff = values[c]! - values[d]!;
      let squared = diff * diff;
      if (level === "ratio") {
        // Distinct non-negative values never sum to 0 unless both are 0, which c < d rules out.
        const sum = values[c]! + values[d]!;
        squared /= sum * sum;
      }
      delta[c * k + d] = delta[d * k + c] = squared;
    }
  }
  return delta;
}

/**
 * Krippendorff's alpha, 1 − Dₒ / Dₑ, from the coincidence matrix, for any number of raters and missing
 * ratings. `null` when undefined: fewer than two pairable values, no variation among the pairable values
 * (Dₑ = 0: everyone used one value), a level other than nominal on string categories, or the ratio level
 * with negative values. `rows`: as for coincidenceMatrix (alpha of a resample of the table's items).
 */
export function krippendorffAlpha(table: RatingTable, level: MeasurementLevel, rows?: Int32Array): number | null {
  const k = table.categories.length;
  const o = coincidenceMatrix(table, rows);
  const marginals = new Float64Array(k);
  let n = 0;
  for (let c = 0; c < k; c++) {
    let sum = 0;
    for (let d = 0; d < k; d++) sum += o[c * k + d]!;
    marginals[c] = sum;
    n += sum;
  }
  // Rounding can leave n a hair below an integer; fewer than two pairable values means nothing was paired.
  if (n < 1.5) return null;
  const delta = differences(level, table.categoryValues, marginals);
  if (delta === null) return null;
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      const dd = delta[c * k + d]!;
      if (dd === 0) continue;
      observed += o[c * k + d]! * dd;
      expected += marginals[c]! * marginals[d]! * dd;
    }
  }
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}
