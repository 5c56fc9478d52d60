/**
 * Issue 23.11: seed 004's tables separate the system message from the prompt. A template that declares
 * `system: first-paragraph` sends its first paragraph in the `system` role; others send one user message.
 */
import { describe, expect, it } from "vitest";
import { chatCompletionBody } from "../calls/llm-client";
import {
  listTemplateIds,
  loadTemplate,
  parseTemplate,
  splitSystemMessage,
} from "../../prompt-versions/prompt-templates";
import { responseCacheKey } from "../engine/cache-key";

const file = (front: string, body: string) => `---\nid: t/x\nversion: 1\ninputs: [q]\n${front}---\n${body}\n`;

describe("the system message of seed 004's prompts", () => {
  it("splits a rendered prompt at its first blank line when the template says so, and only then", () => {
    const template = parseTemplate(
      file("system: first-paragraph\n", "You are a careful teacher.\n\n## Input:\n   - Question: {{q}}"),
      "t/x",
    );
    expect(splitSystemMessage(template.meta, "You are a careful teacher.\n\n## Input:\n   - Question: why?")).toEqual({
      system: "You are a careful teacher.",
      user: "## Input:\n   - Question: why?",
    });
    const plain = parseTemplate(file("", "You are a careful teacher.\n\n{{q}}"), "t/x");
    expect(splitSystemMessage(plain.meta, "You are a careful teacher.\n\nwhy?")).toEqual({
      system: null,
      user: "You are a careful teacher.\n\nwhy?",
    });
  });

  it("refuses a template whose system declaration cannot hold", () => {
    expect(() => parseTemplate(file("system: yes\n", "A\n\n{{q}}"), "t/x")).toThrow(/must be `first-paragraph`/);
    expect(() => parseTemplate(file("system: first-paragraph\n", "One paragraph {{q}}"), "t/x")).toThrow(
      /needs a first paragraph/,
    );
    expect(() => parseTemplate(file("system: first-paragraph\n", "Hello {{q}}\n\nmore"), "t/x")).toThrow(
      /may not hold a \{\{placeholder\}\}/,
    );
  });

  it("sends the system message first, in the system role", () => {
    const body = chatCompletionBody({ model: "m", system: "You are a careful teacher.", text: "## Input", images: [] });
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(body.messages[0]!.content).toBe("You are a careful teacher.");
    expect(chatCompletionBody({ model: "m", text: "## Input", images: [] }).messages.map((m) => m.role)).toEqual([
      "user",
    ]);
  });

  it("caches a system-role request apart from the same text as one user message", () => {
    const parts = {
      model: "m",
      templateHash: "h",
      text: "t",
      frameSha256s: [],
      temperature: 0,
      imageDetail: "low",
      responseFormat: null,
    };
    expect(responseCacheKey({ ...parts, systemRole: true })).not.toBe(responseCacheKey(parts));
    expect(responseCacheKey({ ...parts, systemRole: false })).toBe(responseCacheKey(parts));
  });

  it("is declared by every shipped seed 004 template whose table has a system message", () => {
    const withSystem = listTemplateIds().filter((id) => loadTemplate(id).meta.system === "first-paragraph");
    expect(withSystem).toEqual(
      expect.arrayContaining([
        "construction/categorise",
        "construction/generate-generic-coarse",
        "construction/wrong-answers-six",
        "qa/judge-open",
        "qa/judge-option",
        "qa/text-only-mc",
      ]),
    );
    expect(withSystem.filter((id) => id.startsWith("construction/"))).toHaveLength(
      listTemplateIds().filter((id) => id.startsWith("construction/")).length,
    );
    // Table 24's system message is empty ("-"): its template is the prompt alone.
    expect(withSystem).not.toContain("qa/text-only-open");
  });
});
