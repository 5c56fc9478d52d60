// Benchmark of the pairwise leaderboard's fit (lib/pairwise/ranking): 1,000,000 verdicts over 50 generators and
// 10,000 prompts, Bradley–Terry with 1,000 bootstrap draws over prompts.
//   npm run bench:pairwise-fit            (or: npx tsx scripts/bench-pairwise-fit.ts [--workers N])
// The verdicts come from known strengths (evenly spaced, 0 to 1,200 Elo points apart) with a seeded PRNG: on each
// prompt, 100 verdicts on uniformly drawn generator pairs; a tie (half of them "both bad") with probability 0.2,
// otherwise the Bradley–Terry winner. Prints the wall time of each phase (aggregation, point fit, the bootstrap,
// robustness and matrices), the load average before and after, the largest gap between the ratings and a
// reference (gradient ascent written from the formula, testkit/pairwise/ranking-reference.ts, on the aggregated
// counts), and Kendall's τ between the ratings and the true strengths. The bootstrap's draws run on worker threads (one per core by default; each
// computes a range of draws, which are independent seeded streams, so the numbers do not depend on the split).
// Numbers only, no assertions.
import os from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { mulberry32 } from "../lib/stats/bootstrap";
import type { Verdict, Vote } from "../lib/pairwise/verdicts";
import { aggregateVotes, type VoteTable } from "../lib/pairwise/ranking/aggregate";
import { bootstrapRatings } from "../lib/pairwise/ranking/bootstrap";
import { RIDGE } from "../lib/pairwise/ranking/fit";
import { kendallTauB } from "../lib/pairwise/ranking/correlation";
import { fitTable, modelFor, rankTable } from "../lib/pairwise/ranking/rank-votes";
import type { RankingOptions } from "../lib/pairwise/ranking/ranking.types";
import { referenceBradleyTerry, referenceElo, type ReferenceRow } from "../testkit/pairwise/ranking-reference";

const VERDICTS = 1_000_000;
const GENERATORS = 50;
const PROMPTS = 10_000;
const DRAWS = 1000;
const TARGET_MS = 5000;
const TOLERANCE_POINTS = 0.5;
const TIE_SHARE = 0.2;
const SPREAD_ELO = 1200;
const OPTIONS: RankingOptions = { tieModel: "bradley_terry", bootstrapDraws: DRAWS, seed: 1, minVotes: 30 };

const generatorName = (g: number) => `gen-${String(g).padStart(2, "0")}`;
const trueElo = (g: number) => (SPREAD_ELO * g) / (GENERATORS - 1);

function synthesise(): Vote[] {
  const random = mulberry32(66);
  const names = Array.from({ length: GENERATORS }, (_, g) => generatorName(g));
  const votes: Vote[] = [];
  for (let k = 0; k < VERDICTS; k++) {
    const prompt = `prompt-${k % PROMPTS}`;
    const a = Math.floor(random() * GENERATORS);
    const b = (a + 1 + Math.floor(random() * (GENERATORS - 1))) % GENERATORS;
    const pA = 1 / (1 + 10 ** ((trueElo(b) - trueElo(a)) / 400));
    const u = random();
    const verdict: Verdict = u < TIE_SHARE ? (u < TIE_SHARE / 2 ? "tie_bad" : "tie_good") : random() < pA ? "A" : "B";
    votes.push({
      pairId: `${prompt}:${a}:${b}`,
      prompt,
      aspect: "overall",
      generatorA: names[a]!,
      generatorB: names[b]!,
      raterId: `rater-${k % 7}`,
      raterKind: "reviewer",
      verdict,
      strength: 1,
      aShownOn: null,
      msToVerdict: null,
      honeypot: false,
    });
  }
  return votes;
}

interface WorkerJob {
  table: VoteTable;
  from: number;
  to: number;
}

/** Worker side: fit the warm start on the table handed over, compute draws [from, to). */
function runWorker(): void {
  const { table, from, to } = workerData as WorkerJob;
  const draws = bootstrapRatings(table, modelFor(OPTIONS.tieModel), fitTable(table, OPTIONS), OPTIONS.seed, from, to);
  parentPort!.postMessage(draws, [draws.buffer as ArrayBuffer]);
}

/** A worker loads this script through tsx's loader (registered in the worker) and takes the worker branch. */
const WORKER_BOOT = `(async () => {
  const { register } = await import("tsx/esm/api");
  register();
  await import(${JSON.stringify(import.meta.url)});
})();`;

