import { describe, expect, it } from "vitest";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import {
  SPAN_FILE_FORMATS,
  SPAN_FORMAT_ALIASES,
  SPAN_IMPORT_FORMAT_IDS,
  SPAN_READ_FORMAT_IDS,
  spanReadFormat,
  spanWriteFormat,
} from "./span-file-formats";
import { labelSetImportFields } from "./span-import";

/*
 * The span file formats are one table: each has one id, which the import and the export both use; every id the
 * label-set import takes for spans reaches a reader of the table, and the older ids reach the format's own id.
 */
describe("the span file formats' table", () => {
  it("gives each format one id that no alias shadows, and a reader, a writer or both", () => {
    const ids = SPAN_FILE_FORMATS.map((format) => format.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const alias of SPAN_FORMAT_ALIASES) expect(ids).not.toContain(alias);
    for (const format of SPAN_FILE_FORMATS)
      expect([format.id, "read" in format || "write" in format]).toEqual([format.id, true]);
    for (const format of SPAN_FILE_FORMATS)
      if ("read" in format) expect([format.id, format.accept]).toEqual([format.id, expect.stringMatching(/^\./)]);
  });

  it("takes every id the import reads in the label-set import's format field, and each reaches a reader", () => {
    const fields = labelSetImportFields(builtInCatalogue().declarations());
    for (const id of SPAN_IMPORT_FORMAT_IDS) {
      expect(fields.parse({ name: "Spans", format: id, task: "project" }).format).toBe(id);
      const format = spanReadFormat(id, { fileName: "spans.csv", text: "video,label\n" });
      expect([id, typeof format.read.parse]).toEqual([id, "function"]);
    }
    expect(SPAN_IMPORT_FORMAT_IDS.slice(0, SPAN_READ_FORMAT_IDS.length)).toEqual(SPAN_READ_FORMAT_IDS);
    // A format that is only written is no import format.
    expect(fields.safeParse({ name: "Spans", format: "label-studio-config" }).success).toBe(false);
  });

  it("reads the older ids as the format's own: spans by the file's name or first character, label_studio_spans as label-studio", () => {
    const read = (id: "spans" | "label_studio_spans", fileName: string, text: string) =>
      spanReadFormat(id, { fileName, text }).id;
    expect(read("spans", "a.csv", "video,label\n")).toBe("csv");
    expect(read("spans", "a.jsonl", "")).toBe("jsonl");
    expect(read("spans", "a.ndjson", "")).toBe("jsonl");
    expect(read("spans", "a.txt", '\uFEFF {"video": "a.mp4"}\n')).toBe("jsonl");
    expect(read("label_studio_spans", "a.json", "[]")).toBe("label-studio");
  });

  it("writes only under a format's own id; another is a 400 naming the ids it writes", () => {
    expect(spanWriteFormat("label-studio-config").write.extension).toBe("xml");
    for (const id of ["spans", "label_studio_spans", "xml", "__proto__"])
      expect(() => spanWriteFormat(id)).toThrow(/"csv", "jsonl", "label-studio", "label-studio-config"/);
  });
});
