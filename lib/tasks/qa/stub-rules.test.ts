import { describe, expect, it } from "vitest";
import { loadTemplate, renderTemplate } from "../../prompt-versions/prompt-templates";
import { judgementAnswerSchema } from "./qa-answers";
import { parseStructuredOutput } from "../../judge/calls/parse-llm-output";
import { extractOptionLetter } from "./extract-letter";
import { defaultStubRules, makeContext } from "../../../testkit/llm-stub/stub-rules";

const OPTIONS = { A: "The ball rolls down the ramp.", B: "It flies away.", C: "It melts." };
const render = (id: string, values: Record<string, string>) => renderTemplate(loadTemplate(id), values);
const mcPrompt = (question = "Where does the ball roll?", options: Record<string, string> = OPTIONS) =>
  render("qa/answer-mc", {
    question,
    options: Object.entries(options)
      .map(([l, t]) => `\n${l}. ${t}`)
      .join(""),
  });

function respond(text: string, model: string, images = ["f1", "f2"]) {
  const matching = defaultStubRules().filter((rule) => rule.match.test(text));
  expect(matching).toHaveLength(1);
  return { rule: matching[0]!.name, answer: matching[0]!.respond(makeContext(text, images, false, model)) };
}

describe("the stub's QA rules", () => {
  it("match each of seed 004's QA prompts with exactly one rule", () => {
    const indented = Object.entries(OPTIONS)
      .map(([l, t]) => `      ${l}. ${t}`)
      .join("\n");
    expect(respond(mcPrompt(), "stub-vision").rule).toBe("qa-answer-mc");
    expect(respond(render("qa/answer-open", { question: "What happens?" }), "stub-vision").rule).toBe("qa-answer-open");
    expect(respond(render("qa/text-only-mc", { question: "Where?", options: indented }), "stub-vision", []).rule).toBe(
      "qa-text-only-mc",
    );
    expect(respond(render("qa/text-only-open", { question: "Where?" }), "stub-vision", []).rule).toBe(
      "qa-text-only-open",
    );
    expect(
      respond(
        render("qa/judge-option", {
          question: "Where?",
          options: indented,
          correct_answer: "A. x",
          student_answer: "A",
        }),
        "stub-judge",
        [],
      ).rule,
    ).toBe("qa-judge-option");
    expect(
      respond(
        render("qa/judge-open", { question: "Where?", correct_answer: "At the bottom.", student_answer: "Bottom." }),
        "stub-judge",
        [],
      ).rule,
    ).toBe("qa-judge-open");
  });

  it("a model that sees picks the option sharing the most words with the question, however it wraps the letter", () => {
    for (const model of ["stub-vision", "stub-vision-2", "another-model", "m4", "m5", "m6"]) {
      const { answer } = respond(mcPrompt(), model);
      expect(extractOptionLetter(answer, OPTIONS).letter, `${model}: ${answer}`).toBe("A");
    }
    // Deterministic: the same prompt, frames and model give the same answer.
    expect(respond(mcPrompt(), "stub-vision").answer).toBe(respond(mcPrompt(), "stub-vision").answer);
  });

  it("a guessing model, and any model without frames, picks by hash; the blind prompt answers JSON", () => {
    const letters = new Set<string | null>();
    for (let i = 0; i < 30; i++)
      letters.add(extractOptionLetter(respond(mcPrompt(`Question number ${i}?`), "stub-guess").answer, OPTIONS).letter);
    expect(letters.size).toBeGreaterThan(1);
    const indented = Object.entries(OPTIONS)
      .map(([l, t]) => `      ${l}. ${t}`)
      .join("\n");
    const blind = JSON.parse(
      respond(
        render("qa/text-only-mc", { question: "Where does the ball roll?", options: indented }),
        "stub-vision",
        [],
      ).answer,
    ) as { Best_option: string; Reason: string };
    expect(blind.Best_option).toMatch(/^[ABC]\. /);
    expect(extractOptionLetter(JSON.stringify(blind), OPTIONS).letter).toBe(blind.Best_option[0]);
  });

  it("the judges answer seed 004's JSON: Yes for the correct option alone, or for an answer sharing half the reference's words", () => {
    const indented = Object.entries(OPTIONS)
      .map(([l, t]) => `      ${l}. ${t}`)
      .join("\n");
    const option = (student: string) => {
      const text = render("qa/judge-option", {
        question: "Where does the ball roll?",
        options: indented,
        correct_answer: `A. ${OPTIONS.A}`,
        student_answer: student,
      });
      const parsed = parseStructuredOutput(respond(text, "stub-judge", []).answer, judgementAnswerSchema);
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.value.Judgement;
    };
    expect(option("The answer is A.")).toBe("Yes");
    expect(option("It is either A or B.")).toBe("No");
    expect(option("C")).toBe("No");
    const open = (student: string) => {
      const text = render("qa/judge-open", {
        question: "What does the ball do?",
        correct_answer: "The ball rolls down the ramp.",
        student_answer: student,
      });
      return (JSON.parse(respond(text, "stub-judge", []).answer) as { Judgement: string }).Judgement;
    };
    expect(open("From the frames: ball ramp.")).toBe("Yes");
    expect(open("It flies away.")).toBe("No");
  });
});
