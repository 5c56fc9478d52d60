import { z } from "zod";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../validation/nul-bytes";
import type { ItemListDeclaration } from "../task-modules/item-set-kind";

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

/** The item list's `kind`: one of the listed kinds, by default the one listed by default (none listed: every kind is refused). */
function itemKindField(
  listed: readonly Pick<ItemListDeclaration, "itemKind" | "listedByDefault">[],
): z.ZodType<string, string | undefined> {
  const [first, ...rest] = listed.map((kind) => kind.itemKind);
  if (first === undefined) return z.string().refine(() => false, "no registered task lists items");
  const kinds = z.enum([first, ...rest]);
  const byDefault = listed.find((kind) => kind.listedByDefault)?.itemKind;
  return byDefault === undefined ? kinds : kinds.default(byDefault);
}

/**
 * The item list's whitelisted filter over these kinds: only these keys reach the query. The list's own
 * (item-filter.ts) passes the registry's kinds; a task's API description may pass its own, since a task
 * module may not import what reads the registry of modules while that registry loads.
 */
const filterSchemas = new Map<string, ReturnType<typeof buildItemFilterSchema>>();

/**
 * The item list's filter over these listed kinds: the same object for the same kinds, so the schema the OpenAPI
 * document shows for the item list route is the one its wrapper parses with while the registry is unchanged.
 */
export function itemFilterSchemaOf(listed: readonly Pick<ItemListDeclaration, "itemKind" | "listedByDefault">[]) {
  const key = JSON.stringify(listed.map((kind) => [kind.itemKind, kind.listedByDefault === true]));
  let schema = filterSchemas.get(key);
  if (!schema) filterSchemas.set(key, (schema = buildItemFilterSchema(listed)));
  return schema;
}

function buildItemFilterSchema(listed: readonly Pick<ItemListDeclaration, "itemKind" | "listedByDefault">[]) {
  return z
    .object({
      kind: itemKindField(listed),
      model: z.string().trim().min(1).max(MAX_MODEL_NAME_LENGTH).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
      /** The items' group (the task's grouping of them, a caption's type). */
      type: z.string().trim().min(1).max(100).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
      videoId: itemIdSchema.optional(),
      setId: itemIdSchema.optional(),
      page: z.coerce.number().int().min(1).max(1_000_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(MAX_ITEMS_PAGE_SIZE).default(ITEMS_PAGE_SIZE),
    })
    .strict();
}
export type ItemFilter = z.output<ReturnType<typeof itemFilterSchemaOf>>;
