import { describe, expect, it } from "vitest";

import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import {
  CORE_LABEL_SET_FORMATS,
  labelSetImportFieldsSchema,
  taskLabelSetFormatDeclarations,
} from "./label-sets.validation";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { SPAN_IMPORT_FORMAT_IDS, SPAN_IMPORT_FORMATS } from "../spans/span-files/span-file-formats";

/*
 * A task's label file format is declared twice, by the same id: for the import form and the upload's `format`
 * (its declarations, browser-safe) and with its importer (its module). The upload's default format is the one
 * a task declares the default, and the stored format ids stay what they were.
 */
describe("the tasks' label file formats", () => {
  it("each declared format has its importer in the same task's module, and no other task's module has one undeclared", () => {
    const declared = BUILT_IN_DECLARATIONS.folders.flatMap((folder) =>
      (folder.labelSetFormats ?? []).map((format) => `${folder.id}:${format.id}`),
    );
    const imported = builtInCatalogue().modules.flatMap((task) =>
      (task.labelSetFormats ?? []).map((format) => `${task.id}:${format.id}`),
    );
    expect(declared.sort()).toEqual(imported.sort());
    expect(declared.length).toBeGreaterThan(0);
    expect(
      taskLabelSetFormatDeclarations(builtInCatalogue()).filter((format) => format.isDefault).length,
    ).toBeLessThanOrEqual(1);
  });

  it("the upload takes the tasks' formats before the core's, and its default is the one a task declares (T2VHaluBench's sheet, as before)", () => {
    const schema = labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS);
    expect(schema.parse({ name: "Labels" }).format).toBe("t2vhalubench");
    for (const format of ["t2vhalubench", ...CORE_LABEL_SET_FORMATS, ...SPAN_IMPORT_FORMAT_IDS])
      expect(schema.parse({ name: "Labels", format }).format).toBe(format);
    expect(schema.safeParse({ name: "Labels", format: "xlsx" }).success).toBe(false);
    expect(schema).toBe(labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS));
  });
});
