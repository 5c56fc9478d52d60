import { z } from "zod";

export const MAX_SAMPLES = 10;
export const PANEL_SIZE = { min: 2, max: 5 } as const;

/**
 * A run request's ensemble (issue 26): "samples N at temperature T" (self-consistency: N member runs on the
 * run's endpoint, each asked apart) or a panel (one member run per endpoint, 2–5 of the project's endpoints,
 * combined by mean, majority or minimum).
 */
export const ensembleRequestSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("samples"),
    samples: z.int().min(1).max(MAX_SAMPLES),
    temperature: z.number().min(0).max(2),
  }),
  z.strictObject({
    kind: z.literal("panel"),
    endpointIds: z
      .array(z.string().min(1).max(64))
      .min(PANEL_SIZE.min)
      .max(PANEL_SIZE.max)
      .refine((ids) => new Set(ids).size === ids.length, "a panel's endpoints must differ"),
    combine: z.enum(["mean", "majority", "minimum"]),
  }),
]);

/** What an ensemble run keeps in judge_run.ensemble. */
export type EnsembleSettings =
  | { kind: "samples"; combine: "declared"; samples: number; temperature: number }
  | { kind: "panel"; combine: "mean" | "majority" | "minimum"; endpointIds: string[] };

const storedSchema = z.union([
  z.object({
    kind: z.literal("samples"),
    combine: z.literal("declared"),
    samples: z.number(),
    temperature: z.number(),
  }),
  z.object({
    kind: z.literal("panel"),
    combine: z.enum(["mean", "majority", "minimum"]),
    endpointIds: z.array(z.string()),
  }),
]);

/**
 * What a pairwise parent run's stored ensemble carries besides its kind: its members judge pairs and are combined per
 * pair and aspect (lib/pairwise/judge/pairwise-samples.ts), never per score as a video run's are.
 */
export const PAIRS_ENSEMBLE = { of: "pairs" } as const;
export const pairsEnsembleSchema = z.object({ of: z.literal(PAIRS_ENSEMBLE.of) });

/** A run's stored ensemble settings, or null for a plain run and for a pairwise parent (PAIRS_ENSEMBLE). */
export function ensembleSettingsOf(stored: unknown): EnsembleSettings | null {
  if (pairsEnsembleSchema.safeParse(stored).success) return null;
  const parsed = storedSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
