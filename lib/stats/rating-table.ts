import { StatsInputError } from "./input-error";

/** A value a rater can give: a number (any level of measurement) or a string label (nominal data only). */
export type Category = number | string;
/** A rating; `null` is a missing rating (the rater saw the item but gave no value). */
export type Rating = Category | null;

export interface RatingRow {
  item: string;
  rater: string;
  value: Rating;
}

/** Code of a missing rating in `RatingTable.codes`. */
export const MISSING = -1;

/**
 * Items × raters, with every distinct value mapped once to a small integer code so that the statistics run
 * over typed arrays instead of comparing strings or boxed values per rating.
 */
export interface RatingTable {
  readonly itemIds: readonly string[];
  readonly raterIds: readonly string[];
  /** Distinct values given, ascending: numbers numerically, then strings by UTF-16 code unit. */
  readonly categories: readonly Category[];
  /** The numeric value of each category, or `null` when any category is a string (nominal-only data). */
  readonly categoryValues: Float64Array | null;
  /** Row-major: `codes[item * raterIds.length + rater]` is an index into `categories`, or `MISSING`. */
  readonly codes: Int32Array;
}

// Digits with an optional fraction and exponent; rejects what Number() would also accept but no rater
// means as a score ("0x1A", "Infinity", " ", "1_000").
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function isNumericText(text: string): boolean {
  return NUMERIC.test(text);
}

// A dense table of 100M cells is 400 MB of codes: beyond that the input is almost certainly many raters
// each rating a few items, which this representation is not meant for.
const MAX_CELLS = 100_000_000;

// Until assembly resolves them, a cell holds ABSENT (no row at all) so that a second row for the same
// item and rater is caught even when either row's value is missing.
const ABSENT = -2;

export interface RatingTableOptions {
  /**
   * Treat string values that all look like numbers as numbers ("3" and "3.0" become the category 3). CSV
   * gives every value as text; the row API does not need this because its values are typed.
   */
  numericStrings?: boolean;
  /** How error messages refer to a rating's `source`: a CSV line, or an index into a row list. */
  sourceKind?: "line" | "row";
}

/** One entry per rating as interned ids, in growable typed arrays: no object per rating. */
export class RatingEntries {
  item = new Int32Array(1024);
  rater = new Int32Array(1024);
  /** Index into the raw values, or MISSING. */
  value = new Int32Array(1024);
  /** Where the rating came from (a CSV line, a row index), for error messages. */
  source = new Int32Array(1024);
  size = 0;

  push(item: number, rater: number, value: number, source: number): void {
    if (this.size === this.item.length) this.grow();
    const k = this.size++;
    this.item[k] = item;
    this.rater[k] = rater;
    this.value[k] = value;
    this.source[k] = source;
  }

  private grow(): void {
    const capacity = this.item.length * 2;
    const grown = (old: Int32Array) => {
      const next = new Int32Array(capacity);
      next.set(old);
      return next;
    };
    this.item = grown(this.item);
    this.rater = grown(this.rater);
    this.value = grown(this.value);
    this.source = grown(this.source);
  }
}

/** Ratings with items, raters and values already mapped to ids, before they are laid out as a table. */
export interface InternedRatings {
  itemIds: readonly string[];
  raterIds: readonly string[];
  rawValues: readonly Category[];
  entries: RatingEntries;
}

/**
 * Lays interned ratings out as a dense table: resolves the raw values into sorted categories and checks
 * that no item and rater pair is given twice.
 */
export function assembleRatingTable(ratings: InternedRatings, options: RatingTableOptions = {}): RatingTable {
  const nItems = ratings.itemIds.length;
  const nRaters = ratings.raterIds.length;
  if (nItems * nRaters > MAX_CELLS) {
    throw new StatsInputError(
      `${nItems} items × ${nRaters} raters is more than ${MAX_CELLS} cells; this dense items × raters table is meant for a few raters per study.`,
    );
  }
  const { categories, categoryValues, remap } = resolveCategories(ratings.rawValues, options.numericStrings === true);
  const { item, rater, value } = ratings.entries;
  const codes = new Int32Array(nItems * nRaters).fill(ABSENT);
  for (let k = 0; k < ratings.entries.size; k++) {
    const cell = item[k]! * nRaters + rater[k]!;
    if (codes[cell] !== ABSENT) throwDuplicate(ratings, k, cell, options);
    const raw = value[k]!;
    codes[cell] = raw === MISSING ? MISSING : remap[raw]!;
  }
  for (let cell = 0; cell < codes.length; cell++) if (codes[cell] === ABSENT) codes[cell] = MISSING;
  return { itemIds: ratings.itemIds.slice(), raterIds: ratings.raterIds.slice(), categories, categoryValues, codes };
}

