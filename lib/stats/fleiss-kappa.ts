import { StatsInputError } from "./input-error";
import { MISSING, type RatingTable } from "./rating-table";

/**
 * Fleiss' kappa (Fleiss 1971) from per-item category counts: `counts[i][j]` raters put item i in category j.
 * Fleiss' derivation assumes every item was rated the same number of times (the raters themselves may
 * differ between items), so unequal totals make it `null`, as do fewer than two ratings per item, no items,
 * and a single category used throughout (chance agreement of 1 leaves 0 / 0).
 */
export function fleissKappaFromCounts(counts: readonly (readonly number[])[]): number | null {
  const nItems = counts.length;
  if (nItems === 0) return null;
  const k = counts[0]!.length;
  const flat = new Float64Array(nItems * k);
  counts.forEach((row, i) => {
    if (row.length !== k) throw new StatsInputError(`item ${i} has ${row.length} category counts, expected ${k}`);
    row.forEach((count, j) => {
      if (!Number.isInteger(count) || count < 0)
        throw new StatsInputError(`count (${i}, ${j}) is not a non-negative integer`);
      flat[i * k + j] = count;
    });
  });
  return fleissKappaFlat(flat, nItems, k);
}

function fleissKappaFlat(flat: Float64Array, nItems: number, k: number): number | null {
  let m = -1;
  const categoryTotals = new Float64Array(k);
  let agreementSum = 0;
  for (let i = 0; i < nItems; i++) {
    let ratings = 0;
    let squares = 0;
    for (let j = 0; j < k; j++) {
      const c = flat[i * k + j]!;
      ratings += c;
      squares += c * c;
      categoryTotals[j]! += c;
    }
    if (m === -1) m = ratings;
    else if (ratings !== m) return null;
    if (m >= 2) agreementSum += (squares - m) / (m * (m - 1));
  }
  if (m < 2) return null;
  return kappaFromAgreement(agreementSum / nItems, categoryTotals, nItems * m);
}

/** (P̄ − P̄ₑ) / (1 − P̄ₑ), with P̄ₑ the sum of squared category shares; `null` when P̄ₑ = 1 (one category). */
function kappaFromAgreement(observed: number, categoryTotals: Float64Array, total: number): number | null {
  let chance = 0;
  for (let j = 0; j < categoryTotals.length; j++) {
    const p = categoryTotals[j]! / total;
    chance += p * p;
  }
  if (chance >= 1) return null;
  return (observed - chance) / (1 - chance);
}

/**
 * Fleiss' kappa of a table, nominal (values are compared for equality only). `null` as soon as any rating
 * is missing: every item must have a value from every rater of the table, because Fleiss' kappa needs the
 * same number of ratings per item. Use Krippendorff's alpha for tables with missing ratings.
 *
 * Works from agreeing rater pairs instead of an items × categories count table: an item's Pᵢ =
 * (Σⱼ nᵢⱼ² − m) / (m(m − 1)) equals its agreeing pairs Σⱼ nᵢⱼ(nᵢⱼ − 1)/2 over all m(m − 1)/2 pairs, and
 * counting pairs needs no per-item storage.
 */
export function fleissKappa(table: RatingTable): number | null {
  const nItems = table.itemIds.length;
  const m = table.raterIds.length;
  const codes = table.codes;
  if (nItems === 0 || m < 2) return null;
  const categoryTotals = new Float64Array(table.categories.length);
  let agreeingPairs = 0;
  for (let i = 0; i < nItems; i++) {
    const row = i * m;
    for (let r = 0; r < m; r++) {
      const c = codes[row + r]!;
      if (c === MISSING) return null;
      categoryTotals[c]! += 1;
      for (let s = r + 1; s < m; s++) if (codes[row + s] === c) agreeingPairs++;
    }
  }
  const pairsPerItem = (m * (m - 1)) / 2;
  return kappaFromAgreement(agreeingPairs / (nItems * pairsPerItem), categoryTotals, nItems * m);
}
