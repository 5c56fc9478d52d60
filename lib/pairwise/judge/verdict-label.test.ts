import { describe, expect, it } from "vitest";
import { readVerdictLabel, verdictLabelLines } from "./verdict-label";

describe("readVerdictLabel", () => {
  it("reads each label of a four-level aspect", () => {
    expect(readVerdictLabel("A is sharper. [[A>B]]")).toMatchObject({ ok: true, verdict: "A", strength: 1 });
    expect(readVerdictLabel("[[B>A]]")).toMatchObject({ ok: true, verdict: "B" });
    expect(readVerdictLabel("[[A=B=good]]")).toMatchObject({ ok: true, verdict: "tie_good" });
    expect(readVerdictLabel("[[A=B=bad]]")).toMatchObject({ ok: true, verdict: "tie_bad" });
  });

  it("is tolerant of case and spaces, and reads A<B as B winning", () => {
    expect(readVerdictLabel("[[A = B = Good]]")).toMatchObject({ ok: true, verdict: "tie_good" });
    expect(readVerdictLabel("[[ b > a ]]")).toMatchObject({ ok: true, verdict: "B" });
    expect(readVerdictLabel("[[A<B]]")).toMatchObject({ ok: true, verdict: "B" });
  });

  it("reads the last label when the answer quotes others first", () => {
    const answer = "The labels are [[A>B]] or [[B>A]]. Having watched both: [[B>A]]";
    expect(readVerdictLabel(answer)).toMatchObject({ ok: true, verdict: "B", label: "[[B>A]]" });
  });

  it("keeps strength on a five-level aspect and drops it on a four-level one", () => {
    expect(readVerdictLabel("[[A>>B]]", 5)).toMatchObject({ ok: true, verdict: "A", strength: 2 });
    expect(readVerdictLabel("[[B>>A]]", 5)).toMatchObject({ ok: true, verdict: "B", strength: 2 });
    expect(readVerdictLabel("[[A>>B]]", 4)).toMatchObject({ ok: true, verdict: "A", strength: 1 });
  });

  it("gives no verdict, with a reason, for an answer without a usable label", () => {
    expect(readVerdictLabel("I cannot decide.")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no verdict label/),
    });
    expect(readVerdictLabel("")).toMatchObject({ ok: false, reason: "empty answer" });
    expect(readVerdictLabel(null)).toMatchObject({ ok: false });
    expect(readVerdictLabel("[[A=B]]")).toMatchObject({ ok: false });
    expect(readVerdictLabel("[[A>A]]")).toMatchObject({ ok: false });
    expect(readVerdictLabel("[[A>B=good]]")).toMatchObject({ ok: false });
  });

  it("offers strong labels only on a five-level aspect", () => {
    expect(verdictLabelLines(4)).not.toContain(">>");
    expect(verdictLabelLines(5)).toContain("[[A>>B]]");
  });
});
