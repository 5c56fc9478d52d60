/**
 * The item list's whitelisted filter, its `kind` read from the registry (the task modules' item set kinds
 * with an `itemList`) when the schema is asked for. Server only: it reads the task modules.
 */
import { listedItemKinds } from "./item-sets";
import { itemFilterSchemaOf } from "./items.validation";

/** The item list's filter over the registered tasks' listed kinds: the same object while they are unchanged. */
export function itemFilterSchema() {
  return itemFilterSchemaOf(listedItemKinds());
}
