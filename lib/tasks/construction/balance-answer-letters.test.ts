import { describe, expect, it } from "vitest";
import { balanceAnswerLetters, letterHistogram } from "./balance-answer-letters";

const question = (id: string) => ({
  id,
  correct: `right ${id}`,
  wrong: [`w1 ${id}`, `w2 ${id}`, `w3 ${id}`, `w4 ${id}`],
});

describe("balanceAnswerLetters", () => {
  it("spreads the correct letter evenly: every letter within one of n/5", () => {
    for (const n of [1, 4, 5, 23, 100]) {
      const lettered = balanceAnswerLetters(Array.from({ length: n }, (_, i) => question(`q${i}`)));
      const counts = Object.values(letterHistogram(lettered.map((q) => q.answer)));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
  });

  it("puts the correct answer at its letter and the wrong ones in order around it, keeping the input order", () => {
    const lettered = balanceAnswerLetters([question("a"), question("b"), question("c")]);
    expect(lettered.map((q) => q.id)).toEqual(["a", "b", "c"]);
    for (const q of lettered) {
      expect(q.options[q.answer]).toBe(`right ${q.id}`);
      expect(
        Object.entries(q.options)
          .filter(([letter]) => letter !== q.answer)
          .map(([, text]) => text),
      ).toEqual([1, 2, 3, 4].map((k) => `w${k} ${q.id}`));
    }
  });

  it("is reproducible for a seed, does not follow the input order, and changes with the seed", () => {
    const questions = Array.from({ length: 50 }, (_, i) => question(`q${i}`));
    const once = balanceAnswerLetters(questions, "s1").map((q) => q.answer);
    expect(
      balanceAnswerLetters([...questions].reverse(), "s1")
        .map((q) => q.answer)
        .reverse(),
    ).toEqual(once);
    expect(once.slice(0, 10).join("")).not.toBe("ABCDEABCDE");
    expect(balanceAnswerLetters(questions, "s2").map((q) => q.answer)).not.toEqual(once);
  });

  it("refuses a question without exactly four wrong answers", () => {
    expect(() => balanceAnswerLetters([{ id: "x", correct: "c", wrong: ["a", "b", "c"] }])).toThrow(/needs 4/);
  });
});
