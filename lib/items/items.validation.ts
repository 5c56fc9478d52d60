import { z } from "zod";

/** Longest model name accepted (an item's `model`: the model that wrote it). */
export const MAX_MODEL_NAME_LENGTH = 200;

export const itemIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid id.");

/** A multipart text field that says yes or no; absent is no. */
const flagField = z
  .enum(["true", "false", "1", "0", ""], { error: 'must be "true" or "false"' })
  .optional()
  .transform((value) => value === "true" || value === "1");

const setNameField = z.string().trim().max(300, "at most 300 characters").optional();

/** The text fields of a set import that names no model (the file comes as the `file` part). */
export const referenceSetFieldsSchema = z.object({
  name: setNameField,
  dryRun: flagField,
  citation: z.string().trim().max(2000).optional(),
});

/** The text fields of a model-outputs import. */
export const outputsFieldsSchema = z.object({
  model: z
    .string({ error: 'missing: name the model that wrote the outputs in the "model" field' })
    .trim()
    .min(1, "must not be empty (the model that wrote the outputs)")
    .max(MAX_MODEL_NAME_LENGTH, `at most ${MAX_MODEL_NAME_LENGTH} characters`),
  name: setNameField,
  dryRun: flagField,
});

export const ITEMS_PAGE_SIZE = 50;
export const MAX_ITEMS_PAGE_SIZE = 500;
