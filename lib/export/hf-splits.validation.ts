import { z } from "zod";

/**
 * The Hugging Face dataset export's query (app/api/v1/projects/[projectId]/export/hf-dataset): which split to
 * write (lib/export/hf-splits.ts). Browser-safe: zod only.
 */

export const HF_SPLIT_KINDS = ["none", "seed", "metadata", "labelSet"] as const;

export const HF_SEED_SPLITS = ["train", "validation", "test"] as const;
export const HF_DEFAULT_RATIOS = { train: 0.8, validation: 0.1, test: 0.1 } as const;
const blank = (value: unknown) => (value === "" || value === null ? undefined : value);
const ratio = z.preprocess(blank, z.coerce.number().finite().min(0).max(1).optional());

/**
 * The export's query. Flat, as the export form's GET submits it: fields of the other split kinds may come
 * along empty and are ignored.
 */
export const hfDatasetQuerySchema = z
  .object({
    runId: z.string().min(1).max(100),
    /** "none" (one `test` split), "seed", "metadata" or "labelSet". */
    split: z.preprocess(blank, z.enum(HF_SPLIT_KINDS).default("none")),
    /** split=seed: any text; the same seed gives every video the same split in every export. */
    seed: z.preprocess(blank, z.string().trim().min(1).max(100).optional()),
    /** split=seed: the share of videos in train, validation and test (0–1, adding up to 1); unset: 0.8/0.1/0.1, or 0 when another is set. */
    train: ratio,
    validation: ratio,
    test: ratio,
    /** split=metadata: the field: model, seed, sample_index, dimension or a key of the project's videos' extra metadata (another is a 400 listing them). */
    field: z.preprocess(blank, z.string().trim().min(1).max(200).optional()),
  })
  .superRefine((query, ctx) => {
    if (query.split === "seed") {
      if (query.seed === undefined)
        ctx.addIssue({ code: "custom", path: ["seed"], message: "A seed split needs a seed." });
      const sum = seedRatios(query).reduce((a, b) => a + b, 0);
      if (Math.abs(sum - 1) > 1e-6)
        ctx.addIssue({
          code: "custom",
          path: ["train"],
          message: `The train, validation and test shares add up to ${Number(sum.toFixed(6))}, not 1.`,
        });
    }
    if (query.split === "metadata" && query.field === undefined)
      ctx.addIssue({ code: "custom", path: ["field"], message: "A metadata split needs a field." });
  });
export type HfDatasetQuery = z.output<typeof hfDatasetQuerySchema>;

export type SeedRatios = Record<(typeof HF_SEED_SPLITS)[number], number>;

export type HfSplitSpec =
  | { kind: "none" }
  | { kind: "seed"; seed: string; ratios: SeedRatios }
  | { kind: "metadata"; field: string }
  | { kind: "labelSet" };

function seedRatios(query: Pick<HfDatasetQuery, "train" | "validation" | "test">): number[] {
  const given = HF_SEED_SPLITS.some((name) => query[name] !== undefined);
  return HF_SEED_SPLITS.map((name) => query[name] ?? (given ? 0 : HF_DEFAULT_RATIOS[name]));
}

/** The split a parsed query asks for. */
export function hfSplitSpecOf(query: HfDatasetQuery): HfSplitSpec {
  switch (query.split) {
    case "seed": {
      const [train, validation, test] = seedRatios(query) as [number, number, number];
      return { kind: "seed", seed: query.seed!, ratios: { train, validation, test } };
    }
    case "metadata":
      return { kind: "metadata", field: query.field! };
    case "labelSet":
      return { kind: "labelSet" };
    default:
      return { kind: "none" };
  }
}
