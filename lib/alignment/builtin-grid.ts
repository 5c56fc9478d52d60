/**
 * The run settings a built-in alignment tries on train without a call (pipeline.alignmentSettings: aggregation,
 * verdict basis and threshold): each grid entry over the parent run's stored train answers
 * (lib/judge/engine/resummarise.ts), and which entry to keep.
 */
import { isDeepStrictEqual } from "node:util";
import type { PrismaClient } from "../generated/prisma/client";
import { metricsUnderSettings, storedVideoAnswers } from "../judge/engine/resummarise";
import type { BinaryAgreement } from "./agreement";
import type { AlignmentDeps } from "./align-judge";
import { AlignmentCancelled } from "./alignment-cancelled";

/** Equal settings whatever their keys' order (a run's stored settings come back from jsonb in its own key order). */
export const sameSettings = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/** Settings in words, for a candidate's note: "aggregation max-max, verdict.on max_category, verdict.threshold 7". */
export function settingsWords(settings: unknown, prefix = ""): string {
  if (settings === null || typeof settings !== "object") return `${prefix}${String(settings)}`;
  return Object.entries(settings as Record<string, unknown>)
    .map(([key, value]) =>
      value !== null && typeof value === "object"
        ? settingsWords(value, `${prefix}${key}.`)
        : `${prefix}${key} ${String(value)}`,
    )
    .join(", ");
}

/**
 * The grid entry to keep of those that score best on train: the middle one of the first run of neighbouring entries
 * that all score best. A pipeline lists its grid with neighbours next to each other (a verdict threshold ascending),
 * so several thresholds that separate train equally well are a run, and its middle is the one farthest from where
 * train starts to disagree: a held-out video near the edge (the judge gives a biased clip 5 on train, 6 on held-out)
 * still falls on the right side. The lowest of the run would be tuned to train's exact values. Null entries (not
 * tried) end a run; a score of null never wins.
 */
export function middleOfBestRun<T>(entries: readonly (T | null)[], score: (entry: T) => number | null): T | null {
  const scored = entries.map((entry) => (entry === null ? null : score(entry)));
  const best = Math.max(...scored.map((s) => s ?? -Infinity));
  if (best === -Infinity) return null;
  const isBest = (i: number) => scored[i] !== null && scored[i] !== undefined && Math.abs(scored[i]! - best) <= 1e-12;
  const first = scored.findIndex((_, i) => isBest(i));
  let last = first;
  while (last + 1 < entries.length && isBest(last + 1)) last++;
  return entries[first + Math.floor((last - first) / 2)]!;
}

/**
 * The grid entry best on train: the run's stored train answers summarised under each setting the pipeline offers (no
 * calls), the middle of the best run of the grid (`middleOfBestRun`), with its train agreement and values; null when
 * there is no grid or nothing was tried. Whether it beats the parent is the caller's to say.
 */
export async function bestSettingsOnTrain(options: {
  prisma: PrismaClient;
  pipeline: AlignmentDeps["pipelines"][string];
  grid: readonly unknown[];
  metricId: string;
  trainIds: readonly string[];
  signal?: AbortSignal;
  parent: { settings: unknown; trainRunId: string };
  agreementOf: (values: ReadonlyMap<string, number>) => BinaryAgreement;
}): Promise<{ settings: unknown; train: BinaryAgreement; values: Map<string, number> } | null> {
  const { pipeline, parent } = options;
  if (options.grid.length === 0) return null;
  const stored = [];
  for (const id of options.trainIds) {
    if (options.signal?.aborted) throw new AlignmentCancelled("The alignment was cancelled.");
    const answers = await storedVideoAnswers(options.prisma, parent.trainRunId, id);
    if (answers) stored.push(answers);
  }
  // Every grid entry's result in the grid's order (null: the parent's own settings, not tried again).
  const tried: ({ settings: unknown; train: BinaryAgreement; values: Map<string, number> } | null)[] = [];
  for (const raw of options.grid) {
    // A grid entry changes only what it names: the overall's aggregation keeps the parent's verdict rule.
    const merged = { ...(parent.settings as Record<string, unknown> | null), ...(raw as Record<string, unknown>) };
    const settings = pipeline.settingsSchema ? pipeline.settingsSchema.parse(merged) : merged;
    if (sameSettings(settings, parent.settings)) {
      tried.push(null);
      continue;
    }
    const values = new Map<string, number>();
    for (const answers of stored) {
      const value = metricsUnderSettings(pipeline, answers, settings)[options.metricId];
      if (value !== null && value !== undefined) values.set(answers.videoId, value);
    }
    tried.push({ settings, train: options.agreementOf(values), values });
  }
  return middleOfBestRun(tried, (entry) => entry.train.kappa);
}
