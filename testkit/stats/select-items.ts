import type { RatingTable } from "../../lib/stats/rating-table";

/**
 * The table restricted to (and repeated by) the given item indices: what a bootstrap replicate is. Item ids
 * may repeat in the result; no statistic looks at them.
 */
export function selectItems(table: RatingTable, items: ArrayLike<number>): RatingTable {
  const nRaters = table.raterIds.length;
  const codes = new Int32Array(items.length * nRaters);
  const itemIds: string[] = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) {
    const source = items[i]!;
    itemIds[i] = table.itemIds[source]!;
    codes.set(table.codes.subarray(source * nRaters, source * nRaters + nRaters), i * nRaters);
  }
  return {
    itemIds,
    raterIds: table.raterIds,
    categories: table.categories,
    categoryValues: table.categoryValues,
    codes,
  };
}
