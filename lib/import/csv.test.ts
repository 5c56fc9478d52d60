import { describe, expect, it } from "vitest";
import { findColumn, parseCsv, parseCsvTable } from "./csv";

function fieldsOf(text: string): string[][] {
  const parsed = parseCsv(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.records.map((record) => record.fields);
}

describe("parseCsv", () => {
  it("splits plain fields and records", () => {
    expect(fieldsOf("a,b,c\n1,2,3\n")).toEqual([
      ["a", "b", "c"],
      ["1", "2", "3"],
    ]);
  });

  it("keeps commas, doubled quotes and line breaks inside quoted fields", () => {
    expect(fieldsOf('"a, b","say ""hi""","line 1\nline 2"\n')).toEqual([["a, b", 'say "hi"', "line 1\nline 2"]]);
  });

  it("accepts CRLF, LF and lone CR line breaks and a CRLF inside quotes", () => {
    expect(fieldsOf("a,b\r\n1,2\r\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(fieldsOf("a\rb\n")).toEqual([["a"], ["b"]]);
    expect(fieldsOf('"x\r\ny",z\r\n')).toEqual([["x\r\ny", "z"]]);
  });

  it("reads a last record without a final line break, and empty fields", () => {
    expect(fieldsOf("a,,c\n,,")).toEqual([
      ["a", "", "c"],
      ["", "", ""],
    ]);
    expect(fieldsOf('a,""')).toEqual([["a", ""]]);
  });

  it("returns no records for empty text and strips a byte order mark", () => {
    expect(fieldsOf("")).toEqual([]);
    expect(fieldsOf("\uFEFFprompt\nx\n")).toEqual([["prompt"], ["x"]]);
  });

  it("keeps a quote inside an unquoted field literally", () => {
    expect(fieldsOf('a 5" screen,b\n')).toEqual([['a 5" screen', "b"]]);
  });

  it("numbers records by the line they start on, across multi-line fields", () => {
    const parsed = parseCsv('h\n"one\ntwo\nthree"\nlast\n');
    expect(parsed.ok && parsed.records.map((record) => record.line)).toEqual([1, 2, 5]);
  });

  it("rejects an unclosed quote, naming the line it opened on", () => {
    expect(parseCsv('a\n"never closed\nmore')).toEqual({
      ok: false,
      error: expect.stringMatching(/^line 2: .*never closed/),
    });
  });

  it("rejects text after a closing quote", () => {
    expect(parseCsv('a\n"quoted"tail,b\n')).toEqual({
      ok: false,
      error: expect.stringMatching(/^line 2: unexpected text after a closing quote/),
    });
  });
});

describe("parseCsvTable", () => {
  it("keys rows by header names and skips blank lines", () => {
    const table = parseCsvTable("Prompt,Dimension\n\nA cat.,Mechanics\n\n");
    expect(table.ok && table.columns).toEqual(["Prompt", "Dimension"]);
    expect(table.ok && table.rows.map((row) => [row.line, row.values.get("Prompt")])).toEqual([[3, "A cat."]]);
  });

  it("rejects a row whose field count differs from the header, naming its line", () => {
    expect(parseCsvTable("a,b\n1,2\n1,2,3\n")).toEqual({ ok: false, error: "line 3: 3 fields, but the header has 2" });
    expect(parseCsvTable("a,b\n1\n")).toEqual({ ok: false, error: "line 2: 1 field, but the header has 2" });
  });

  it("rejects a header naming a column twice (ignoring case) and an empty file", () => {
    expect(parseCsvTable("prompt,Prompt\nx,y\n")).toEqual({
      ok: false,
      error: 'line 1: the header names the column "Prompt" twice',
    });
    expect(parseCsvTable("\n\n").ok).toBe(false);
  });
});

describe("findColumn", () => {
  it("finds the first wanted name present, ignoring case", () => {
    expect(findColumn(["File_Name", "Path"], ["path", "file_name"])).toBe("Path");
    expect(findColumn(["x"], ["path"])).toBeNull();
  });
});
