import { describe, expect, it } from "vitest";
import { contentText, splitReasoning } from "./answer-content";
import { chatResultOf, providerErrorMessage, serverSettingHint } from "./llm-client";

describe("reading what a server answered", () => {
  it("takes reasoning out before the answer: a <think> block, only its closing tag (R1), or one never closed", () => {
    expect(splitReasoning('<think>draft {"s1": 3}</think>\n{"s1": 6}')).toEqual({
      answer: '{"s1": 6}',
      reasoning: 'draft {"s1": 3}',
    });
    expect(splitReasoning('draft {"s1": 3}\n</think>\n\n{"s1": 6}')).toEqual({
      answer: '{"s1": 6}',
      reasoning: 'draft {"s1": 3}',
    });
    expect(splitReasoning('<think>draft {"s1": 3} and then')).toEqual({
      answer: "",
      reasoning: 'draft {"s1": 3} and then',
    });
    expect(splitReasoning('{"s1": 6}')).toEqual({ answer: '{"s1": 6}', reasoning: null });
  });

  it("joins the text parts of an array content and ignores the rest", () => {
    expect(
      contentText([
        { type: "text", text: '{"a":' },
        { type: "image_url", image_url: { url: "x" } },
        { type: "text", text: " 1}" },
      ]),
    ).toBe('{"a": 1}');
    expect(contentText(null)).toBeNull();
    expect(contentText([])).toBeNull();
  });

  it("a completion without usage has unknown tokens; reasoning_content is kept as reasoning", () => {
    const result = chatResultOf({
      choices: [
        {
          message: { content: [{ type: "text", text: "B" }], reasoning_content: "The frames show a cat." },
          finish_reason: "stop",
        },
      ],
    });
    expect(result).toMatchObject({
      text: "B",
      usageKnown: false,
      promptTokens: 0,
      completionTokens: 0,
      reasoning: "The frames show a cat.",
    });
    expect(
      chatResultOf({ choices: [{ message: { content: "B" } }], usage: { prompt_tokens: 5, completion_tokens: 1 } }),
    ).toMatchObject({ usageKnown: true, promptTokens: 5 });
  });

  it("finds the provider's message in OpenAI's, vLLM's and FastAPI's error bodies, and names the server setting to change", () => {
    expect(providerErrorMessage('{"error":{"message":"bad image","type":"invalid_request_error"}}')).toBe("bad image");
    expect(
      providerErrorMessage(
        '{"object":"error","message":"At most 1 image(s) may be provided in one request.","type":"BadRequestError","param":null,"code":400}',
      ),
    ).toBe("At most 1 image(s) may be provided in one request.");
    expect(providerErrorMessage('{"detail":[{"loc":["body"],"msg":"field required"}]}')).toBe("field required");
    expect(providerErrorMessage("Bad Gateway")).toBe("Bad Gateway");
    expect(serverSettingHint("At most 4 image(s) may be provided in one request.")).toContain(
      `--limit-mm-per-prompt '{"image": K}'`,
    );
    expect(serverSettingHint("This model's maximum context length is 8192 tokens.")).toContain("--max-model-len");
    expect(serverSettingHint("bad image")).toBeNull();
  });
});
