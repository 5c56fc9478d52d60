import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadTemplate, renderTemplate } from "../../prompt-versions/prompt-templates";
import { defaultStubRules, makeContext } from "../../../testkit/llm-stub/stub-rules";
import { extractOptionLetter } from "./extract-letter";
import { optionLinesForAnswer } from "./qa-answers";
import { parseQuestionSet } from "./question-sets";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import { demoQuestions } from "./demo-seed";

describe("the demo's question set", () => {
  const parsed = parseQuestionSet(
    new TextEncoder().encode(demoQuestions()),
    CLIPS.map((clip) => path.basename(clip.path)),
    { format: "jsonl" },
  );

  it("is a valid question set over the demo clips, multiple choice and open, with categories and granularities", () => {
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.questions).toHaveLength(CLIPS.length * 3);
    expect(new Set(parsed.questions.map((q) => q.videoFileName)).size).toBe(CLIPS.length);
    expect(parsed.questions.filter((q) => q.format === "open")).toHaveLength(CLIPS.length);
    expect(new Set(parsed.questions.map((q) => q.granularity))).toEqual(new Set(["coarse", "fine"]));
  });

  it("has multiple-choice questions the simulated model that sees gets right and others it gets wrong", () => {
    if (!parsed.ok) throw new Error("invalid");
    const rule = defaultStubRules().find((r) => r.name === "qa-answer-mc")!;
    const outcomes = parsed.questions
      .filter((q) => q.format === "mc")
      .map((q) => {
        const text = renderTemplate(loadTemplate("qa/answer-mc"), {
          question: q.question,
          options: optionLinesForAnswer(q.options!),
        });
        return (
          extractOptionLetter(rule.respond(makeContext(text, ["frame"], false, "stub-vision")), q.options!).letter ===
          q.answer
        );
      });
    expect(outcomes.filter(Boolean).length).toBe(4);
    expect(outcomes.filter((right) => !right).length).toBe(4);
  });
});
