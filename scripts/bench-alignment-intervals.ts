// `npm run bench:alignment-intervals`: how wide the held-out intervals of an alignment are, by held-out
// size, for a judge at κ ≈ 0.6 against binary labels (40% positive). For each n: the 95% percentile bootstrap
// interval of κ, and of the paired difference of two such judges that err independently; the median width over
// 200 simulated held-out sets (2,000 resamples each). The table in docs/guide/judge-alignment.md is its output.
import { cohensKappa } from "../lib/stats/cohens-kappa";
import { mulberry32, pairedBootstrapDifference } from "../lib/stats/bootstrap";

const PREVALENCE = 0.4;
const TARGET_KAPPA = 0.6;

/** The symmetric error rate that gives the target κ at this prevalence. */
function errorRateFor(kappa: number): number {
  let lo = 0;
  let hi = 0.5;
  for (let i = 0; i < 60; i++) {
    const e = (lo + hi) / 2;
    const q = PREVALENCE * (1 - e) + (1 - PREVALENCE) * e;
    const pe = PREVALENCE * q + (1 - PREVALENCE) * (1 - q);
    const k = (1 - e - pe) / (1 - pe);
    if (k > kappa) lo = e;
    else hi = e;
  }
  return (lo + hi) / 2;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const error = errorRateFor(TARGET_KAPPA);
const random = mulberry32(26);
console.log(`error rate ${error.toFixed(3)} gives κ ${TARGET_KAPPA} at ${PREVALENCE * 100}% positive`);
console.log("| held-out videos | 95% interval of κ (width) | 95% interval of a κ difference (width) |");
console.log("|---:|---:|---:|");
for (const n of [10, 20, 40, 80, 160, 320]) {
  const single: number[] = [];
  const paired: number[] = [];
  for (let sim = 0; sim < 200; sim++) {
    const truth = Array.from({ length: n }, () => (random() < PREVALENCE ? 1 : 0));
    const judge = () => truth.map((t) => (random() < error ? 1 - t : t));
    const a = judge();
    const b = judge();
    const kappaOf = (pred: number[]) => (items: Int32Array) =>
      cohensKappa(
        Array.from(items, (i) => truth[i]!),
        Array.from(items, (i) => pred[i]!),
      );
    const one = pairedBootstrapDifference(n, kappaOf(a), () => 0, { iterations: 2000, seed: sim + 1 });
    const two = pairedBootstrapDifference(n, kappaOf(a), kappaOf(b), { iterations: 2000, seed: sim + 1 });
    if (one.lower !== null && one.upper !== null) single.push(one.upper - one.lower);
    if (two.lower !== null && two.upper !== null) paired.push(two.upper - two.lower);
  }
  console.log(
    `| ${n} | ±${(median(single) / 2).toFixed(2)} (${median(single).toFixed(2)}) | ±${(median(paired) / 2).toFixed(2)} (${median(paired).toFixed(2)}) |`,
  );
}
