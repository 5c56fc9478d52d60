import { z } from "zod";
import { guidelinesSchema } from "../../projects/projects.validation";
import { curationEditsSchema, CURATION_DECISIONS } from "./curation";

const idSchema = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, `Invalid ${what} id.`);
export const curationQueueIdSchema = idSchema("queue");
export const candidateSetIdSchema = idSchema("candidate set");
export const candidateItemIdSchema = idSchema("item");

export const MAX_CURATORS_PER_QUESTION = 5;

/** "kept": only the candidates the filters kept; "all": also those a filter removed, so curators can restore them. */
export const CURATION_SCOPES = ["kept", "all"] as const;
export type CurationPool = (typeof CURATION_SCOPES)[number];

export const createCurationQueueSchema = z.strictObject({
  candidateSetId: candidateSetIdSchema,
  name: z.string().trim().min(1, "Give the queue a name.").max(200, "At most 200 characters."),
  curatorsPerQuestion: z
    .int("A whole number of curators.")
    .min(1, "At least 1 curator per question.")
    .max(MAX_CURATORS_PER_QUESTION, `At most ${MAX_CURATORS_PER_QUESTION} curators per question.`)
    .default(1),
  scope: z.enum(CURATION_SCOPES, { error: `The scope is "kept" or "all".` }).default("kept"),
  /** Emails of the only curators who may decide in this queue; empty: every reviewer and owner. */
  assignees: z.array(z.string().trim().toLowerCase().email().max(320)).max(100).default([]),
  /** Instructions for the curators (Markdown). */
  guidelines: guidelinesSchema.default(""),
});
export type CreateCurationQueueInput = z.input<typeof createCurationQueueSchema>;

/** The body of `PUT /api/v1/items/:itemId/curation` (the item comes from the path). */
export const curationBodySchema = z.strictObject({
  decision: z.enum(CURATION_DECISIONS, { error: `The decision is "accept" or "reject".` }),
  edits: curationEditsSchema,
  reason: z.string().trim().max(2000).optional(),
  expectedVersion: z.int().min(1).optional(),
});

/** `?skip=id,id`: items the screen already holds (the current one, while it prefetches the next). */
export const nextCurationItemQuerySchema = z.object({
  skip: z
    .string()
    .max(2000)
    .optional()
    .transform((value) => (value ? value.split(",").filter(Boolean) : []))
    .pipe(z.array(candidateItemIdSchema).max(20)),
});

export const EXPORT_FORMATS = ["mc", "open", "both"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const exportFormatSchema = z
  .enum(EXPORT_FORMATS, { error: `The format is "mc", "open" or "both".` })
  .default("both");

export const makeQaSetSchema = z.strictObject({
  projectId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid project id."),
  format: exportFormatSchema,
  name: z.string().trim().min(1, "Give the question set a name.").max(200, "At most 200 characters."),
});
