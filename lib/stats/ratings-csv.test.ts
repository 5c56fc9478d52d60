import { describe, expect, it } from "vitest";
import { StatsInputError } from "./input-error";
import { buildRatingTable, MISSING } from "./rating-table";
import { parseRatingsCsv } from "./ratings-csv";

describe("parseRatingsCsv", () => {
  it("parses quoted fields, escaped quotes, CRLF, a BOM, blank lines and line breaks inside quotes", () => {
    const csv =
      '\ufeff"item","rater","value"\r\n"clip, one","Ann ""A""",3\r\n\r\nclip-2,"multi\nline",4\n"clip, one",bob,"3"\n';
    const table = parseRatingsCsv(csv, "ordinal");
    expect(table.itemIds).toEqual(["clip, one", "clip-2"]);
    expect(table.raterIds).toEqual(['Ann "A"', "multi\nline", "bob"]);
    expect(table.categories).toEqual([3, 4]);
  });

  it("gives a field the same id whether it was quoted or not", () => {
    const table = parseRatingsCsv('item,rater,value\nclip,ann,1\n"clip","ann ",2\n', "ordinal");
    expect(table.itemIds).toEqual(["clip"]);
    // Quoting keeps the padding inside the quotes: "ann " is another rater than ann.
    expect(table.raterIds).toEqual(["ann", "ann "]);
  });

  it("ignores padding around unquoted fields but keeps inner spaces and stray quotes", () => {
    const table = parseRatingsCsv('item , rater,value\n  clip one \t, ann , 7 \nclip 5" tall,ann,7.0\n', "interval");
    expect(table.itemIds).toEqual(["clip one", 'clip 5" tall']);
    expect(table.raterIds).toEqual(["ann"]);
    // "7" and "7.0" are the same number, so one category.
    expect(table.categories).toEqual([7]);
  });

  it("reads an empty value as a missing rating, and needs no final line break", () => {
    const table = parseRatingsCsv("item,rater,value\ni1,a,\ni1,b,2", "ordinal");
    expect(Array.from(table.codes)).toEqual([MISSING, 0]);
  });

  it("interns thousands of distinct ids exactly as the row API does (through hash-table growth)", () => {
    const lines = ["item,rater,value"];
    const rows = [];
    for (let i = 0; i < 5000; i++) {
      for (const rater of ["r1", "r2", "r3"]) {
        // Ids that share long prefixes and differ late, to exercise the character comparison.
        const item = `video-${String(i % 2500).padStart(8, "0")}-${i < 2500 ? "a" : "b"}`;
        const value = (i * 7 + rater.length) % 11;
        lines.push(`${item},${rater},${value}`);
        rows.push({ item, rater, value });
      }
    }
    const fromCsv = parseRatingsCsv(lines.join("\n"), "ordinal");
    const fromRows = buildRatingTable(rows);
    expect(fromCsv.itemIds).toEqual(fromRows.itemIds);
    expect(fromCsv.raterIds).toEqual(fromRows.raterIds);
    expect(fromCsv.categories).toEqual(fromRows.categories);
    expect(Array.from(fromCsv.codes)).toEqual(Array.from(fromRows.codes));
  });

  it("tells apart ids whose hashes collide", () => {
    // "video-0062789" and "video-0279192" have the same 32-bit FNV-1a hash (found by search): only the
    // character comparison separates them. The third line repeats the first id, which must be found again.
    const table = parseRatingsCsv(
      "item,rater,value\nvideo-0062789,a,1\nvideo-0279192,a,2\nvideo-0062789,b,3\n",
      "ordinal",
    );
    expect(table.itemIds).toEqual(["video-0062789", "video-0279192"]);
    expect(Array.from(table.codes)).toEqual([0, 2, 1, MISSING]);
    const quoted = parseRatingsCsv('item,rater,value\n"video-0062789",a,1\n"video-0279192",a,2\n', "ordinal");
    expect(quoted.itemIds).toEqual(["video-0062789", "video-0279192"]);
  });

  it("detects a duplicate pair among many items, naming both lines", () => {
    const lines = ["item,rater,value"];
    for (let i = 0; i < 3000; i++) lines.push(`item-${i},a,1`);
    lines.push("item-1234,a,2");
    expect(() => parseRatingsCsv(lines.join("\n"), "ordinal")).toThrow(
      new StatsInputError('duplicate rating for item "item-1234" by rater "a" (first given on line 1236)', 3002),
    );
  });
});
