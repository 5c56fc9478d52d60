/**
 * The item list's whitelisted filter, its `kind` one of the catalogue's (the task modules' item set kinds with an
 * `itemList`). Server only: it reads the task modules.
 */
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import { listedItemKinds } from "./item-sets";
import { itemFilterSchemaOf } from "./items.validation";

/** The item list's filter over the catalogue's listed kinds (kept with the catalogue). */
export function itemFilterSchema(catalogue: TaskCatalogue) {
  return catalogue.derived("items.filter", () => itemFilterSchemaOf(listedItemKinds(catalogue)));
}
