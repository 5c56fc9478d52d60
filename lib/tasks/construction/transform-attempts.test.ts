import { describe, expect, it } from "vitest";
import {
  attemptVerdict,
  fourProblem,
  MAX_TRANSFORM_ATTEMPTS,
  type TransformAttempt,
  transformOutcome,
} from "./transform-attempts";

const CORRECT = "Tissue is applied on the face using water.";
const SIX = [
  "It is dried out.",
  "Another layer of cleaning.",
  "The mask goes under the neck.",
  "The mask is finished.",
  "The mask is used at once.",
  "A brush smooths the mask.",
];
const FOUR = SIX.slice(0, 4);
const OPTIONS = { A: FOUR[0]!, B: CORRECT, C: FOUR[1]!, D: FOUR[2]!, E: FOUR[3]! };
const good: TransformAttempt = {
  six: SIX,
  four: FOUR,
  options: OPTIONS,
  correctLetter: "B",
  withoutVideo: ["D. The mask goes under the neck."],
  withVideo: ['{"Best_option": "B. Tissue is applied on the face using water."}'],
};

describe("one transformation attempt", () => {
  it("passes when the four come from the six, the correct option is missed without the video and found with it", () => {
    expect(attemptVerdict(good, CORRECT)).toEqual({ ok: true });
  });

  it("fails on duplicates, on the correct answer among the wrong ones, and on answers not from the six", () => {
    expect(fourProblem(CORRECT, SIX, [SIX[0]!, SIX[1]!, SIX[2]!, "it is dried out"])).toBe(
      "two of the four wrong answers are the same",
    );
    expect(fourProblem(CORRECT, [...SIX, CORRECT], [SIX[0]!, SIX[1]!, SIX[2]!, CORRECT])).toBe(
      "a wrong answer repeats the correct answer",
    );
    expect(fourProblem(CORRECT, SIX, [SIX[0]!, SIX[1]!, SIX[2]!, "Something new."])).toBe(
      'picked an answer not among the six: "Something new."',
    );
  });

  it("fails when the correct option is found without the video, or missed with it", () => {
    expect(attemptVerdict({ ...good, withoutVideo: ["B"] }, CORRECT)).toMatchObject({
      ok: false,
      stage: "without_video",
    });
    expect(attemptVerdict({ ...good, withVideo: ["The answer is E."] }, CORRECT)).toEqual({
      ok: false,
      stage: "with_video",
      reason: "picked E instead of B with the video: a wrong option may be right",
    });
    expect(attemptVerdict({ ...good, withVideo: ["B or D"] }, CORRECT)).toMatchObject({
      ok: false,
      stage: "with_video",
    });
    expect(attemptVerdict({ ...good, four: null }, CORRECT)).toEqual({
      ok: false,
      stage: "four",
      reason: "no four wrong answers",
    });
  });
});

describe("the transformation's outcome", () => {
  const failing: TransformAttempt = { ...good, withoutVideo: ["B"] };

  it("is the first attempt that passes", () => {
    expect(transformOutcome([failing, failing, good], CORRECT)).toEqual({
      state: "transformed",
      attempt: 3,
      wrong: FOUR,
      checks: { correctLetter: "B", withoutVideo: ["D"], withVideo: ["B"] },
    });
  });

  it("is still in progress after nine failures, and 'could not transform' after ten, however many more there are", () => {
    expect(transformOutcome(Array(MAX_TRANSFORM_ATTEMPTS - 1).fill(failing), CORRECT)).toEqual({
      state: "in_progress",
      nextAttempt: 10,
    });
    const ten = transformOutcome(Array(MAX_TRANSFORM_ATTEMPTS).fill(failing), CORRECT);
    expect(ten).toMatchObject({ state: "could_not_transform", attempts: 10 });
    // An 11th attempt that would pass does not count: the limit is the seed's.
    expect(transformOutcome([...Array(MAX_TRANSFORM_ATTEMPTS).fill(failing), good], CORRECT)).toEqual(ten);
    expect(transformOutcome([], CORRECT)).toEqual({ state: "in_progress", nextAttempt: 1 });
  });
});

describe("three checkers: Appendix D's majority", () => {
  const wrong = "D. The mask goes under the neck.";
  const right = "B. Tissue is applied on the face using water.";

  it("fails without the video when more than half pick the correct option, and passes when one of three does", () => {
    const two = attemptVerdict(
      { ...good, withoutVideo: [right, wrong, right], withVideo: [right, right, right] },
      CORRECT,
    );
    expect(two).toEqual({
      ok: false,
      stage: "without_video",
      reason:
        "2 of 3 checkers (B, D, B) picked the correct option B without the video: the wrong options are too easy to rule out",
    });
    expect(
      attemptVerdict({ ...good, withoutVideo: [right, wrong, wrong], withVideo: [right, right, right] }, CORRECT),
    ).toEqual({ ok: true });
  });

  it("fails with the annotations when more than half miss the correct option, and passes when one of three does", () => {
    const base = { ...good, withoutVideo: [wrong, wrong, wrong] };
    expect(attemptVerdict({ ...base, withVideo: [right, wrong, "B or D"] }, CORRECT)).toEqual({
      ok: false,
      stage: "with_video",
      reason: "2 of 3 checkers (B, D, –) did not pick B with the video: a wrong option may be right",
    });
    expect(attemptVerdict({ ...base, withVideo: [right, wrong, right] }, CORRECT)).toEqual({ ok: true });
  });

  it("needs every checker's answer, and keeps each one's pick in the outcome", () => {
    expect(
      attemptVerdict({ ...good, withoutVideo: [wrong, null, wrong], withVideo: [right, right, right] }, CORRECT),
    ).toEqual({
      ok: false,
      stage: "without_video",
      reason: "no answer without the video from checker 2",
    });
    const passed = transformOutcome(
      [{ ...good, withoutVideo: [right, wrong, wrong], withVideo: [right, wrong, right] }],
      CORRECT,
    );
    expect(passed).toMatchObject({
      state: "transformed",
      attempt: 1,
      checks: { correctLetter: "B", withoutVideo: ["B", "D", "D"], withVideo: ["B", "D", "B"] },
    });
  });

  it("with two checkers, one of two is not more than half either way", () => {
    expect(attemptVerdict({ ...good, withoutVideo: [right, wrong], withVideo: [right, wrong] }, CORRECT)).toEqual({
      ok: true,
    });
    expect(attemptVerdict({ ...good, withoutVideo: [right, right], withVideo: [right, right] }, CORRECT)).toMatchObject(
      { ok: false, stage: "without_video" },
    );
  });
});
