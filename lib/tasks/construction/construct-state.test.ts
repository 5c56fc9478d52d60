import { describe, expect, it } from "vitest";
import {
  checkerCount,
  checkLayoutSeed,
  constructState,
  shuffledCheckLayout,
  transformAttempts,
  type OutputOf,
} from "./construct-state";

const CORRECT = "apply tissue using water";
const SIX = ["only halfway", "twice over", "in reverse", "far too early", "with the wrong tool", "much later"].map(
  (twist) => `${CORRECT} — ${twist}`,
);
const FOUR = SIX.slice(0, 4);
const KEPT = {
  categorise: { Question_type: "Future Step Prediction" },
  blind_check: { Judgement: "No", Reason: "" },
  filter_hallucination: { Judgement: "No", Reason: "" },
  tricky_check: { Judgement: "Yes", Reason: "" },
  filter_unspecific: { Judgement: "No", Reason: "" },
};
const outputsOf =
  (outputs: Record<string, unknown>): OutputOf =>
  (stepId) =>
    outputs[stepId];

describe("the checks' shuffled options", () => {
  it("put the correct answer at different letters across questions, the same order for the same question and attempt, every option once", () => {
    const layouts = Array.from({ length: 40 }, (_, q) =>
      shuffledCheckLayout(FOUR, CORRECT, checkLayoutSeed(`item-${q}`, 1)),
    );
    expect(new Set(layouts.map((l) => l.correctLetter)).size).toBe(5);
    expect(layouts.filter((l) => l.correctLetter === "E").length).toBeLessThan(20);
    for (const layout of layouts) {
      expect(Object.keys(layout.options)).toEqual(["A", "B", "C", "D", "E"]);
      expect(Object.values(layout.options).sort()).toEqual([CORRECT, ...FOUR].sort());
      expect(layout.options[layout.correctLetter]).toBe(CORRECT);
    }
    expect(shuffledCheckLayout(FOUR, CORRECT, checkLayoutSeed("item-7", 1))).toEqual(layouts[7]);
    // Another attempt of the same question is shuffled anew.
    const attempts = Array.from({ length: 10 }, (_, k) =>
      JSON.stringify(shuffledCheckLayout(FOUR, CORRECT, checkLayoutSeed("item-7", k + 1))),
    );
    expect(new Set(attempts).size).toBeGreaterThan(1);
  });

  it("decide by the letter the stored layout put the correct answer at", () => {
    const layout = shuffledCheckLayout(FOUR, CORRECT, checkLayoutSeed("item-3", 1));
    const wrongLetter = Object.keys(layout.options).find((l) => l !== layout.correctLetter)!;
    const outputs = {
      ...KEPT,
      wrong_six_1: SIX,
      wrong_four_1: FOUR,
      // The letters alone, so only the layout tells which is right.
      without_video_1: { Best_option: wrongLetter, Reason: "", ...layout },
      with_video_1: { Best_option: layout.correctLetter, Reason: "", ...layout },
    };
    expect(constructState(outputsOf(outputs), CORRECT, [])).toMatchObject({
      transform: { state: "transformed", attempt: 1, checks: { correctLetter: layout.correctLetter } },
    });
    const swapped = { ...outputs, without_video_1: { ...outputs.without_video_1, Best_option: layout.correctLetter } };
    expect(constructState(outputsOf(swapped), CORRECT, []).transform).toMatchObject({
      state: "in_progress",
      nextAttempt: 2,
    });
  });

  it("read an attempt stored before the shuffle (no layout recorded) with the correct answer at E", () => {
    const old = {
      ...KEPT,
      wrong_six_1: SIX,
      wrong_four_1: FOUR,
      without_video_1: { Best_option: "A", Reason: "" },
      with_video_1: { Best_option: "E", Reason: "" },
    };
    expect(transformAttempts(outputsOf(old), CORRECT)[0]).toMatchObject({
      correctLetter: "E",
      options: { A: FOUR[0], E: CORRECT },
    });
    expect(constructState(outputsOf(old), CORRECT, []).transform).toMatchObject({ state: "transformed", attempt: 1 });
    const oldFailed = {
      ...old,
      without_video_1: { Best_option: "E", Reason: "" },
      with_video_1: { skipped: "not needed: the correct option was picked without the video" },
    };
    expect(constructState(outputsOf(oldFailed), CORRECT, []).transform).toMatchObject({
      state: "in_progress",
      nextAttempt: 2,
    });
  });
});

describe("checkers per run", () => {
  it("is one unless the settings list more, and reads every checker's steps", () => {
    expect(checkerCount({})).toBe(1);
    expect(checkerCount({ checkerEndpointId: "x" })).toBe(1);
    expect(checkerCount({ checkerEndpointIds: ["a", "b", "c"] })).toBe(3);
    const layout = shuffledCheckLayout(FOUR, CORRECT, checkLayoutSeed("item-1", 1));
    const pick = (right: boolean) => ({
      Best_option: right ? layout.correctLetter : Object.keys(layout.options).find((l) => l !== layout.correctLetter)!,
      Reason: "",
      ...layout,
    });
    const outputs = {
      ...KEPT,
      wrong_six_1: SIX,
      wrong_four_1: FOUR,
      without_video_1: pick(false),
      without_video_1_c2: pick(true),
      without_video_1_c3: pick(true),
      with_video_1: pick(true),
      with_video_1_c2: pick(true),
      with_video_1_c3: pick(true),
    };
    // One checker: its answer alone passes the attempt; three: two of them found the answer without the video.
    expect(constructState(outputsOf(outputs), CORRECT, [], 1).transform).toMatchObject({ state: "transformed" });
    expect(constructState(outputsOf(outputs), CORRECT, [], 3).transform).toMatchObject({
      state: "in_progress",
      nextAttempt: 2,
    });
  });
});