/** The draws over `workers` threads; the aggregated table (typed arrays) is copied to each. */
async function parallelDraws(table: VoteTable, workers: number): Promise<Float64Array> {
  if (workers <= 1)
    return bootstrapRatings(table, modelFor(OPTIONS.tieModel), fitTable(table, OPTIONS), OPTIONS.seed, 0, DRAWS);
  const per = Math.ceil(DRAWS / workers);
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const job: WorkerJob = { table, from: w * per, to: Math.min(DRAWS, (w + 1) * per) };
      return new Promise<Float64Array>((resolve, reject) => {
        const worker = new Worker(WORKER_BOOT, { eval: true, workerData: job });
        worker.once("message", resolve);
        worker.once("error", reject);
      });
    }),
  );
  const all = new Float64Array(DRAWS * table.generators.length);
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}

function referenceGap(table: VoteTable, ratings: Map<string, number>): { reference: number; truthTau: number | null } {
  const rows: ReferenceRow[] = [];
  for (let c = 0; c < table.cellI.length; c++) {
    const [i, j] = [table.cellI[c]!, table.cellJ[c]!];
    rows.push({ i, j, outcome: "i", weight: table.totals.winI[c]! });
    rows.push({ i, j, outcome: "j", weight: table.totals.winJ[c]! });
    rows.push({ i, j, outcome: "tie", weight: table.totals.ties[c]! });
  }
  const elo = referenceElo(
    referenceBradleyTerry(table.generators.length, rows, RIDGE, 1e-6),
    table.generators.map(() => true),
  );
  let reference = 0;
  table.generators.forEach((name, g) => {
    reference = Math.max(reference, Math.abs(ratings.get(name)! - elo[g]!));
  });
  const truthTau = kendallTauB(
    table.generators.map((name) => ratings.get(name)!),
    table.generators.map((_, g) => trueElo(g)),
  );
  return { reference, truthTau };
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

function timed<T>(label: string, timings: string[], run: () => T): T {
  const start = performance.now();
  const value = run();
  timings.push(`${label} ${(performance.now() - start).toFixed(0)} ms`);
  return value;
}

async function main(): Promise<void> {
  const workersFlag = process.argv.indexOf("--workers");
  const workers = workersFlag > 0 ? Number(process.argv[workersFlag + 1]) : os.availableParallelism();
  const votes = synthesise();
  console.log(`pairwise fit: ${VERDICTS} verdicts, ${GENERATORS} generators, ${PROMPTS} prompts, ${DRAWS} draws`);
  console.log(`load average before: ${load()} (${os.availableParallelism()} cores), bootstrap workers: ${workers}`);
  const timings: string[] = [];
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const table = timed("aggregate", timings, () => aggregateVotes(votes));
  const bootStart = performance.now();
  const draws = await parallelDraws(table, workers);
  timings.push(`bootstrap ${(performance.now() - bootStart).toFixed(0)} ms`);
  const ranking = timed("point fit + robustness + matrices", timings, () => rankTable(table, OPTIONS, draws));
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(`wall ${wall.toFixed(0)} ms (target < ${TARGET_MS} ms): ${timings.join(", ")}`);
  console.log(`CPU time of the process, all threads: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`);
  console.log(`load average after: ${load()}`);
  console.log(`(pair, outcome, prompt) entries: ${table.entryPrompt.length}, cells: ${table.cellI.length}`);
  const ratings = new Map(ranking.ratings.map((row) => [row.generator, row.rating]));
  const gap = referenceGap(table, ratings);
  console.log(`largest |rating − reference|: ${gap.reference.toExponential(1)} points (tolerance ${TOLERANCE_POINTS})`);
  // Ties drawn at a fixed rate and counted half a win compress the fitted scale, so the truth is compared by order.
  console.log(`Kendall τ between the ratings and the true strengths: ${gap.truthTau?.toFixed(4)}`);
  const widths = ranking.ratings.map((row) => row.upper! - row.lower!);
  console.log(`95% interval width: median ${widths.sort((a, b) => a - b)[widths.length >> 1]!.toFixed(1)} points`);
  const top = ranking.ratings[0]!;
  console.log(`first: ${top.generator} ${top.rating.toFixed(2)} [${top.lower!.toFixed(2)}, ${top.upper!.toFixed(2)}]`);
  console.log(`robustness: ${JSON.stringify(ranking.robustness)}`);
}

if (isMainThread) await main();
else runWorker();
