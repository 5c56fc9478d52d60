import { MISSING, type RatingTable } from "./rating-table";

/**
 * Share of agreeing rater pairs. For each item with at least two ratings, the share of the pairs of its
 * raters that gave the same value; the result is the mean of those shares over such items. With two raters
 * this is the plain share of co-rated items on which they agree; with more it weighs every item equally,
 * whatever its number of ratings (so an item rated by 4 counts as much as one rated by 2). Exact equality
 * of values: it ignores the level of measurement. `null` when no item has two ratings.
 */
export function percentAgreement(table: RatingTable): number | null {
  const nItems = table.itemIds.length;
  const nRaters = table.raterIds.length;
  const codes = table.codes;
  let sum = 0;
  let counted = 0;
  for (let i = 0; i < nItems; i++) {
    const row = i * nRaters;
    let pairs = 0;
    let agreeing = 0;
    for (let r = 0; r < nRaters; r++) {
      const c = codes[row + r]!;
      if (c === MISSING) continue;
      for (let s = r + 1; s < nRaters; s++) {
        const d = codes[row + s]!;
        if (d === MISSING) continue;
        pairs++;
        if (c === d) agreeing++;
      }
    }
    if (pairs > 0) {
      sum += agreeing / pairs;
      counted++;
    }
  }
  return counted === 0 ? null : sum / counted;
}
