import { z } from "zod";

/**
 * Answers cheap to declare, for the OpenAPI document only (the routes build these objects inline). Most
 * answers are described in words: their shapes come from lib queries and are documented where they are.
 */

/** Every error: `{"error": {"code", "message", "details"?}}` (lib/api/handler.ts jsonError). */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z
      .string()
      .describe(
        "A stable machine-readable code: invalid_request, unauthorized, forbidden, not_found, conflict, cross_origin, unsupported_media_type, …",
      ),
    message: z.string().describe("What went wrong, for a person."),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("More about it, e.g. `current` on a stale version, `errors` of a file."),
  }),
});

export const meResponseSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), isAdmin: z.boolean() });

export const createdProjectResponseSchema = z.object({ id: z.string(), name: z.string() });

export const projectResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().describe("The caller's role in the project: owner, reviewer or viewer."),
  archived: z.boolean(),
  guidelines: z.string().describe("Markdown."),
  ssoDefaultRole: z
    .enum(["owner", "reviewer", "viewer"])
    .nullable()
    .describe("The role every account created by single sign-on gets in the project; null: none."),
  createdAt: z.string().describe("ISO 8601."),
});

export const updatedProjectResponseSchema = projectResponseSchema.pick({
  id: true,
  name: true,
  archived: true,
  guidelines: true,
  ssoDefaultRole: true,
});

export const idResponseSchema = z.object({ id: z.string() });

export const nextItemResponseSchema = z.object({
  itemId: z.string().nullable().describe("null when nothing is left for the caller."),
});

export const releasedResponseSchema = z.object({ released: z.boolean() });

export const createdQueueResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  runId: z.string().nullable(),
  itemCount: z.number().int(),
});

/** A reviewer's judgment as the review routes answer it. */
export const judgmentResponseSchema = z.object({
  id: z.string(),
  value: z.number(),
  note: z.string().nullable(),
  reason: z.string().nullable(),
  acceptedJudge: z.boolean(),
  version: z.number().int(),
  updatedAt: z.string(),
});

export const withdrawnJudgmentResponseSchema = z.object({
  id: z.string(),
  withdrawn: z.boolean(),
  version: z.number().int(),
  updatedAt: z.string(),
});
