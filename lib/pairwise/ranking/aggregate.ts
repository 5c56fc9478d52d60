import { StatsInputError } from "../../stats/input-error";
import type { Verdict, Vote } from "../verdicts";

/**
 * Votes counted once into the shape every fit reads: generators and prompts indexed (sorted by code unit, so the
 * same votes in any order give the same indices and the same bootstrap), the generator pairs that met ("cells",
 * always i < j), and per cell and outcome (i won, j won, a tie) the prompts it happened on with their counts
 * (compressed rows), so a bootstrap draw of prompts is, per cell and outcome, a sum of counts times how often each
 * prompt was drawn: one gather from the draw's small weight array into one running sum per entry, rather than a
 * pass over the votes or a scatter into the cells (the bootstrap's inner loop, 1,000 times over).
 * Names live in Maps and arrays only, so a generator called `__proto__` is a generator like any other.
 *
 * A vote's outcome for a cell: i wins, j wins, or a tie. `tie_good` and `tie_bad` are both ties for the fit (the
 * both-bad matrix counts `tie_bad` apart); a strong preference (A>>B, strength 2) counts as one win, as a plain
 * preference does: Bradley–Terry has no notion of margin, and weighting it twice would let five-level aspects
 * count more than three-level ones.
 */
export interface VoteTable {
  generators: string[];
  prompts: string[];
  /** The cells (generator pairs that met), cellI[c] < cellJ[c], in order of i then j. */
  cellI: Int32Array;
  cellJ: Int32Array;
  /** Totals per cell over every prompt. */
  totals: CellCounts;
  /** `tie_bad` votes per cell (also counted in totals.ties). */
  tiesBad: Float64Array;
  /**
   * Row r = 3·c + outcome (0: i won, 1: j won, 2: a tie) holds entries rowStart[r] … rowStart[r + 1] − 1: the
   * prompts (ascending) that cell c had that outcome on, and how many times.
   */
  rowStart: Int32Array;
  entryPrompt: Int32Array;
  entryCount: Int32Array;
  /** Per generator: votes, wins, losses, ties good, ties bad. */
  generatorCounts: GeneratorCounts[];
  /** Votes counted (a generator against another). */
  votes: number;
  /** Prompts with at least one counted vote. */
  promptsWithVotes: number;
  /** Votes of a pair whose two videos come from one generator: no evidence on generators, so not counted. */
  sameGeneratorVotes: number;
}

export interface CellCounts {
  winI: Float64Array;
  winJ: Float64Array;
  ties: Float64Array;
}

export interface GeneratorCounts {
  votes: number;
  wins: number;
  losses: number;
  tiesGood: number;
  tiesBad: number;
}

const I_WINS = 0;
const J_WINS = 1;
const TIE_GOOD = 2;
const TIE_BAD = 3;
type Outcome = typeof I_WINS | typeof J_WINS | typeof TIE_GOOD | typeof TIE_BAD;

function outcomeForA(verdict: Verdict): Outcome {
  switch (verdict) {
    case "A":
      return I_WINS;
    case "B":
      return J_WINS;
    case "tie_good":
      return TIE_GOOD;
    case "tie_bad":
      return TIE_BAD;
    default: {
      const unknown: never = verdict;
      throw new StatsInputError(`unknown verdict ${JSON.stringify(unknown)}`);
    }
  }
}

function swapOutcome(outcome: Outcome): Outcome {
  if (outcome === I_WINS) return J_WINS;
  if (outcome === J_WINS) return I_WINS;
  return outcome;
}

export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function indexOf(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  names.forEach((name, i) => index.set(name, i));
  return index;
}

export interface AggregateOptions {
  /** Every generator to index, voted on or not (others found in the votes are added). */
  generators?: readonly string[];
  /** The prompts to index, in this order (the union of two vote sets, for draws shared between them). */
  prompts?: readonly string[];
}

interface CodedVotes {
  prompt: Int32Array;
  cellKey: Int32Array;
  outcome: Uint8Array;
  count: number;
}

