import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "./csv";

describe("csvCell", () => {
  it("prefixes text that a spreadsheet would run as a formula with a single quote", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell("+1+2")).toBe("'+1+2");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvCell("\rcmd")).toBe(`"'\rcmd"`);
  });

  it("leaves ordinary text, inner formula characters and numbers alone", () => {
    expect(csvCell("a ball = round")).toBe("a ball = round");
    expect(csvCell("")).toBe("");
    expect(csvCell(-3.5)).toBe("-3.5");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(true)).toBe("true");
  });

  it("quotes commas, quotes and line breaks as RFC 4180 says", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\r\nlf")).toBe('"cr\r\nlf"');
  });

  it("joins a record with commas and ends it with CRLF", () => {
    expect(csvRow(["x", 1, null, "=1", "a,b"])).toBe(`x,1,,'=1,"a,b"\r\n`);
  });
});
