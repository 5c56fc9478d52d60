import { describe, expect, it } from "vitest";
import { applyLengthRules, withinReferenceLength } from "./length-rules";

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

const base = { captionType: "brief", instruction: "Describe the video.", restriction: null, judgeScore: 3 };

describe("the ±10% rule for brief and detail captions", () => {
  it("passes exactly 10% above and below the reference, and caps beyond it", () => {
    for (const [outputWords, passed] of [
      [110, true],
      [90, true],
      [111, false],
      [89, false],
      [100, true],
    ] as const) {
      const result = applyLengthRules({ ...base, output: words(outputWords), reference: words(100) });
      const rule = result.rules.find((r) => r.id === "brief_detail_10pct")!;
      expect([outputWords, rule.applies, rule.passed]).toEqual([outputWords, true, passed]);
      expect(result.cap).toBe(passed ? null : 1);
      expect(result.scoreAfterRules).toBe(passed ? 3 : 1);
      expect(result.judgeBrokeRule).toBe(!passed);
    }
  });

  it("passes 33 and 27 words against 30 (exactly ±10%), not 34", () => {
    expect(withinReferenceLength(33, 30)).toBe(true);
    expect(withinReferenceLength(27, 30)).toBe(true);
    expect(withinReferenceLength(34, 30)).toBe(false);
    const result = applyLengthRules({ ...base, captionType: "detail", output: words(33), reference: words(30) });
    expect(result.cap).toBeNull();
    expect(result.deviation).toBeCloseTo(0.1, 12);
  });

  it("reports the counts and the signed deviation", () => {
    const result = applyLengthRules({ ...base, output: words(12), reference: words(10) });
    expect(result).toMatchObject({ outputWords: 12, referenceWords: 10, deviation: 0.2 });
    expect(result.rules[0]).toEqual({
      id: "brief_detail_10pct",
      applies: true,
      passed: false,
      detail:
        "The output has 12 words, the reference 10 words (+20.0%; the limit is ±10%): outside the limit, so the score cannot be higher than 1.",
    });
    expect(applyLengthRules({ ...base, output: words(8), reference: words(10) }).deviation).toBe(-0.2);
  });

  it("does not apply to other caption types", () => {
    for (const captionType of ["poem", "narrative", "theme", "action", "something-new"]) {
      const result = applyLengthRules({ ...base, captionType, output: words(50), reference: words(10) });
      expect(result.rules[0]).toMatchObject({ applies: false, passed: null });
      expect(result.rules[0]!.detail).toContain(`this is a ${captionType} caption`);
      expect(result.cap).toBeNull();
      expect(result.scoreAfterRules).toBe(3);
    }
  });

  it("cannot apply when the reference has no words, and says so", () => {
    for (const reference of ["", "  ", "— …"]) {
      const result = applyLengthRules({ ...base, output: words(5), reference });
      expect(result.referenceWords).toBe(0);
      expect(result.deviation).toBeNull();
      expect(result.rules[0]).toEqual({
        id: "brief_detail_10pct",
        applies: false,
        passed: null,
        detail: "The reference has no words, so the ±10% word-count rule cannot apply.",
      });
      expect(result.cap).toBeNull();
    }
  });
});

describe("the instruction's own restriction", () => {
  it("reads AnyCapEval's rule text and caps an output that violates it", () => {
    const restriction = "The generated caption's length needs to be 20 to 30 words.";
    const ok = applyLengthRules({ ...base, captionType: "poem", output: words(25), reference: words(40), restriction });
    expect(ok.rules[1]).toMatchObject({ id: "instruction_restriction", applies: true, passed: true });
    expect(ok.cap).toBeNull();

    const long = applyLengthRules({
      ...base,
      captionType: "poem",
      output: words(31),
      reference: words(40),
      restriction,
      judgeScore: 4,
    });
    expect(long.rules[1]).toEqual({
      id: "instruction_restriction",
      applies: true,
      passed: false,
      detail:
        'The instruction asks for "20 to 30 words" (20–30 words): the output has 31 words and exceeds the maximum of 30 words. The score cannot be higher than 1.',
    });
    expect(long).toMatchObject({ cap: 1, scoreAfterRules: 1, judgeBrokeRule: true });
  });

  it("counts sentences for sentence limits", () => {
    const restriction = "The generated caption's length cannot exceed two sentences.";
    const two = applyLengthRules({
      ...base,
      captionType: "theme",
      output: "A dog runs. It jumps.",
      reference: "x",
      restriction,
    });
    expect(two.rules[1]!.passed).toBe(true);
    expect(two.outputSentences).toBe(2);
    const three = applyLengthRules({
      ...base,
      captionType: "theme",
      output: "A dog runs. It jumps. It barks.",
      reference: "x",
      restriction,
    });
    expect(three.rules[1]).toMatchObject({ passed: false });
    expect(three.rules[1]!.detail).toContain("the output has 3 sentences and exceeds the maximum of 2 sentences");
  });

  it("falls back to the instruction when there is no rule text", () => {
    const result = applyLengthRules({
      ...base,
      captionType: "action",
      instruction: "Describe the action in exactly one sentence.",
      output: "He runs. He stops.",
      reference: "x",
    });
    expect(result.restrictions).toEqual([{ unit: "sentences", exact: 1, source: "exactly one sentence" }]);
    expect(result.rules[1]!.passed).toBe(false);
    expect(result.cap).toBe(1);
  });

  it("does not apply without a restriction", () => {
    const result = applyLengthRules({ ...base, captionType: "poem", output: words(500), reference: words(10) });
    expect(result.rules[1]).toEqual({
      id: "instruction_restriction",
      applies: false,
      passed: null,
      detail: "The instruction states no length restriction.",
    });
    expect(result.cap).toBeNull();
  });

  it("applies both rules together", () => {
    const result = applyLengthRules({
      ...base,
      output: words(12),
      reference: words(10),
      restriction: "needs to be 10 to 20 words",
      judgeScore: 1,
    });
    expect(result.rules.map((rule) => [rule.id, rule.passed])).toEqual([
      ["brief_detail_10pct", false],
      ["instruction_restriction", true],
    ]);
    expect(result).toMatchObject({ cap: 1, scoreAfterRules: 1, judgeBrokeRule: false });
  });
});

describe("the judge's score", () => {
  it("is kept when no rule fails, lowered to the cap and flagged when it is above it", () => {
    const failing = { ...base, output: words(20), reference: words(10) };
    expect(applyLengthRules({ ...failing, judgeScore: 0 })).toMatchObject({
      scoreAfterRules: 0,
      judgeBrokeRule: false,
    });
    expect(applyLengthRules({ ...failing, judgeScore: 1 })).toMatchObject({
      scoreAfterRules: 1,
      judgeBrokeRule: false,
    });
    expect(applyLengthRules({ ...failing, judgeScore: 2 })).toMatchObject({ scoreAfterRules: 1, judgeBrokeRule: true });
  });

  it("stays null without a judge score", () => {
    expect(applyLengthRules({ ...base, output: words(20), reference: words(10), judgeScore: null })).toMatchObject({
      cap: 1,
      scoreAfterRules: null,
      judgeBrokeRule: false,
    });
  });
});