function codeVotes(
  votes: readonly Vote[],
  generatorIndex: Map<string, number>,
  promptIndex: Map<string, number>,
  n: number,
): CodedVotes {
  const coded: CodedVotes = {
    prompt: new Int32Array(votes.length),
    cellKey: new Int32Array(votes.length),
    outcome: new Uint8Array(votes.length),
    count: 0,
  };
  for (const vote of votes) {
    const a = generatorIndex.get(vote.generatorA)!;
    const b = generatorIndex.get(vote.generatorB)!;
    if (a === b) continue;
    const outcome = outcomeForA(vote.verdict);
    const k = coded.count++;
    coded.prompt[k] = promptIndex.get(vote.prompt)!;
    coded.cellKey[k] = a < b ? a * n + b : b * n + a;
    coded.outcome[k] = a < b ? outcome : swapOutcome(outcome);
  }
  return coded;
}

function emptyCounts(n: number): GeneratorCounts[] {
  return Array.from({ length: n }, () => ({ votes: 0, wins: 0, losses: 0, tiesGood: 0, tiesBad: 0 }));
}

function countForGenerators(counts: GeneratorCounts[], i: number, j: number, outcome: number): void {
  counts[i]!.votes++;
  counts[j]!.votes++;
  if (outcome === I_WINS) {
    counts[i]!.wins++;
    counts[j]!.losses++;
  } else if (outcome === J_WINS) {
    counts[j]!.wins++;
    counts[i]!.losses++;
  } else if (outcome === TIE_GOOD) {
    counts[i]!.tiesGood++;
    counts[j]!.tiesGood++;
  } else {
    counts[i]!.tiesBad++;
    counts[j]!.tiesBad++;
  }
}

/** The cells that occur, in key order, and each key's cell (-1: none). */
function indexCells(coded: CodedVotes, n: number): { cellOfKey: Int32Array; cellI: Int32Array; cellJ: Int32Array } {
  const seen = new Uint8Array(n * n);
  for (let k = 0; k < coded.count; k++) seen[coded.cellKey[k]!] = 1;
  const cellOfKey = new Int32Array(n * n).fill(-1);
  const keys: number[] = [];
  for (let key = 0; key < n * n; key++) if (seen[key]) keys.push(key);
  const cellI = new Int32Array(keys.length);
  const cellJ = new Int32Array(keys.length);
  keys.forEach((key, c) => {
    cellOfKey[key] = c;
    cellI[c] = Math.floor(key / n);
    cellJ[c] = key % n;
  });
  return { cellOfKey, cellI, cellJ };
}

/** The row (3·cell + outcome, ties of both kinds together) a coded vote is counted in. */
function rowOf(coded: CodedVotes, cellOfKey: Int32Array, k: number): number {
  return 3 * cellOfKey[coded.cellKey[k]!]! + Math.min(coded.outcome[k]!, TIE_GOOD);
}

/** Votes sorted by row, then by prompt (two stable counting sorts). */
function rowMajorOrder(coded: CodedVotes, cellOfKey: Int32Array, rows: number, prompts: number): Int32Array {
  const byPrompt = countingSort(coded.count, prompts, (k) => coded.prompt[k]!, null);
  return countingSort(coded.count, rows, (k) => rowOf(coded, cellOfKey, k), byPrompt);
}

function countingSort(
  count: number,
  buckets: number,
  bucketOf: (k: number) => number,
  input: Int32Array | null,
): Int32Array {
  const start = new Int32Array(buckets + 1);
  for (let k = 0; k < count; k++) {
    const next = bucketOf(k) + 1;
    start[next] = start[next]! + 1;
  }
  for (let b = 0; b < buckets; b++) start[b + 1] = start[b + 1]! + start[b]!;
  const order = new Int32Array(count);
  for (let r = 0; r < count; r++) {
    const k = input ? input[r]! : r;
    const bucket = bucketOf(k);
    order[start[bucket]!] = k;
    start[bucket] = start[bucket]! + 1;
  }
  return order;
}

