import { describe, expect, it } from "vitest";
import { expectedScore } from "./expected-score";
import { chatCompletionBody, chatResultOf, type TokenLogprob } from "./llm-client";

const numeric = { label: "Quality", scale: { kind: "numeric" as const, min: 1, max: 5, step: 1 } };
const yesNo = {
  label: "Present",
  scale: {
    kind: "categorical" as const,
    values: [
      { value: 0, label: "no" },
      { value: 1, label: "yes" },
    ],
  },
};
const certain = (token: string): TokenLogprob => ({ token, logprob: 0, top: [{ token, logprob: 0 }] });
const at = (token: string, alternatives: [string, number][]): TokenLogprob => ({
  token,
  logprob: Math.log(alternatives.find(([t]) => t === token)?.[1] ?? 1e-9),
  top: alternatives.map(([t, p]) => ({ token: t, logprob: Math.log(p) })),
});
const tokens = (...parts: (string | TokenLogprob)[]) => parts.map((p) => (typeof p === "string" ? certain(p) : p));

describe("expectedScore (G-Eval over the value token's alternatives)", () => {
  it("weights the on-scale alternatives at the value token after the key, renormalised, and adds up tokens of the same value", () => {
    const answer = tokens(
      '{"',
      "quality",
      '":',
      at(" 4", [
        [" 4", 0.5],
        ["4", 0.1],
        [" 3", 0.2],
        [" nine", 0.1],
        [" 7", 0.1],
      ]),
      ',"reasons":{"quality":"fine"}}',
    );
    // " nine" is no number and 7 is off the 1–5 scale: 4 has 0.6 and 3 has 0.2 of the 0.8 left.
    expect(expectedScore(answer, "quality", 4, numeric)).toBeCloseTo((4 * 0.6 + 3 * 0.2) / 0.8, 10);
  });

  it("reads true/false as 1/0 on a yes/no scale", () => {
    const answer = tokens(
      '{"present":',
      at("true", [
        ["true", 0.7],
        ["false", 0.3],
      ]),
      "}",
    );
    expect(expectedScore(answer, "present", 1, yesNo)).toBeCloseTo(0.7, 10);
  });

  it("gives null when the value is split over tokens (a tokenizer that writes 10 as 1 and 0), or the key, logprobs or target is missing", () => {
    const scale10 = { label: "Score", scale: { kind: "numeric" as const, min: 0, max: 10, step: 1 } };
    const split = tokens(
      '{"score":',
      at("1", [
        ["1", 0.6],
        ["9", 0.4],
      ]),
      "0",
      "}",
    );
    expect(expectedScore(split, "score", 10, scale10)).toBeNull();
    expect(expectedScore(tokens('{"other":', "4", "}"), "quality", 4, numeric)).toBeNull();
    expect(expectedScore(null, "quality", 4, numeric)).toBeNull();
    expect(expectedScore(tokens('{"quality":', "4", "}"), "quality", 4, null)).toBeNull();
  });

  it("asks for logprobs only when told, at most 20, and reads `choices[0].logprobs.content`", () => {
    const base = { model: "m", text: "t", images: [] };
    expect(chatCompletionBody(base)).not.toHaveProperty("logprobs");
    expect(chatCompletionBody({ ...base, topLogprobs: 50 })).toMatchObject({ logprobs: true, top_logprobs: 20 });
    const result = chatResultOf({
      choices: [
        {
          message: { content: "4" },
          finish_reason: "stop",
          logprobs: { content: [{ token: "4", logprob: -0.1, top_logprobs: [{ token: "4", logprob: -0.1 }] }] },
        } as never,
      ],
    });
    expect(result.logprobs).toEqual([{ token: "4", logprob: -0.1, top: [{ token: "4", logprob: -0.1 }] }]);
    expect(chatResultOf({ choices: [{ message: { content: "4" }, finish_reason: "stop" }] }).logprobs).toBeNull();
  });
});
