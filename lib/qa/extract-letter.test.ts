import { describe, expect, it } from "vitest";
import { extractOptionLetter } from "./extract-letter";

// Seed 004's example question (its Table 33), five options.
const OPTIONS = {
  A: "After cleaning the face, one starts to make the mask shape.",
  B: "After cleaning the face, tissue is applied on the face using water.",
  C: "After cleaning out the face, the mask is dried out.",
  D: "After cleaning the face, it is placed under the neck.",
  E: "After cleaning the face, the mask needs to be left still for a few seconds.",
};

// [raw answer, the letter FrameJury reads (null: none, so the judge decides)]
const SHAPES: [string, string | null][] = [
  ["B", "B"],
  ["b", "B"],
  [" B ", "B"],
  ["(B)", "B"],
  ["B.", "B"],
  ["B)", "B"],
  ["[B]", "B"],
  ["**B**", "B"],
  ["`C`", "C"],
  ['"D"', "D"],
  ["The answer is B", "B"],
  ["The answer is (C).", "C"],
  ["Answer: D", "D"],
  ["answer: e", "E"],
  ["Option A", "A"],
  ["The correct option is A.", "A"],
  ["Best option:(B", "B"],
  ["B. After cleaning the face, tissue is applied on the face using water.", "B"],
  ["(E) After cleaning the face, the mask needs to be left still for a few seconds.", "E"],
  ["After cleaning the face, tissue is applied on the face using water.", "B"],
  ["after cleaning out the face, the mask is dried out", "C"],
  ["I think the answer is D because the frames show the neck.", "D"],
  ["Looking at the frames, A fits best.", "A"],
  ["A person applies tissue; the answer is B.", "B"],
  ['{"answer": "C"}', "C"],
  ['{"Best_option": "E. After cleaning the face, the mask needs to be left still for a few seconds.", "Reason": "The frames show waiting."}', "E"],
  ["```json\n{\"answer\": \"A\"}\n```", "A"],
  // Refusals, empty answers and prose that names no option: none.
  ["", null],
  ["   ", null],
  ["I'm sorry, but I cannot determine the answer from these frames.", null],
  ["I can't tell from the frames.", null],
  ["The person is cleaning something.", null],
  // Two letters, or a letter that disagrees with the text it quotes: none.
  ["B or C", null],
  ["Either A or E.", null],
  ["Both A and C are plausible.", null],
  ["Not B, it is D.", null],
  ["B. After cleaning out the face, the mask is dried out.", null],
  ["After cleaning the face, tissue is applied on the face using water. After cleaning out the face, the mask is dried out.", null],
  // A letter that is not an option.
  ["F", null],
  ["The answer is F.", null],
];

describe("extractOptionLetter", () => {
  it("covers at least 30 answer shapes", () => expect(SHAPES.length).toBeGreaterThanOrEqual(30));

  it.each(SHAPES)("%j → %s", (answer, letter) => {
    expect(extractOptionLetter(answer, OPTIONS).letter).toBe(letter);
  });

  it("says why it found none", () => {
    expect(extractOptionLetter("", OPTIONS)).toMatchObject({ letter: null, how: "empty" });
    expect(extractOptionLetter("B or C", OPTIONS)).toMatchObject({ letter: null, how: "several", reason: "the answer names several options (B, C)" });
    expect(extractOptionLetter("B. After cleaning out the face, the mask is dried out.", OPTIONS)).toMatchObject({ letter: null, how: "conflict" });
    expect(extractOptionLetter("I'm sorry, I cannot help.", OPTIONS)).toMatchObject({ letter: null, how: "none" });
    expect(extractOptionLetter("F", OPTIONS).reason).toContain("not one of the options (A, B, C, D, E)");
  });

  it("says how it found one", () => {
    expect(extractOptionLetter("The answer is B", OPTIONS)).toMatchObject({ letter: "B", how: "letter" });
    expect(extractOptionLetter(OPTIONS.C, OPTIONS)).toMatchObject({ letter: "C", how: "option_text" });
    expect(extractOptionLetter(`D. ${OPTIONS.D}`, OPTIONS)).toMatchObject({ letter: "D", how: "letter_and_text" });
  });

  it("reads a capital inside an option's text as text, not as a second letter", () => {
    const options = { A: "Use plan B", B: "Give up" };
    expect(extractOptionLetter("A. Use plan B", options).letter).toBe("A");
    expect(extractOptionLetter("Use plan B", options).letter).toBe("A");
  });

  it("counts only the question's letters (two options: C is not one)", () => {
    expect(extractOptionLetter("C", { A: "yes", B: "no" }).letter).toBeNull();
    expect(extractOptionLetter("It is B, as C shows.", { A: "yes", B: "no" }).letter).toBe("B");
  });
});
