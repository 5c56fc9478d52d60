/**
 * What the span file import answers (POST /projects/{projectId}/label-sets with a span file format): its plan, and
 * the label set it wrote. The route's `responses` name these schemas, the import's return type is checked against
 * them, and the browser imports the types. Plain data: no server-only import.
 */
import { z } from "zod";
import { SPAN_READ_FORMAT_IDS } from "./span-file-formats";

/** A row the import cannot take: where it is in the file and why. */
const spanImportProblemSchema = z.object({
  row: z.number().int().describe("The CSV record's line (the header is 1), the JSONL line, or the n-th span."),
  where: z.string().describe('The same place in words ("line 4", "task 2, annotation 1, result 3").'),
  message: z.string(),
});
export type SpanImportProblem = z.infer<typeof spanImportProblemSchema>;

const counts = z.record(z.string(), z.number().int());

/** What a span file would become: counts of rows, spans, videos, labels and annotators, and its problems. */
const spanImportPlanSchema = z.object({
  name: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  format: z.enum(SPAN_READ_FORMAT_IDS).describe("The span file format it was read as (an older alias resolved)."),
  rows: z.number().int(),
  spans: z.number().int(),
  matchedVideos: z.number().int(),
  labels: counts.describe("Spans by `task:label`."),
  annotators: counts.describe("Spans by annotator."),
  matchedBy: z
    .partialRecord(z.enum(["id", "path", "file name"]), z.number().int())
    .describe("How many spans found their video by the file's id, by path, by file name (absent kinds: none)."),
  problems: z.array(spanImportProblemSchema).describe("The first problems (at most 200)."),
  problemCount: z.number().int(),
});
export type SpanImportPlan = z.infer<typeof spanImportPlanSchema>;

/** The label set an import wrote, with the number of spans it holds. */
const importedSpanLabelSetSchema = z.object({
  id: z.string(),
  name: z.string(),
  format: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  citation: z.string(),
  importedById: z.string(),
  annotators: z.array(z.string()),
  spans: z.number().int(),
});

/** The dry run's answer (200): the plan, nothing written. */
const spanImportDryRunSchema = z.object({
  dryRun: z.literal(true),
  plan: spanImportPlanSchema,
  labelSet: z.null(),
});

/** The import's answer (201): the plan and the label set written. */
const spanImportDoneSchema = z.object({
  dryRun: z.literal(false),
  plan: spanImportPlanSchema,
  labelSet: importedSpanLabelSetSchema,
});

export type SpanImportAnswer = z.infer<typeof spanImportDryRunSchema> | z.infer<typeof spanImportDoneSchema>;

/**
 * Another label-set format's answer (a label sheet, VBench results, a generic CSV or JSONL): the same three fields,
 * its plan's counts and cells described in words (lib/label-sets/label-sets.ts).
 */
const otherLabelSetImportSchema = (dryRun: boolean) =>
  z.object({
    dryRun: z.literal(dryRun),
    plan: z.looseObject({ name: z.string() }),
    labelSet: dryRun ? z.null() : z.looseObject({ id: z.string(), name: z.string() }),
  });

/** POST /projects/{projectId}/label-sets as a dry run (200): a span file's plan, or another format's. */
export const labelSetImportDryRunSchema = z.union([spanImportDryRunSchema, otherLabelSetImportSchema(true)]);
/** POST /projects/{projectId}/label-sets importing (201): a span file's label set, or another format's. */
export const labelSetImportDoneSchema = z.union([spanImportDoneSchema, otherLabelSetImportSchema(false)]);
