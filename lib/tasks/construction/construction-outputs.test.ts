import { describe, expect, it } from "vitest";
import {
  bestOptionSchema,
  fourWrongAnswersSchema,
  generatedPairsSchema,
  judgementSchema,
  sixWrongAnswersSchema,
} from "./construction-outputs";

describe("construction outputs", () => {
  it("read the generated list, bare or as an object's one list, and refuse an empty one or a pair without an answer", () => {
    const pair = { Question: "What follows the cleaning?", Answer: "Tissue with water.", Reason: "order" };
    expect(generatedPairsSchema.parse([pair])).toEqual([pair]);
    expect(generatedPairsSchema.parse({ pairs: [pair, { ...pair, Reason: undefined }] })).toEqual([
      pair,
      { ...pair, Reason: "" },
    ]);
    expect(generatedPairsSchema.safeParse([]).success).toBe(false);
    expect(generatedPairsSchema.safeParse([{ Question: "Q?" }]).success).toBe(false);
  });

  it("read Yes/No judgements however they are cased, and nothing else", () => {
    expect(judgementSchema.parse({ Judgement: " yes.", Reason: "r" }).Judgement).toBe("Yes");
    expect(judgementSchema.parse({ Judgement: "NO" }).Judgement).toBe("No");
    expect(judgementSchema.safeParse({ Judgement: "maybe" }).success).toBe(false);
  });

  it("read six and four wrong answers in their numbered order", () => {
    const six = Object.fromEntries([6, 5, 4, 3, 2, 1].map((n) => [`Wrong_answer${n}`, `w${n}`]));
    expect(sixWrongAnswersSchema.parse(six)).toEqual(["w1", "w2", "w3", "w4", "w5", "w6"]);
    expect(
      fourWrongAnswersSchema.safeParse({ Wrong_answer1: "a", Wrong_answer2: "b", Wrong_answer3: "c" }).success,
    ).toBe(false);
    expect(bestOptionSchema.parse({ Best_option: "B. tissue" })).toEqual({ Best_option: "B. tissue", Reason: "" });
  });
});
