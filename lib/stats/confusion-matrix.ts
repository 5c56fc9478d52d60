import { StatsInputError } from "./input-error";
import { type Category, MISSING, type Rating, type RatingTable } from "./rating-table";

/** Cross-tabulation of two raters (or truth × prediction) over the items both rated. */
export interface ConfusionMatrix {
  /** Row and column labels, ascending (numbers numerically, then strings). */
  readonly labels: readonly Category[];
  /** `counts[row * labels.length + column]`: rows are the first rater (or the truth), columns the second. */
  readonly counts: Float64Array;
  readonly total: number;
}

function compareLabels(a: Category, b: Category): number {
  if (typeof a === "number") return typeof b === "number" ? a - b : -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Pairs where either side is `null` are left out, as an item one rater skipped says nothing about agreement. */
export function confusionMatrix(a: readonly Rating[], b: readonly Rating[]): ConfusionMatrix {
  if (a.length !== b.length)
    throw new StatsInputError(`the two label lists differ in length (${a.length} and ${b.length})`);
  const seen = new Set<Category>();
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === null || y === null) continue;
    seen.add(x);
    seen.add(y);
  }
  const labels = [...seen].sort(compareLabels);
  const index = new Map<Category, number>(labels.map((label, i) => [label, i]));
  const k = labels.length;
  const counts = new Float64Array(k * k);
  let total = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === null || y === null) continue;
    counts[index.get(x)! * k + index.get(y)!]! += 1;
    total++;
  }
  return { labels, counts, total };
}

/** From a published k × k table of counts (rows: first rater). Labels default to 0…k-1. */
export function confusionMatrixFromCounts(
  table: readonly (readonly number[])[],
  labels?: readonly Category[],
): ConfusionMatrix {
  const k = table.length;
  const names = labels ?? Array.from({ length: k }, (_, i) => i);
  if (names.length !== k) throw new StatsInputError(`${names.length} labels for a ${k} × ${k} table`);
  const counts = new Float64Array(k * k);
  let total = 0;
  table.forEach((row, i) => {
    if (row.length !== k) throw new StatsInputError(`row ${i} of the table has ${row.length} cells, expected ${k}`);
    row.forEach((count, j) => {
      if (!Number.isFinite(count) || count < 0)
        throw new StatsInputError(`cell (${i}, ${j}) is not a non-negative count`);
      counts[i * k + j] = count;
      total += count;
    });
  });
  return { labels: names, counts, total };
}

/**
 * Two raters of a table over the items both rated. Every category of the table is a label, used or not:
 * unused labels have empty rows and columns, which change no kappa.
 */
export function confusionMatrixForRaters(table: RatingTable, raterA: number, raterB: number): ConfusionMatrix {
  const nRaters = table.raterIds.length;
  if (raterA < 0 || raterA >= nRaters || raterB < 0 || raterB >= nRaters) {
    throw new StatsInputError(`rater index out of range (the table has ${nRaters} raters)`);
  }
  const k = table.categories.length;
  const counts = new Float64Array(k * k);
  const codes = table.codes;
  const nItems = table.itemIds.length;
  let total = 0;
  for (let i = 0; i < nItems; i++) {
    const x = codes[i * nRaters + raterA]!;
    const y = codes[i * nRaters + raterB]!;
    if (x === MISSING || y === MISSING) continue;
    counts[x * k + y]! += 1;
    total++;
  }
  return { labels: table.categories, counts, total };
}
