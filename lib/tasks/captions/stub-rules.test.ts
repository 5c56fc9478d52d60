import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { captionContentAnswerSchema, captionStyleAnswerSchema, formatKeyPoints } from "./caption-judge-answers";
import { applyLengthRules } from "./length-rules";
import { parseStructuredOutput } from "../../judge/calls/parse-llm-output";
import { loadTemplate, renderTemplate } from "../../prompt-versions/prompt-templates";
import { defaultStubRules, makeContext } from "../../../testkit/llm-stub/stub-rules";
import { startStubLlm } from "../../../testkit/llm-stub/stub-server";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

function rubricPrompt(output: string, reference: string, captionType = "brief"): string {
  return renderTemplate(loadTemplate("caption-rubric/judge"), { caption_type: captionType, output, reference });
}

function contentPrompt(keyPoints: string[], output: string): string {
  return renderTemplate(loadTemplate("caption-content/judge"), {
    caption_type: "action",
    instruction: "Describe the actions of the girl. The generated caption's length cannot exceed three sentences.",
    key_points: formatKeyPoints(keyPoints),
    output,
  });
}

function answer(text: string): string {
  const matching = defaultStubRules().filter((rule) => rule.match.test(text));
  expect(matching).toHaveLength(1);
  return matching[0]!.respond(makeContext(text, ["frame-1", "frame-2"], true));
}

describe("the stub's caption rubric rule", () => {
  it("scores 3 within ±10% of the reference's length and 2 outside it, deterministically", () => {
    for (const [outputWords, score] of [
      [10, 3],
      [11, 3],
      [9, 3],
      [12, 2],
      [30, 2],
    ] as const) {
      const text = rubricPrompt(words(outputWords), words(10));
      const first = parseStructuredOutput(answer(text), captionStyleAnswerSchema);
      expect(first).toEqual({
        ok: true,
        value: {
          score,
          reason: `Simulated judgment from the stub LLM: the output has ${outputWords} words, the reference 10.`,
        },
      });
      expect(answer(text)).toBe(answer(text));
    }
  });

  it("breaks the brief/detail cap on purpose when the length is off, which the rules then flag", () => {
    const output = words(15);
    const reference = words(10);
    const style = parseStructuredOutput(answer(rubricPrompt(output, reference)), captionStyleAnswerSchema);
    if (!style.ok) throw new Error(style.error);
    const rules = applyLengthRules({
      captionType: "brief",
      output,
      reference,
      instruction: "",
      restriction: null,
      judgeScore: style.value.score,
    });
    expect(rules).toMatchObject({ cap: 1, scoreAfterRules: 1, judgeBrokeRule: true });
  });

  it("reads multi-line outputs such as poems", () => {
    const poem = "In glass bowls, gifts are laid,\nRuby jewels arrayed.";
    const parsed = JSON.parse(answer(rubricPrompt(poem, "Glass bowls hold seeds and honey here today", "poem"))) as {
      reason: string;
    };
    expect(parsed.reason).toContain("the output has 9 words, the reference 8");
  });
});

describe("the stub's key-point rule", () => {
  const keyPoints = [
    "describe the girl's initial position (standing beside the bed)",
    "mention the girl's action (holding a bouquet of red flowers)",
    "describe the final action (looking at the card)",
  ];

  it("scores each key point by a shared content word, with a correct total the content schema accepts", () => {
    const text = contentPrompt(keyPoints, "A girl stands beside her bed holding red flowers.");
    const parsed = parseStructuredOutput(answer(text), captionContentAnswerSchema(keyPoints));
    expect(parsed).toMatchObject({ ok: true });
    if (!parsed.ok) return;
    expect(parsed.value.keyPoints.map((k) => k.score)).toEqual([1, 1, 0]);
    expect(parsed.value.total).toBe(2);
    expect(parsed.value.keyPoints[0]!.reason).toBe('Simulated: the caption mentions "girl".');
  });

  it("answers the same prompt the same way", () => {
    const text = contentPrompt(keyPoints, "Nothing relevant at all.");
    expect(answer(text)).toBe(answer(text));
    expect(JSON.parse(answer(text))).toMatchObject({ total: 0 });
  });
});

describe("the stub server", () => {
  it("answers the key-point prompt over HTTP, and still injects faults into it", async () => {
    const stub = await startStubLlm();
    try {
      const client = new OpenAI({ baseURL: stub.baseURL, apiKey: "k", maxRetries: 0, timeout: 2000 });
      const text = contentPrompt(["mention the bouquet"], "She holds a bouquet.");
      const ask = () => client.chat.completions.create({ model: "stub", messages: [{ role: "user", content: text }] });
      const reply = await ask();
      expect(JSON.parse(reply.choices[0]!.message.content!)).toEqual({
        key_points: [
          { key_point: "mention the bouquet", score: 1, reason: 'Simulated: the caption mentions "bouquet".' },
        ],
        total: 1,
      });
      expect(stub.requests.at(-1)!.rule).toBe("caption-content");
      stub.addFault({ fault: { kind: "content", content: '{"key_points": [], "total": 5}' }, match: "key point" });
      expect((await ask()).choices[0]!.message.content).toBe('{"key_points": [], "total": 5}');
    } finally {
      await stub.close();
    }
  });
});