function resolveCategories(
  raw: readonly Category[],
  numericStrings: boolean,
): { categories: Category[]; categoryValues: Float64Array | null; remap: Int32Array } {
  const asNumbers =
    numericStrings && raw.every((v) => typeof v === "number" || isNumericText(v))
      ? raw.map((v) => (typeof v === "number" ? v : Number(v)))
      : raw;
  const distinct = [...new Set(asNumbers)].sort(compareCategories);
  const codeOf = new Map<Category, number>(distinct.map((c, i) => [c, i]));
  const remap = new Int32Array(raw.length);
  asNumbers.forEach((c, i) => {
    remap[i] = codeOf.get(c)!;
  });
  const numeric = distinct.every((c) => typeof c === "number");
  return { categories: distinct, categoryValues: numeric ? Float64Array.from(distinct as number[]) : null, remap };
}

function throwDuplicate(ratings: InternedRatings, k: number, cell: number, options: RatingTableOptions): never {
  const { entries, itemIds, raterIds } = ratings;
  const nRaters = raterIds.length;
  let first = -1;
  for (let j = 0; j < k && first < 0; j++) {
    if (entries.item[j]! * nRaters + entries.rater[j]! === cell) first = j;
  }
  const item = JSON.stringify(itemIds[entries.item[k]!]!);
  const rater = JSON.stringify(raterIds[entries.rater[k]!]!);
  const at = entries.source[k]!;
  const firstAt = entries.source[first]!;
  if (options.sourceKind === "line") {
    throw new StatsInputError(
      `duplicate rating for item ${item} by rater ${rater} (first given on line ${firstAt})`,
      at,
    );
  }
  throw new StatsInputError(`duplicate rating for item ${item} by rater ${rater} (rows ${firstAt} and ${at})`);
}

/**
 * Accumulates ratings one at a time, mapping ids and values to integers as they come, then lays them out as
 * a dense `RatingTable`. Consecutive rows usually share an item (exports are grouped by item), so the last
 * item and rater ids are cached to skip most map lookups.
 */
export class RatingTableBuilder {
  private readonly itemIndex = new Map<string, number>();
  private readonly raterIndex = new Map<string, number>();
  private readonly valueIndex = new Map<Category, number>();
  private readonly itemIds: string[] = [];
  private readonly raterIds: string[] = [];
  private readonly rawValues: Category[] = [];
  private readonly entries = new RatingEntries();
  private lastItem: string | null = null;
  private lastItemId = -1;
  private lastRater: string | null = null;
  private lastRaterId = -1;

  constructor(private readonly options: RatingTableOptions = {}) {}

  add(item: string, rater: string, value: Rating, source: number): void {
    let itemId: number;
    if (item === this.lastItem) itemId = this.lastItemId;
    else {
      const known = this.itemIndex.get(item);
      if (known === undefined) {
        itemId = this.itemIds.length;
        this.itemIds.push(item);
        this.itemIndex.set(item, itemId);
      } else itemId = known;
      this.lastItem = item;
      this.lastItemId = itemId;
    }
    let raterId: number;
    if (rater === this.lastRater) raterId = this.lastRaterId;
    else {
      const known = this.raterIds.length <= FEW ? indexAmongFew(this.raterIds, rater) : this.raterIndex.get(rater);
      if (known === undefined) {
        raterId = this.raterIds.length;
        this.raterIds.push(rater);
        this.raterIndex.set(rater, raterId);
      } else raterId = known;
      this.lastRater = rater;
      this.lastRaterId = raterId;
    }
    let valueCode = MISSING;
    if (value !== null) {
      const known = this.rawValues.length <= FEW ? indexAmongFew(this.rawValues, value) : this.valueIndex.get(value);
      if (known === undefined) {
        valueCode = this.rawValues.length;
        this.rawValues.push(value);
        this.valueIndex.set(value, valueCode);
      } else valueCode = known;
    }
    this.entries.push(itemId, raterId, valueCode, source);
  }

