/**
 * How an ensemble run's members' values of one score become one value, and how far apart they are
 * (issue 26). Pure functions over a target's declaration: no task is named here.
 */
import { scaleBounds, unstableAtOf, type TargetDeclaration } from "../task-modules/task-declaration";

/**
 * "declared": by the target's level of measurement (mean for interval and ratio, median for ordinal,
 * majority for nominal), as self-consistency samples are combined. A panel picks "mean", "majority" or
 * "minimum" (the least favourable value by the target's direction: the lowest when higher is better).
 */
export type CombineRule = "declared" | "mean" | "majority" | "minimum";

export type CombinedTarget = Pick<
  TargetDeclaration,
  "scale" | "level" | "higherIsBetter" | "disagreementGap" | "unstableAt"
>;

export interface Dispersion {
  n: number;
  /** The combined value. */
  value: number;
  /** Sample SD (n − 1); 0 for a single value. */
  sd: number;
  range: number;
  /** Shannon entropy of the values in bits, on a categorical scale; null on a numeric one. */
  entropy: number | null;
  unstable: boolean;
}

/** The members' values of one score combined by the rule, with their dispersion; null when no member gave one. */
export function combineValues(target: CombinedTarget, values: readonly number[], rule: CombineRule): Dispersion | null {
  if (values.length === 0) return null;
  const categorical = target.scale.kind === "categorical";
  const value = combined(target, values, rule);
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = n < 2 ? 0 : Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1));
  const range = Math.max(...values) - Math.min(...values);
  const entropy = categorical ? entropyBits(values) : null;
  const spread = categorical ? entropy! : sd;
  return { n, value, sd, range, entropy, unstable: spread >= unstableAtOf(target) - 1e-9 };
}

function combined(target: CombinedTarget, values: readonly number[], rule: CombineRule): number {
  const categorical = target.scale.kind === "categorical";
  // A mean of labels is no label: a categorical scale's values are combined by majority (or its minimum).
  const effective = rule === "declared" ? declaredRule(target) : rule;
  if (effective === "minimum") {
    const worst = target.higherIsBetter ? Math.min(...values) : Math.max(...values);
    return worst;
  }
  if (effective === "majority" || categorical) return majority(values);
  if (effective === "median") return median(values, target);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const { min, max } = scaleBounds(target.scale);
  return Math.min(max, Math.max(min, mean));
}

function declaredRule(target: CombinedTarget): "mean" | "median" | "majority" {
  if (target.level === "nominal") return "majority";
  if (target.level === "ordinal") return "median";
  return "mean";
}

/** The most frequent value; of tied values, the one given first (member order), so the result is stable. */
function majority(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = values[0]!;
  for (const v of values) if (counts.get(v)! > counts.get(best)!) best = v;
  return best;
}

/** The median; of an even count, the mean of the middle two on a continuous numeric scale, else the lower one (a value on the scale). */
function median(values: readonly number[], target: CombinedTarget): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[mid]!;
  const continuous = target.scale.kind === "numeric" && target.scale.step === null;
  return continuous ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[mid - 1]!;
}

function entropyBits(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / values.length;
    h -= p * Math.log2(p);
  }
  return h === 0 ? 0 : h;
}
