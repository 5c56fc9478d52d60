import { z } from "zod";

const id = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Not an id.");
const optionalNumber = (schema: z.ZodNumber) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().pipe(schema).optional());

/** The paper's table: `?labelSetId=&runId=` (required), `annotator`, `threshold` (0–10), `seed`, `iterations`, `format`. */
export const paperTableQuerySchema = z
  .object({
    labelSetId: id,
    runId: id,
    /** The label set's annotator column, when it has several (default: its first). */
    annotator: z.string().trim().min(1).max(200).optional(),
    /** A category (and prompt inconsistency) is present in the judge's eyes when its worst score is at least this; default: the run's verdict threshold. */
    threshold: optionalNumber(z.number().finite().min(0).max(10)),
    seed: optionalNumber(
      z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
    ),
    iterations: optionalNumber(z.number().int().min(100).max(10_000)),
    format: z.enum(["json", "csv", "latex"]).default("json"),
  })
  .strict();
export type PaperTableQuery = z.output<typeof paperTableQuerySchema>;

/**
 * A setup to compare: a run (its argmax scores and verdicts), or `<runId>:expected`, the same run's
 * logprob-weighted (expected) scores (lib/judge/calls/expected-score.ts).
 */
const setupId = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9_-]+(:expected)?$/, "Not a setup: a run id, or a run id followed by :expected.");

/**
 * Compare judge setups: `?runIds=a,b[,…]` (2–6 setups of one task: runs, or `<runId>:expected`), `target`,
 * `labelSetId=` (with `annotator`), `reference=consensus` (live reviewers) or `reference=gold` (adjudicated gold
 * values), `seed`, `iterations`.
 */
export const compareSetupsQuerySchema = z
  .object({
    runIds: z
      .string()
      .trim()
      .transform((s) => [
        ...new Set(
          s
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(setupId).min(2, "Pick at least two runs.").max(6, "Pick at most six runs.")),
    /** What the setups are compared with: a label set (`labelSetId`), the live reviewers' consensus, or the owners' gold values. */
    reference: z.enum(["label_set", "consensus", "gold"]).default("label_set"),
    /**
     * What the runs are compared on: a target or reviewed metric of their task, by id. Absent: the task's
     * verdict, else its only target.
     */
    target: id.optional(),
    labelSetId: id.optional(),
    annotator: z.string().trim().min(1).max(200).optional(),
    seed: optionalNumber(
      z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
    ),
    iterations: optionalNumber(z.number().int().min(100).max(10_000)),
  })
  .strict()
  .refine((q) => q.reference !== "label_set" || !!q.labelSetId, {
    message:
      "Name the label set (labelSetId), or compare with the reviewers' consensus (reference=consensus) or the gold values (reference=gold).",
    path: ["labelSetId"],
  });
export type CompareSetupsQuery = z.output<typeof compareSetupsQuerySchema>;
