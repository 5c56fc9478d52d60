/**
 * The item list's whitelisted filter. Its `kind` is read from the registry when the schema is asked for
 * (items.validation.ts stays free of the registry: task modules import it).
 */
import { z } from "zod";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../validation/nul-bytes";
import { listedItemKinds } from "./item-sets";
import { ITEMS_PAGE_SIZE, itemIdSchema, MAX_ITEMS_PAGE_SIZE, MAX_MODEL_NAME_LENGTH } from "./items.validation";

/**
 * The item list's `kind`: one of the kinds the task modules list (`itemList` of their item set kinds, read
 * at call time), by default the one a task lists by default.
 */
function itemKindField(): z.ZodType<string, string | undefined> {
  const listed = listedItemKinds();
  const [first, ...rest] = listed.map((kind) => kind.itemKind);
  if (first === undefined) return z.string({ error: "no registered task lists items" }).refine(() => false, "no registered task lists items");
  const kinds = z.enum([first, ...rest]);
  const byDefault = listed.find((kind) => kind.listedByDefault)?.itemKind;
  return byDefault === undefined ? kinds : kinds.default(byDefault as typeof first);
}

function buildItemFilterSchema() {
  return z
    .object({
      kind: itemKindField(),
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
export type ItemFilter = z.output<ReturnType<typeof buildItemFilterSchema>>;

let built: { key: string; schema: ReturnType<typeof buildItemFilterSchema> } | null = null;

/** The item list's whitelisted filter: only these keys reach the query. The same object while the listed kinds are unchanged. */
export function itemFilterSchema() {
  const key = JSON.stringify(listedItemKinds().map((kind) => [kind.itemKind, kind.listedByDefault === true]));
  if (built?.key !== key) built = { key, schema: buildItemFilterSchema() };
  return built.schema;
}
