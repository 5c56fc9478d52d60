/**
 * The item set kind of a rubric task whose subject is an item: its id and item kind carry the task's key (unique
 * across projects, like its pipeline id), and its fields are the ones the definition declares, so a file of
 * `{video, text, reference}` items is read by the generic item importer (lib/items/generic-items.ts) with no
 * code of its own.
 */
import { genericItemSetKind } from "../items/generic-items";
import type { RubricDefinition } from "./rubric-definition";
import { rubricItemKind, rubricPipelineId } from "./rubric-declaration";

/** The item set kind a rubric task imports its items as, or null when the rubric judges videos. */
export function rubricItemSetKind(key: number, definition: RubricDefinition) {
  if (definition.subject.kind !== "item") return null;
  return genericItemSetKind({
    id: `${rubricPipelineId(key)}_items`,
    noun: `${definition.name} item set`,
    itemKind: rubricItemKind(key),
    fields: definition.subject.fields,
  });
}
