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
  [
    '{"Best_option": "E. After cleaning the face, the mask needs to be left still for a few seconds.", "Reason": "The frames show waiting."}',
    "E",
  ],
  ['```json\n{"answer": "A"}\n```', "A"],
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
  [
    "After cleaning the face, tissue is applied on the face using water. After cleaning out the face, the mask is dried out.",
    null,
  ],
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
    expect(extractOptionLetter("B or C", OPTIONS)).toMatchObject({
      letter: null,
      how: "several",
      reason: "the answer names several options (B, C)",
    });
    expect(extractOptionLetter("B. After cleaning out the face, the mask is dried out.", OPTIONS)).toMatchObject({
      letter: null,
      how: "conflict",
    });
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

// Issue 23.9: answers in which a careful reader sees the letter, and that used to cost a judge call.
describe("extractOptionLetter: other languages, explanations and the pronoun I", () => {
  // [raw answer, letter]: the letter after text in another language.
  const LANGUAGES: [string, string | null][] = [
    ["视频中的人先清洁面部，然后用水把纸巾贴在脸上。答案是B。", "B"],
    ["答案：C", "C"],
    ["正确答案是 D", "D"],
    ["选项E", "E"],
    ["答案是Ｂ", "B"], // full-width letter
    ["答案：（Ｃ）", "C"],
    ["動画では顔を洗った後、ティッシュを貼っています。答えはBです。", "B"],
    ["正解：D", "D"],
    ["정답은 B입니다.", "B"],
    ["La respuesta es B.", "B"],
    ["En el video se ve a una persona limpiándose la cara. La respuesta correcta es la b.", "B"],
    ["La réponse est c.", "C"],
    ["Réponse : D", "D"],
    ["Die Antwort ist B.", "B"],
    ["Antwort: e", "E"],
    ["A resposta é B.", "B"], // Portuguese: the article "A" before "resposta" is not option A
    ["E quindi la risposta è C.", "C"], // Italian: "E" (and) is not option E
    ["Ответ: B", "B"],
    ["Đáp án: D", "D"],
    ["Jawaban: A", "A"],
    // Still nothing guessed: two letters in another language.
    ["答案是B或C", null],
    ["La respuesta es B o C.", null],
  ];
  it.each(LANGUAGES)("%j → %s", (answer, letter) => {
    expect(extractOptionLetter(answer, OPTIONS).letter).toBe(letter);
  });

  // The first line is only the letter; the explanation names the options it rejects.
  const EXPLANATIONS: [string, string | null][] = [
    ["B\nThe frames show tissue applied with water; A, C, D and E do not match.", "B"],
    ["B.\n\nExplanation: A is wrong because no mask is shaped, and C is wrong because nothing is dried.", "B"],
    ["**C**\n\n- A: no mask is made\n- B: no tissue is seen\n- D: nothing is placed under the neck", "C"],
    ["(D)\r\nWhy not the others: A and B show other steps.", "D"],
    ["Answer: E\nOption A is ruled out by frame 2, option B by frame 5.", "E"],
    ["答案：B\n解释：A 和 C 都不对。", "B"],
    ["B. After cleaning the face, tissue is applied on the face using water.\nNot A: nobody shapes a mask.", "B"],
    // The explanation states another answer: a conflict, not a guess.
    ["B\nOn a second look, the answer is C.", null],
    // A first line that is prose is read as a whole, as before.
    ["Looking at it,\nA or C.", null],
  ];
  it.each(EXPLANATIONS)("%j → %s", (answer, letter) => {
    expect(extractOptionLetter(answer, OPTIONS).letter).toBe(letter);
  });

  it("says the explanation was not read, and names a restated answer's conflict", () => {
    expect(extractOptionLetter("B\nA is wrong.", OPTIONS)).toMatchObject({
      letter: "B",
      reason: "the first line is option B; the explanation after it is not read for letters",
    });
    expect(extractOptionLetter("B\nSo the answer is C.", OPTIONS)).toMatchObject({ letter: null, how: "conflict" });
  });

  // Nine or more options: "I" is a letter, but "I" before a modal verb is the pronoun.
  const TEN = Object.fromEntries("ABCDEFGHIJ".split("").map((l, i) => [l, `option text number ${i + 1}`]));
  const PRONOUN: [string, string | null][] = [
    ["I would say B.", "B"],
    ["I could see the mask being shaped, so B.", "B"],
    ["I should pick G.", "G"],
    ["I might go with H here.", "H"],
    ["I will choose J.", "J"],
    ["I can tell it is C.", "C"],
    ["I", "I"],
    ["The answer is I.", "I"],
    ["I is correct.", "I"],
    ["I would say I.", "I"],
  ];
  it.each(PRONOUN)("ten options: %j → %s", (answer, letter) => {
    expect(extractOptionLetter(answer, TEN).letter).toBe(letter);
  });
});

