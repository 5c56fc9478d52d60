import { describe, expect, it } from "vitest";
import { parseStructuredOutput } from "../../judge/calls/parse-llm-output";
import {
  captionContentAnswerSchema,
  captionStyleAnswerSchema,
  formatKeyPoints,
  normalizeKeyPoint,
} from "./caption-judge-answers";

describe("the style answer", () => {
  it.each([
    [{ score: 0, reason: "r" }, 0],
    [{ score: 4, reason: "r" }, 4],
    [{ score: "3", reason: "r" }, 3],
    [{ score: 3.0, reason: "r", extra: "dropped" }, 3],
  ])("accepts %j", (answer, score) => {
    expect(captionStyleAnswerSchema.parse(answer)).toEqual({ score, reason: "r" });
  });

  it.each([
    [{ score: 5, reason: "r" }, "score: 5 is outside 0–4"],
    [{ score: -1, reason: "r" }, "score: -1 is outside 0–4"],
    [{ score: 2.5, reason: "r" }, "score: 2.5 is not a whole number from 0 to 4"],
    [{ score: "2.5", reason: "r" }, "score: 2.5 is not a whole number from 0 to 4"],
    [{ score: "three", reason: "r" }, 'score: must be a whole number from 0 to 4, not "three"'],
    [{ score: [3], reason: "r" }, "score: must be a whole number from 0 to 4, not [3]"],
    [{ reason: "r" }, "score: missing (a whole number from 0 to 4 is required)"],
    [{ score: 3 }, "reason: missing (a one- or two-sentence explanation)"],
  ])("rejects %j", (answer, message) => {
    const result = parseStructuredOutput(JSON.stringify(answer), captionStyleAnswerSchema);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe(`The answer does not match the required format: ${message}`);
  });
});

const KEY_POINTS = [
  "describe the girl's initial position (standing beside the bed)",
  "mention the bouquet of  red flowers",
  "describe the girl's final action (looking at the card)",
];
const schema = captionContentAnswerSchema(KEY_POINTS);
const entry = (keyPoint: string, score: number | string, extra: Record<string, unknown> = {}) => ({
  key_point: keyPoint,
  score,
  reason: "because",
  ...extra,
});

function failure(answer: unknown): string {
  const result = parseStructuredOutput(JSON.stringify(answer), schema);
  if (result.ok) throw new Error("expected a failure");
  return result.error.replace("The answer does not match the required format: ", "");
}

describe("the content answer", () => {
  it("accepts one entry per key point in order, with whitespace differences, and returns the item's texts", () => {
    const answer = {
      key_points: [
        entry(` ${KEY_POINTS[0]} `, 1),
        entry("mention the bouquet of red flowers", "0"),
        entry(KEY_POINTS[2]!.replace(/ /g, "\n"), 1),
      ],
      total: 2,
    };
    expect(schema.parse(answer)).toEqual({
      keyPoints: [
        { index: 1, keyPoint: KEY_POINTS[0], score: 1, reason: "because" },
        { index: 2, keyPoint: KEY_POINTS[1], score: 0, reason: "because" },
        { index: 3, keyPoint: KEY_POINTS[2], score: 1, reason: "because" },
      ],
      total: 2,
    });
  });

  it("accepts entries in any order when each gives its index, and returns them in the item's order", () => {
    const answer = {
      key_points: [
        entry(KEY_POINTS[2]!, 1, { index: 3 }),
        entry(KEY_POINTS[0]!, 0, { index: 1 }),
        entry(KEY_POINTS[1]!, 1, { index: 2 }),
      ],
      total: 2,
    };
    expect(schema.parse(answer).keyPoints.map((k) => [k.index, k.score])).toEqual([
      [1, 0],
      [2, 1],
      [3, 1],
    ]);
  });

  it("rejects a wrong number of entries", () => {
    expect(failure({ key_points: [entry(KEY_POINTS[0]!, 1)], total: 1 })).toBe(
      "key_points: has 1 entry; there must be exactly 3, one per key point",
    );
  });

  it("rejects a key point text that differs, naming both", () => {
    const answer = {
      key_points: [entry(KEY_POINTS[0]!, 1), entry(KEY_POINTS[2]!, 1), entry(KEY_POINTS[1]!, 0)],
      total: 2,
    };
    expect(failure(answer)).toBe(
      `key_points[1].key_point: is "describe the girl's final action (looking at the card)", but key point 2 is "mention the bouquet of red flowers" (copy each key point exactly, in order); ` +
        `key_points[2].key_point: is "mention the bouquet of  red flowers", but key point 3 is "describe the girl's final action (looking at the card)" (copy each key point exactly, in order)`,
    );
  });

  it("rejects scores other than 0 and 1", () => {
    expect(
      failure({ key_points: [entry(KEY_POINTS[0]!, 2), entry(KEY_POINTS[1]!, 0), entry(KEY_POINTS[2]!, 0)], total: 2 }),
    ).toBe("key_points[0].score: 2 is outside 0–1");
    expect(
      failure({
        key_points: [entry(KEY_POINTS[0]!, 0.5), entry(KEY_POINTS[1]!, 0), entry(KEY_POINTS[2]!, 0)],
        total: 0.5,
      }),
    ).toBe("key_points[0].score: 0.5 is not a whole number from 0 to 1");
  });

  it("rejects a total that is not the sum", () => {
    expect(
      failure({ key_points: [entry(KEY_POINTS[0]!, 1), entry(KEY_POINTS[1]!, 1), entry(KEY_POINTS[2]!, 0)], total: 3 }),
    ).toBe("total: is 3, but the scores add up to 2");
    expect(
      failure({ key_points: [entry(KEY_POINTS[0]!, 1), entry(KEY_POINTS[1]!, 1), entry(KEY_POINTS[2]!, 0)] }),
    ).toBe("total: missing (the sum of the scores)");
  });

  it("rejects missing reasons and bad or repeated indexes", () => {
    expect(
      failure({
        key_points: [{ key_point: KEY_POINTS[0], score: 1 }, entry(KEY_POINTS[1]!, 1), entry(KEY_POINTS[2]!, 0)],
        total: 2,
      }),
    ).toBe("key_points[0].reason: missing (why the score)");
    expect(
      failure({
        key_points: [
          entry(KEY_POINTS[0]!, 1, { index: 1 }),
          entry(KEY_POINTS[1]!, 1, { index: 1 }),
          entry(KEY_POINTS[2]!, 0, { index: 4 }),
        ],
        total: 2,
      }),
    ).toMatch(
      /^key_points\[1\]\.index: key point 1 is scored twice; key_points\[2\]\.index: 4 is not a key point \(1–3\)/,
    );
    expect(
      failure({
        key_points: [
          entry(KEY_POINTS[0]!, 1, { index: 1 }),
          entry(KEY_POINTS[1]!, 1),
          entry(KEY_POINTS[2]!, 0, { index: 3 }),
        ],
        total: 2,
      }),
    ).toBe("key_points[1].index: missing (give every entry an index, or none)");
  });

  it("needs an item with key points", () => {
    expect(() => captionContentAnswerSchema([])).toThrow(/at least one key point/);
  });

  it("formats the key points as the prompt lists them", () => {
    expect(formatKeyPoints(["a  b", " c\nd "])).toBe("1. a b\n2. c d");
    expect(normalizeKeyPoint("  x \t y ")).toBe("x y");
  });
});
