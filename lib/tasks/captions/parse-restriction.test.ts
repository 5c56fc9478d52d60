import { describe, expect, it } from "vitest";
import { checkRestriction, describeRestriction, parseRestrictions, type LengthRestriction } from "./parse-restriction";

/** The text's length restriction, or null when it states none. With both a word and a sentence restriction, the first one written. */
function parseRestriction(text: string | null | undefined): LengthRestriction | null {
  return parseRestrictions(text)[0] ?? null;
}

const parsed = (text: string) => {
  const restriction = parseRestriction(text);
  if (!restriction) return null;
  const { source: _source, ...bounds } = restriction;
  return bounds;
};

describe("parseRestriction on AnyCapEval's own rule texts", () => {
  // Every phrasing found in AnyCapEval's video reference files (anycapeval_video_ref_style.jsonl, _ref_content.jsonl).
  it.each([
    ["The generated caption's length needs to be 20 to 30 words.", { unit: "words", min: 20, max: 30 }],
    ["The generated caption's length needs to be 10 to 20 words.", { unit: "words", min: 10, max: 20 }],
    ["The generated caption's length needs to be 30 to 120 words.", { unit: "words", min: 30, max: 120 }],
    ["The generated caption's length needs to be exactly 50 words.", { unit: "words", exact: 50 }],
    ["The generated caption's length needs to be no more than 10 words.", { unit: "words", max: 10 }],
    ["The generated caption's length needs to be one sentence.", { unit: "sentences", exact: 1 }],
    ["The generated caption's length needs to be exactly two sentences.", { unit: "sentences", exact: 2 }],
    ["The generated caption's length needs to be exactly three sentences.", { unit: "sentences", exact: 3 }],
    ["The generated caption's length needs to be exactly five sentences.", { unit: "sentences", exact: 5 }],
    ["The generated caption's length cannot exceed two sentences.", { unit: "sentences", max: 2 }],
    ["The generated caption's length cannot exceed three sentences.", { unit: "sentences", max: 3 }],
  ])("%s", (text, expected) => {
    expect(parsed(text)).toEqual(expected);
  });

  it("finds the rule inside a whole instruction, before or after the task", () => {
    expect(
      parsed(
        "The generated caption's length cannot exceed two sentences. Describe the video's content in a documentary-style format.",
      ),
    ).toEqual({ unit: "sentences", max: 2 });
    expect(
      parseRestriction(
        "Generate a brief caption describing this video's main content. The generated caption's length needs to be 20 to 30 words.",
      )?.source,
    ).toBe("20 to 30 words");
  });
});

describe("parseRestriction on other phrasings", () => {
  it.each([
    ["needs to be 20 to 30 words", { unit: "words", min: 20, max: 30 }],
    ["between 20 and 30 words", { unit: "words", min: 20, max: 30 }],
    ["20-30 words", { unit: "words", min: 20, max: 30 }],
    ["20–30 words", { unit: "words", min: 20, max: 30 }],
    ["from 30 to 20 words", { unit: "words", min: 20, max: 30 }],
    ["no more than 50 words", { unit: "words", max: 50 }],
    ["Your answer must not exceed 50 words.", { unit: "words", max: 50 }],
    ["not exceed 50 words", { unit: "words", max: 50 }],
    ["within 40 words", { unit: "words", max: 40 }],
    ["up to 40 words", { unit: "words", max: 40 }],
    ["at most 40 words", { unit: "words", max: 40 }],
    ["less than 30 words", { unit: "words", max: 29 }],
    ["fewer than 30 words", { unit: "words", max: 29 }],
    ["under 30 words", { unit: "words", max: 29 }],
    ["at least 10 words", { unit: "words", min: 10 }],
    ["no less than 10 words", { unit: "words", min: 10 }],
    ["more than 10 words", { unit: "words", min: 11 }],
    ["cannot exceed three sentences", { unit: "sentences", max: 3 }],
    ["Describe it in two sentences.", { unit: "sentences", exact: 2 }],
    ["…two sentences", { unit: "sentences", exact: 2 }],
    ["exactly one sentence", { unit: "sentences", exact: 1 }],
    ["Use a single sentence.", { unit: "sentences", exact: 1 }],
    ["one to three sentences", { unit: "sentences", min: 1, max: 3 }],
    ["Write a 50-word caption.", { unit: "words", exact: 50 }],
    ["Write a two-sentence summary.", { unit: "sentences", exact: 2 }],
    ["in twenty words", { unit: "words", exact: 20 }],
    ["In Eleven Words", { unit: "words", exact: 11 }],
    ["1 sentence", { unit: "sentences", exact: 1 }],
  ])("%s", (text, expected) => {
    expect(parsed(text)).toEqual(expected);
  });

  it("reads every number word from one to twenty", () => {
    const words = [
      "one",
      "two",
      "three",
      "four",
      "five",
      "six",
      "seven",
      "eight",
      "nine",
      "ten",
      "eleven",
      "twelve",
      "thirteen",
      "fourteen",
      "fifteen",
      "sixteen",
      "seventeen",
      "eighteen",
      "nineteen",
      "twenty",
    ];
    words.forEach((word, index) =>
      expect(parsed(`cannot exceed ${word} sentences`)).toEqual({ unit: "sentences", max: index + 1 }),
    );
  });

  it("keeps the matched phrase as the source", () => {
    expect(parseRestriction("Please keep it between 20 and 30 words, thanks.")?.source).toBe("between 20 and 30 words");
    expect(parseRestriction("It cannot exceed three sentences.")?.source).toBe("cannot exceed three sentences");
  });
});

