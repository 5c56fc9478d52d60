/**
 * What an OpenAI-compatible server's message holds, as the engine reads it. Kept apart from the client
 * (no SDK import) so the parser and the stub's tests can use it too.
 */

const TEXT_PART_TYPES = new Set([undefined, "text", "output_text"]);

/** A message's content as text: a string as it is, an array of parts as its text parts joined, anything else null. */
export function contentText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") texts.push(part);
    else if (typeof part === "object" && part !== null) {
      const { type, text } = part as { type?: unknown; text?: unknown };
      if (TEXT_PART_TYPES.has(type as string | undefined) && typeof text === "string") texts.push(text);
    }
  }
  return texts.length > 0 ? texts.join("") : null;
}

/**
 * Reasoning models served without a reasoning parser (Qwen3, DeepSeek-R1) put their thinking before the
 * answer, often with a draft of the JSON in it. The answer is what follows the last `</think>`, whether or
 * not the text opens with `<think>` (R1's chat template opens it in the prompt); a leading `<think>` that
 * is never closed (the model stopped while thinking) leaves no answer at all, never the draft.
 */
export function splitReasoning(text: string): { answer: string; reasoning: string | null } {
  const close = text.lastIndexOf("</think>");
  if (close >= 0) {
    const thought = text
      .slice(0, close)
      .replace(/<\/?think>/g, "")
      .trim();
    return { answer: text.slice(close + "</think>".length).trim(), reasoning: thought || null };
  }
  const open = /^\s*<think>/.exec(text);
  if (open) return { answer: "", reasoning: text.slice(open[0].length).trim() || null };
  return { answer: text, reasoning: null };
}