/** Fills the rows: one entry per (cell, outcome, prompt) with its count, and the totals. */
function fillRows(table: VoteTable, coded: CodedVotes, cellOfKey: Int32Array): void {
  const rows = 3 * table.cellI.length;
  const order = rowMajorOrder(coded, cellOfKey, rows, table.prompts.length);
  const promptSeen = new Uint8Array(table.prompts.length);
  const rowTotals = [table.totals.winI, table.totals.winJ, table.totals.ties];
  let entries = -1;
  let lastRow = -1;
  let lastPrompt = -1;
  for (const k of order) {
    const row = rowOf(coded, cellOfKey, k);
    const prompt = coded.prompt[k]!;
    if (row !== lastRow || prompt !== lastPrompt) {
      entries++;
      while (lastRow < row) table.rowStart[++lastRow] = entries;
      table.entryPrompt[entries] = prompt;
      lastPrompt = prompt;
    }
    table.entryCount[entries] = table.entryCount[entries]! + 1;
    promptSeen[prompt] = 1;
    const cell = Math.floor(row / 3);
    const totals = rowTotals[row % 3]!;
    totals[cell] = totals[cell]! + 1;
    if (coded.outcome[k] === TIE_BAD) table.tiesBad[cell] = table.tiesBad[cell]! + 1;
  }
  entries++;
  while (lastRow < rows) table.rowStart[++lastRow] = entries;
  table.promptsWithVotes = promptSeen.reduce((sum, seen) => sum + seen, 0);
  table.entryPrompt = table.entryPrompt.slice(0, entries);
  table.entryCount = table.entryCount.slice(0, entries);
}

function namesOf(votes: readonly Vote[], options: AggregateOptions): { generators: string[]; prompts: string[] } {
  const generators = new Set<string>(options.generators ?? []);
  const prompts = new Set<string>();
  for (const vote of votes) {
    generators.add(vote.generatorA);
    generators.add(vote.generatorB);
    prompts.add(vote.prompt);
  }
  if (options.prompts) {
    const listed = new Set(options.prompts);
    for (const prompt of prompts) {
      if (!listed.has(prompt)) throw new StatsInputError(`prompt missing from the prompt list`);
    }
    return { generators: [...generators].sort(byCodeUnit), prompts: [...options.prompts] };
  }
  return { generators: [...generators].sort(byCodeUnit), prompts: [...prompts].sort(byCodeUnit) };
}

export function aggregateVotes(votes: readonly Vote[], options: AggregateOptions = {}): VoteTable {
  const { generators, prompts } = namesOf(votes, options);
  const n = generators.length;
  if (n * n > 2 ** 31 - 1) throw new StatsInputError(`too many generators to rank (${n})`);
  const coded = codeVotes(votes, indexOf(generators), indexOf(prompts), n);
  const { cellOfKey, cellI, cellJ } = indexCells(coded, n);
  const cells = cellI.length;
  const table: VoteTable = {
    generators,
    prompts,
    cellI,
    cellJ,
    totals: { winI: new Float64Array(cells), winJ: new Float64Array(cells), ties: new Float64Array(cells) },
    tiesBad: new Float64Array(cells),
    rowStart: new Int32Array(3 * cells + 1),
    entryPrompt: new Int32Array(coded.count),
    entryCount: new Int32Array(coded.count),
    generatorCounts: emptyCounts(n),
    votes: coded.count,
    promptsWithVotes: 0,
    sameGeneratorVotes: votes.length - coded.count,
  };
  for (let k = 0; k < coded.count; k++) {
    const key = coded.cellKey[k]!;
    countForGenerators(table.generatorCounts, Math.floor(key / n), key % n, coded.outcome[k]!);
  }
  fillRows(table, coded, cellOfKey);
  return table;
}

/** The counts of a bootstrap draw: per cell and outcome, its prompts' counts times how often each was drawn. */
export function weightedCounts(table: VoteTable, weights: Int32Array, into: CellCounts): void {
  const { rowStart, entryPrompt, entryCount } = table;
  const outcomes = [into.winI, into.winJ, into.ties];
  for (let c = 0; c < table.cellI.length; c++) {
    for (let outcome = 0; outcome < 3; outcome++) {
      let sum = 0;
      for (let e = rowStart[3 * c + outcome]!, end = rowStart[3 * c + outcome + 1]!; e < end; e++) {
        sum += weights[entryPrompt[e]!]! * entryCount[e]!;
      }
      outcomes[outcome]![c] = sum;
    }
  }
}