describe("parseRestriction is strict", () => {
  it.each([
    "",
    "Generate a brief caption describing this video's main content.",
    "Describe the two people in the video.",
    "Write a short poem about the scene.",
    "Keep it concise and under a minute.",
    "Write it sentence-by-sentence.",
    "Use plain words.",
    "Mention the 3 dogs.",
    "Count twenty-one words.",
  ])("returns null for %j", (text) => {
    expect(parseRestriction(text)).toBeNull();
  });

  it("returns null for no text", () => {
    expect(parseRestriction(null)).toBeNull();
    expect(parseRestrictions(undefined)).toEqual([]);
  });
});

describe("parseRestrictions", () => {
  it("combines bounds on one unit", () => {
    expect(parseRestrictions("at least 10 words and no more than 50 words")).toEqual([
      { unit: "words", min: 10, max: 50, source: "at least 10 words; no more than 50 words" },
    ]);
  });

  it("keeps one restriction per unit, in text order", () => {
    expect(parseRestrictions("In two sentences, within 40 words.").map((r) => [r.unit, r.exact ?? r.max])).toEqual([
      ["sentences", 2],
      ["words", 40],
    ]);
    expect(parseRestriction("In two sentences, within 40 words.")?.unit).toBe("sentences");
  });

  it("leaves out a unit whose bounds contradict each other instead of guessing", () => {
    expect(parseRestrictions("exactly two sentences or three sentences")).toEqual([]);
    expect(parseRestrictions("at least 50 words, at most 20 words")).toEqual([]);
    expect(parseRestrictions("exactly 2 sentences, at most 30 words, exactly 3 sentences").map((r) => r.unit)).toEqual([
      "words",
    ]);
  });
});

describe("checkRestriction", () => {
  const range = { unit: "words" as const, min: 20, max: 30, source: "20 to 30 words" };
  it("passes counts inside the bounds, boundaries included", () => {
    expect(checkRestriction(range, 20)).toEqual({ passed: true });
    expect(checkRestriction(range, 30)).toEqual({ passed: true });
  });
  it("names the violated bound", () => {
    expect(checkRestriction(range, 19)).toEqual({ passed: false, problem: "is below the minimum of 20 words" });
    expect(checkRestriction(range, 31)).toEqual({ passed: false, problem: "exceeds the maximum of 30 words" });
    expect(checkRestriction({ unit: "sentences", exact: 2, source: "" }, 3)).toEqual({
      passed: false,
      problem: "needs exactly 2 sentences",
    });
  });
  it("describes restrictions", () => {
    expect(describeRestriction(range)).toBe("20–30 words");
    expect(describeRestriction({ unit: "sentences", exact: 1, source: "" })).toBe("exactly 1 sentence");
    expect(describeRestriction({ unit: "sentences", max: 3, source: "" })).toBe("at most 3 sentences");
    expect(describeRestriction({ unit: "words", min: 10, source: "" })).toBe("at least 10 words");
  });
});