// Issue 38: answers that list options, hedge between them or rule them out are not a choice of one, and go to the
// judge with a reason that says so; a choice stated after a repeated option list is still read.
describe("extractOptionLetter: listed, alternative and ruled-out options", () => {
  const BALL = { A: "It stays still.", B: "The ball rolls.", C: "It melts.", D: "It flies away." };
  type Case = [answer: string, letter: string | null, how: string];

  // Each option on its own line with its letter: a list, not a choice (the first line is not the answer).
  const LINE_LISTS: Case[] = [
    ["B. The ball rolls.\nC. It melts.", null, "list"],
    ["B. The ball rolls.\n\nC. It melts.", null, "list"],
    ["A. It stays still.\nB. The ball rolls.\nC. It melts.\nD. It flies away.", null, "list"],
    ["B. something else\nC. another thing", null, "list"],
    ["B\nC", null, "list"],
    ["B:  The ball rolls.\nC: It melts.", null, "list"],
    ["(B) The ball rolls.\r\n(C) It melts.", null, "list"],
    ["b) The ball rolls.\nc) It melts.", null, "list"],
    ["Option B: The ball rolls.\nOption C: It melts.", null, "list"],
    ["- B. The ball rolls.\n- C. It melts.", null, "list"],
    ["* B\n* C", null, "list"],
    ["1. B\n2. C", null, "list"],
    ["**B.** The ball rolls.\n**C.** It melts.", null, "list"],
    ["The options that fit:\nB. The ball rolls.\nC. It melts.", null, "list"],
    ["A. It stays still.\nB. The ball rolls.\nI am not sure which.", null, "list"],
    // The whole option list repeated, then a choice: the choice is read, the list left out.
    ["A. x\nB. y\nC. z\nAnswer: B", "B", "letter"],
    ["A. It stays still.\nB. The ball rolls.\nC. It melts.\nD. It flies away.\nAnswer: B", "B", "letter"],
    [
      "Options:\nA. It stays still.\nB. The ball rolls.\nC. It melts.\nD. It flies away.\n\nThe answer is C.",
      "C",
      "letter",
    ],
    ["- A. It stays still.\n- B. The ball rolls.\n- C. It melts.\n\n**D**", "D", "letter"],
    ["A. x\nB. y\nC. z\nAnswer: B or C", null, "several"],
    // A first line that is only a letter, then the options it rejects in another form: the first line is the answer.
    ["B\n- A: nothing stays still\n- C: nothing melts", "B", "letter"],
    ["B\n\nA) no\nC) no\nD) no", "B", "letter"],
  ];
  it.each(LINE_LISTS)("lines: %j → %s (%s)", (answer, letter, how) => {
    expect(extractOptionLetter(answer, BALL)).toMatchObject({ letter, how });
  });

  // Several options in one line, each after its letter: a list as well (in the options' order, so "(B) …, not (A)" is prose).
  const INLINE_LISTS: Case[] = [
    ["A) It stays still. B) The ball rolls.", null, "list"],
    ["(A) It stays still (B) The ball rolls (C) It melts", null, "list"],
    ["[B] rolls [C] melts", null, "list"],
    ["A. It stays still. B. The ball rolls. C. It melts.", null, "list"],
    ["a) stays b) rolls", null, "list"],
    ["(A) stays (B) rolls (C) melts. Answer: B", "B", "letter"],
    ["Both (A) and (C) are plausible.", null, "several"],
  ];
  it.each(INLINE_LISTS)("inline: %j → %s (%s)", (answer, letter, how) => {
    expect(extractOptionLetter(answer, BALL)).toMatchObject({ letter, how });
  });

  // Alternatives name several options: none.
  const ALTERNATIVES: Case[] = [
    ["A or B", null, "several"],
    ["A/B", null, "several"],
    ["B / C.", null, "several"],
    ["A-B", null, "several"],
    ["between A and C", null, "several"],
    ["It is between B and C; I lean towards C.", null, "several"],
  ];
  it.each(ALTERNATIVES)("alternatives: %j → %s (%s)", (answer, letter, how) => {
    expect(extractOptionLetter(answer, BALL)).toMatchObject({ letter, how });
  });

  // A letter the answer rules out is not its choice. Ruling some out and naming another ("A, B and C are wrong,
  // D") is prose that weighs options, left to the judge as "Not B, it is D." always was.
  const RULED_OUT: Case[] = [
    ["not A", null, "ruled_out"],
    ["Not A.", null, "ruled_out"],
    ["It's not A.", null, "ruled_out"],
    ["Definitely not option C.", null, "ruled_out"],
    ["A is wrong.", null, "ruled_out"],
    ["C isn't it.", null, "ruled_out"],
    ["Neither A nor B.", null, "ruled_out"],
    ["答案不是A", null, "ruled_out"],
    ["A, B and C are wrong, D", null, "several"],
    ["A, B and C are wrong, so the answer is D.", null, "several"],
    ["The answer is B, not A.", null, "several"],
    ["Not A; B or C.", null, "several"],
    // A tag question or a doubt before the letter rules nothing out.
    ["The answer is B, isn't it?", "B", "letter"],
    ["I'm not sure, but B.", "B", "letter"],
    ["Option B is correct.", "B", "letter"],
  ];
  it.each(RULED_OUT)("ruled out: %j → %s (%s)", (answer, letter, how) => {
    expect(extractOptionLetter(answer, BALL)).toMatchObject({ letter, how });
  });

  // Markdown, lower case, and letters inside words.
  const SPELLING: Case[] = [
    ["**B**", "B", "letter"],
    ["**Answer:** B", "B", "letter"],
    ["- **C**", "C", "letter"],
    ["**B.** The ball rolls.", "B", "letter_and_text"],
    ["b.", "B", "letter"],
    ["b) The ball rolls.", "B", "letter_and_text"],
    ["b. It melts.", null, "conflict"],
    ["Bravo", null, "none"],
    ["The answer is Bravo.", null, "none"],
    ["ABC", null, "none"],
    ["B-roll footage shows it melting away.", null, "none"],
    ["The ramp is an A-frame; the answer is C.", "C", "letter"],
    ["The ball is a B-grade prop, so D.", "D", "letter"],
  ];
  it.each(SPELLING)("spelling: %j → %s (%s)", (answer, letter, how) => {
    expect(extractOptionLetter(answer, BALL)).toMatchObject({ letter, how });
  });

  it("says why no letter was read, and after which list a letter was", () => {
    const reason = (answer: string) => extractOptionLetter(answer, BALL).reason;
    expect(reason("B. The ball rolls.\nC. It melts.")).toBe(
      "the answer lists options (B, C), each on its own line with its letter, and chooses none",
    );
    expect(reason("A) It stays still. B) The ball rolls.")).toBe(
      "the answer lists options (A, B) in one line, each after its letter, and chooses none",
    );
    expect(reason("not A")).toBe("the answer rules out option A and chooses none");
    expect(reason("Neither A nor B.")).toBe("the answer rules out options (A, B) and chooses none");
    expect(reason("A, B and C are wrong, D")).toBe(
      "the answer rules out options (A, B, C) and names D: prose that weighs several options goes to the judge",
    );
    expect(reason("A or B")).toBe("the answer names several options (A, B)");
    expect(reason("A. x\nB. y\nC. z\nAnswer: B")).toBe("after listing options (A, B, C), the answer is the letter B");
    expect(reason("(A) stays (B) rolls (C) melts. Answer: B")).toBe(
      "the answer lists options (A, B, C) in one line and then states the answer B",
    );
    expect(reason("A. x\nB. y\nC. z\nAnswer: B or C")).toBe(
      "after listing options (A, B, C), the answer names several options (B, C)",
    );
  });
});
