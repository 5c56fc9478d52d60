// Benchmark of the active plan (lib/pairwise/active/): how many comparisons each way of choosing the next pair needs
// before the ranking reaches Kendall τ ≥ 0.9 to the full-data ranking.
//   npm run bench:pairwise-active [-- --seeds 100 --budget 20000]
// Data: bench/data/genai-arena-t2i-battles-20240220.csv, GenAI-Arena's published text-to-image battles (see
// bench/data/README.md): 1,977 battles of 6 generators after the one battle of a generator with itself is left out.
// The full-data ranking is the Bradley–Terry fit of every battle (lib/pairwise/active/laplace-bradley-terry.ts, ties
// as half a win). Each simulated comparison of a generator pair replays one of the set's own battles of that pair,
// drawn uniformly with replacement (every pair has 111 or more), so answers carry the set's real ties and noise.
// Strategies, one comparison at a time, refitting after each:
//   - uniform: a generator pair drawn uniformly;
//   - variance reduction (greedy): the pair with the largest √V·(1 − √(n/(n+1))), as planNextPairs plans it;
//   - variance reduction (sampled): a pair drawn with probability proportional to that score, as LMArena samples.
// A run stops the first time τ ≥ 0.9 (with 6 generators that is the full-data order exactly: one discordant pair
// of 15 is τ = 0.87), or at the budget (counted, reported). Numbers only, no assertions.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mulberry32, streamSeed } from "../lib/stats/bootstrap";
import { fitTallies, scoreOfA, type LaplaceFit, type Tally } from "../lib/pairwise/active/laplace-bradley-terry";
import { pairScore } from "../lib/pairwise/active/plan-next-pairs";
import { verdictSchema, type Verdict } from "../lib/pairwise/verdicts";

const ROOT = path.resolve(import.meta.dirname, "..");
const DATA = path.join(ROOT, "bench/data/genai-arena-t2i-battles-20240220.csv");
const TARGET_TAU = 0.9;

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

interface Battle {
  a: number;
  b: number;
  verdict: Verdict;
}

function loadBattles() {
  const lines = fs.readFileSync(DATA, "utf8").trim().split("\n").slice(1);
  const names: string[] = [];
  const index = new Map<string, number>();
  const id = (name: string) => {
    if (!index.has(name)) index.set(name, names.push(name) - 1);
    return index.get(name)!;
  };
  const battles: Battle[] = [];
  let selfBattles = 0;
  for (const line of lines) {
    const [a, b, verdict] = line.split(",");
    if (a === b) {
      selfBattles++;
      continue;
    }
    battles.push({ a: id(a!), b: id(b!), verdict: verdictSchema.parse(verdict) });
  }
  return { names, index, battles, selfBattles };
}

/** Tallies as fitTallies reads them, kept per ordered pair i < j (a battle of j against i counts reversed). */
class Tallies {
  readonly cells: Tally[];
  constructor(readonly k: number) {
    this.cells = [];
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) this.cells.push({ i, j, count: 0, wins: 0 });
  }
  cell(i: number, j: number): Tally {
    const [lo, hi] = i < j ? [i, j] : [j, i];
    return this.cells[lo * this.k - (lo * (lo + 1)) / 2 + (hi - lo - 1)]!;
  }
  add(battle: Battle) {
    const cell = this.cell(battle.a, battle.b);
    const score = scoreOfA(battle.verdict);
    cell.count++;
    cell.wins += battle.a < battle.b ? score : 1 - score;
  }
}

function kendallTau(x: Float64Array, y: Float64Array): number {
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const s = Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
      if (s > 0) concordant++;
      else if (s < 0) discordant++;
    }
  }
  const pairs = (x.length * (x.length - 1)) / 2;
  return (concordant - discordant) / pairs;
}

type Strategy = "uniform" | "variance reduction (greedy)" | "variance reduction (sampled)";
const STRATEGIES: Strategy[] = ["uniform", "variance reduction (greedy)", "variance reduction (sampled)"];

