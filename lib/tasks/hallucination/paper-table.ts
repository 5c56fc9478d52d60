/**
 * The paper's table (Sora Detector / T2VHaluBench): how a judge run's yes/no calls agree with a label
 * set's, as precision, recall, F1 and accuracy (plus Cohen's κ, which the paper lacks) for the overall
 * verdict, prompt consistency, static and dynamic hallucination and each category, by generator model
 * and overall. The positive class is always "hallucination present" (for prompt consistency: the video
 * is NOT consistent with its prompt), as the paper counts detections.
 *
 * Each value comes with n (videos with both a label and a judge call) and a percentile bootstrap 95%
 * interval that resamples videos, seeded so the table is the same on every run and machine.
 */
import { bootstrapConfidenceInterval, type ConfidenceInterval } from "../../stats/bootstrap";
import { cohensKappaFromConfusion } from "../../stats/cohens-kappa";
import { confusionMatrixFromCounts } from "../../stats/confusion-matrix";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import {
  DYNAMIC_CATEGORY_IDS,
  DYNAMIC_HALLUCINATION_CATEGORIES,
  STATIC_CATEGORY_IDS,
  STATIC_HALLUCINATION_CATEGORIES,
} from "./schemas";

/** The table's rows: the four headline targets, then each category. */
export const HEADLINE_TARGETS = [
  { id: "verdict", label: "Overall (hallucination)" },
  { id: "prompt", label: "Prompt consistency" },
  { id: "static", label: "Static hallucination" },
  { id: "dynamic", label: "Dynamic hallucination" },
] as const;

export const CATEGORY_TARGETS: readonly { id: string; label: string }[] = [
  ...STATIC_HALLUCINATION_CATEGORIES.map((c) => ({ id: c.id, label: `${c.id} ${c.name}` })),
  ...DYNAMIC_HALLUCINATION_CATEGORIES.map((c) => ({ id: c.id, label: `${c.id} ${c.name}` })),
];

/**
 * Whether a task's runs fill the table, read from its declaration in the registry: it declares a verdict and a
 * target for every category row (the calibration page offers only such runs).
 */
export function paperTableReads(task: TaskDeclaration | null): boolean {
  return !!task?.verdict && CATEGORY_TARGETS.every((row) => task.targets.some((target) => target.id === row.id));
}

export const STATIC_IDS: readonly string[] = STATIC_CATEGORY_IDS;
export const DYNAMIC_IDS: readonly string[] = DYNAMIC_CATEGORY_IDS;

export const PAPER_METRICS = ["precision", "recall", "f1", "accuracy", "kappa"] as const;
export type PaperMetric = (typeof PAPER_METRICS)[number];

/** One video: its generator model and, per table row, the label and the judge's call (null: unknown). */
export interface CalibrationVideo {
  videoId: string;
  model: string | null;
  label: Record<string, boolean | null>;
  judge: Record<string, boolean | null>;
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface PaperCell {
  n: number;
  counts: Counts;
  values: Record<PaperMetric, number | null>;
  ci: Record<PaperMetric, ConfidenceInterval | null>;
}

export interface PaperGroup {
  /** null: every video (the "Overall" row); else a generator model ("" for videos without one). */
  model: string | null;
  videos: number;
  cells: Record<string, PaperCell>;
}

export interface PaperTable {
  targets: readonly { id: string; label: string }[];
  /** The models (sorted, videos without a model last as ""), then overall. */
  groups: PaperGroup[];
  bootstrap: { iterations: number; seed: number; confidence: number };
}

export interface PaperTableOptions {
  iterations?: number;
  seed?: number;
  confidence?: number;
}

/** Metrics from counts; null where the denominator is 0 (κ: when chance agreement is total). */
export function metricsOf(c: Counts): Record<PaperMetric, number | null> {
  const n = c.tp + c.fp + c.fn + c.tn;
  return {
    precision: c.tp + c.fp === 0 ? null : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn),
    f1: 2 * c.tp + c.fp + c.fn === 0 ? null : (2 * c.tp) / (2 * c.tp + c.fp + c.fn),
    accuracy: n === 0 ? null : (c.tp + c.tn) / n,
    kappa:
      n === 0
        ? null
        : cohensKappaFromConfusion(
            confusionMatrixFromCounts([
              [c.tn, c.fp],
              [c.fn, c.tp],
            ]),
          ),
  };
}

function countPairs(pairs: readonly (readonly [boolean, boolean])[], indexes?: Int32Array): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const n = indexes ? indexes.length : pairs.length;
  for (let i = 0; i < n; i++) {
    const [label, judge] = pairs[indexes ? indexes[i]! : i]!;
    if (label && judge) c.tp++;
    else if (judge) c.fp++;
    else if (label) c.fn++;
    else c.tn++;
  }
  return c;
}

/** A cell from (label, judge) pairs, one per video. */
export function paperCell(pairs: readonly (readonly [boolean, boolean])[], options: PaperTableOptions = {}): PaperCell {
  const counts = countPairs(pairs);
  const ci = {} as Record<PaperMetric, ConfidenceInterval | null>;
  for (const metric of PAPER_METRICS) {
    // The same seed for every metric: each is read off the same resamples of videos.
    ci[metric] = bootstrapConfidenceInterval(pairs.length, (items) => metricsOf(countPairs(pairs, items))[metric], {
      iterations: options.iterations ?? 1000,
      seed: options.seed ?? 1,
      confidence: options.confidence ?? 0.95,
    });
  }
  return { n: pairs.length, counts, values: metricsOf(counts), ci };
}

export function paperTable(videos: readonly CalibrationVideo[], options: PaperTableOptions = {}): PaperTable {
  const targets = [...HEADLINE_TARGETS, ...CATEGORY_TARGETS];
  const models = [...new Set(videos.map((v) => v.model ?? ""))].sort((a, b) =>
    a === "" ? 1 : b === "" ? -1 : a.localeCompare(b),
  );
  const group = (model: string | null): PaperGroup => {
    const members = model === null ? videos : videos.filter((v) => (v.model ?? "") === model);
    const cells: Record<string, PaperCell> = {};
    for (const target of targets) {
      const pairs = members.flatMap((v) => {
        const label = v.label[target.id];
        const judge = v.judge[target.id];
        return label === null || label === undefined || judge === null || judge === undefined
          ? []
          : [[label, judge] as const];
      });
      cells[target.id] = paperCell(pairs, options);
    }
    return { model, videos: members.length, cells };
  };
  return {
    targets,
    groups: [...models.map(group), group(null)],
    bootstrap: {
      iterations: options.iterations ?? 1000,
      seed: options.seed ?? 1,
      confidence: options.confidence ?? 0.95,
    },
  };
}