  build(): RatingTable {
    return assembleRatingTable(
      { itemIds: this.itemIds, raterIds: this.raterIds, rawValues: this.rawValues, entries: this.entries },
      this.options,
    );
  }
}

// Raters and distinct values are usually few, and every row names one of each. Comparing a freshly sliced
// string with a handful of known ones is cheaper than a map lookup, which must hash it first.
const FEW = 16;

function indexAmongFew<T>(known: readonly T[], value: T): number | undefined {
  for (let i = 0; i < known.length; i++) if (known[i] === value) return i;
  return undefined;
}

function compareCategories(a: Category, b: Category): number {
  if (typeof a === "number") return typeof b === "number" ? a - b : -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Validates rows and lays them out as a table. Throws `StatsInputError` naming the item and rater of a
 * duplicate pair, or the row of an empty id or an unusable value.
 */
export function buildRatingTable(rows: Iterable<RatingRow>): RatingTable {
  const builder = new RatingTableBuilder({ sourceKind: "row" });
  let index = 0;
  for (const row of rows) {
    if (typeof row.item !== "string" || row.item === "")
      throw new StatsInputError(`row ${index}: item must be a non-empty string`);
    if (typeof row.rater !== "string" || row.rater === "")
      throw new StatsInputError(`row ${index}: rater must be a non-empty string`);
    const value = row.value;
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new StatsInputError(`row ${index}: value ${value} is not a finite number`);
    }
    if (typeof value === "string" && value === "") {
      throw new StatsInputError(`row ${index}: value is an empty string (use null for a missing rating)`);
    }
    if (value !== null && typeof value !== "number" && typeof value !== "string") {
      throw new StatsInputError(`row ${index}: value must be a number, a string or null`);
    }
    builder.add(row.item, row.rater, value, index);
    index++;
  }
  return builder.build();
}

/** A table from a matrix whose rows are items and whose columns are raters (ids "item-1"…, "rater-1"…). */
export function ratingTableFromMatrix(matrix: readonly (readonly Rating[])[]): RatingTable {
  const rows: RatingRow[] = [];
  matrix.forEach((ratings, i) => {
    ratings.forEach((value, r) => rows.push({ item: `item-${i + 1}`, rater: `rater-${r + 1}`, value }));
  });
  return buildRatingTable(rows);
}

/** The two raters' codes on the items both of them rated, in item order. */
export interface PairedCodes {
  a: Int32Array;
  b: Int32Array;
}

export function pairedCodes(table: RatingTable, raterA: number, raterB: number): PairedCodes {
  const nRaters = table.raterIds.length;
  if (raterA < 0 || raterA >= nRaters || raterB < 0 || raterB >= nRaters) {
    throw new StatsInputError(`rater index out of range (the table has ${nRaters} raters)`);
  }
  const nItems = table.itemIds.length;
  const codes = table.codes;
  let n = 0;
  for (let i = 0; i < nItems; i++) {
    if (codes[i * nRaters + raterA] !== MISSING && codes[i * nRaters + raterB] !== MISSING) n++;
  }
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < nItems; i++) {
    const ca = codes[i * nRaters + raterA]!;
    const cb = codes[i * nRaters + raterB]!;
    if (ca !== MISSING && cb !== MISSING) {
      a[k] = ca;
      b[k] = cb;
      k++;
    }
  }
  return { a, b };
}

/** The numeric values behind codes, or `null` when the table has string categories. */
export function valuesOf(table: RatingTable, codes: Int32Array): Float64Array | null {
  const values = table.categoryValues;
  if (values === null) return null;
  const out = new Float64Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = values[codes[i]!]!;
  return out;
}