function choosePair(strategy: Strategy, tallies: Tallies, fit: LaplaceFit, random: () => number): Tally {
  if (strategy === "uniform") return tallies.cells[Math.floor(random() * tallies.cells.length)]!;
  const scores = tallies.cells.map((c) => pairScore(fit, "variance_reduction", c.i, c.j, c.count));
  if (strategy === "variance reduction (greedy)") {
    let best = 0;
    for (let c = 1; c < scores.length; c++) if (scores[c]! > scores[best]!) best = c;
    return tallies.cells[best]!;
  }
  const total = scores.reduce((sum, s) => sum + s, 0);
  let draw = random() * total;
  for (let c = 0; c < scores.length; c++) {
    draw -= scores[c]!;
    if (draw < 0) return tallies.cells[c]!;
  }
  return tallies.cells[scores.length - 1]!;
}

/** Comparisons until τ ≥ 0.9 to the full-data strengths, or null at the budget. */
function run(
  strategy: Strategy,
  seed: number,
  data: ReturnType<typeof loadBattles>,
  full: Float64Array,
  budget: number,
) {
  const k = data.names.length;
  const pools = new Tallies(k).cells.map((c) =>
    data.battles.filter((b) => (b.a === c.i && b.b === c.j) || (b.a === c.j && b.b === c.i)),
  );
  const tallies = new Tallies(k);
  const random = mulberry32(streamSeed(seed, strategy));
  let fit: LaplaceFit = { generators: data.names, index: data.index, ...fitTallies(tallies.cells, k) };
  for (let comparisons = 1; comparisons <= budget; comparisons++) {
    const cell = choosePair(strategy, tallies, fit, random);
    const pool = pools[tallies.cells.indexOf(cell)]!;
    tallies.add(pool[Math.floor(random() * pool.length)]!);
    fit = { generators: data.names, index: data.index, ...fitTallies(tallies.cells, k) };
    if (kendallTau(fit.theta, full) >= TARGET_TAU) return comparisons;
  }
  return null;
}

function quantile(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!);
}

function main() {
  const seeds = argument("seeds", 100);
  const budget = argument("budget", 20_000);
  const data = loadBattles();
  const k = data.names.length;
  const all = new Tallies(k);
  for (const battle of data.battles) all.add(battle);
  const full = fitTallies(all.cells, k).theta;
  console.log(
    `load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}, ${os.availableParallelism()} cores`,
  );
  console.log(
    `${data.battles.length} battles of ${k} generators (${data.selfBattles} of a generator with itself left out)`,
  );
  const order = [...data.names.keys()].sort((x, y) => full[y]! - full[x]!);
  console.log(
    `full-data ranking (Elo scale): ${order.map((i) => `${data.names[i]} ${(1000 + (400 / Math.LN10) * full[i]!).toFixed(0)}`).join(", ")}`,
  );
  const medians = new Map<Strategy, number>();
  const p90s = new Map<Strategy, number>();
  for (const strategy of STRATEGIES) {
    const started = performance.now();
    const needed: number[] = [];
    let unreached = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const result = run(strategy, seed, data, full, budget);
      if (result === null) unreached++;
      else needed.push(result);
    }
    needed.sort((x, y) => x - y);
    const median = needed.length ? quantile(needed, 0.5) : Number.NaN;
    medians.set(strategy, median);
    p90s.set(strategy, needed.length ? quantile(needed, 0.9) : Number.NaN);
    console.log(
      `${strategy.padEnd(30)} median ${median.toFixed(0)}, p90 ${p90s.get(strategy)!.toFixed(0)} comparisons` +
        ` over ${seeds} seeds; ${unreached} not reached within ${budget} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  for (const strategy of STRATEGIES.slice(1)) {
    const median = medians.get("uniform")! / medians.get(strategy)!;
    const p90 = p90s.get("uniform")! / p90s.get(strategy)!;
    console.log(
      `uniform / ${strategy}: ${median.toFixed(2)}× the comparisons at the median, ${p90.toFixed(2)}× at p90`,
    );
  }
}

main();
