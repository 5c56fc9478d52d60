import { describe, expect, it } from "vitest";
import { diffStats, lineDiff } from "./line-diff";

const render = (before: string, after: string) =>
  lineDiff(before, after).map((l) => `${l.kind === "same" ? " " : l.kind === "added" ? "+" : "-"}${l.text}`);

describe("lineDiff", () => {
  it("shows nothing changed for equal texts, with line numbers on both sides", () => {
    const diff = lineDiff("a\nb\n", "a\nb");
    expect(diff).toEqual([
      { kind: "same", text: "a", oldLine: 1, newLine: 1 },
      { kind: "same", text: "b", oldLine: 2, newLine: 2 },
    ]);
  });

  it("finds an inserted, a removed and a changed line in the middle", () => {
    expect(render("one\ntwo\nthree\nfour\nfive", "one\nTWO\nthree\nfive\nsix")).toEqual([
      " one",
      "-two",
      "+TWO",
      " three",
      "-four",
      " five",
      "+six",
    ]);
    expect(diffStats(lineDiff("one\ntwo\nthree\nfour\nfive", "one\nTWO\nthree\nfive\nsix"))).toEqual({
      added: 2,
      removed: 2,
    });
  });

  it("keeps the longest common subsequence, not the first match", () => {
    // A greedy walk would pair the first "x" and lose "a b c"; the LCS keeps a, b, c.
    expect(render("x\na\nb\nc", "a\nb\nc\nx")).toEqual(["-x", " a", " b", " c", "+x"]);
  });

  it("numbers lines after the common head in both texts", () => {
    const diff = lineDiff("h\nold\nt", "h\nnew1\nnew2\nt");
    expect(diff).toEqual([
      { kind: "same", text: "h", oldLine: 1, newLine: 1 },
      { kind: "removed", text: "old", oldLine: 2, newLine: null },
      { kind: "added", text: "new1", oldLine: null, newLine: 2 },
      { kind: "added", text: "new2", oldLine: null, newLine: 3 },
      { kind: "same", text: "t", oldLine: 3, newLine: 4 },
    ]);
  });

  it("handles empty texts and CRLF line ends", () => {
    expect(render("", "a")).toEqual(["+a"]);
    expect(render("a", "")).toEqual(["-a"]);
    expect(render("a\r\nb\r\n", "a\nb\n")).toEqual([" a", " b"]);
  });
});
