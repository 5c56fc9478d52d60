/**
 * TEST TOOL. The chat completion the stub LLM answers: the matching rule's answer, reshaped by a fault that changes
 * the answer (prose around it, cut, refused, thinking before it, split in parts…), with usage and, when asked for,
 * the answer's logprobs.
 */
import type { ChatRequest } from "./chat-request";
import { imageUrlsOf, NO_LOGPROBS_MODEL } from "./chat-request";
import type { Fault } from "./stub-faults";
import { simulatedAnswer, simulatedLogprobJudge, stubContentLogprobs } from "./stub-logprobs";
import { makeContext, type StubRule } from "./stub-rule";
import { stubPromptTokens } from "./stub-video";

/**
 * The model an answer names: an alias ending in "-latest" answers as its dated snapshot (as OpenAI's `gpt-4o` answers
 * as `gpt-4o-2024-08-06`), so a run records both; any other name as asked.
 */
export const STUB_SNAPSHOT = "2026-11-01";
function reportedModelOf(model: string): string {
  return model.endsWith("-latest") ? `${model.slice(0, -"-latest".length)}-${STUB_SNAPSHOT}` : model;
}

/**
 * The chat completion the stub answers to a request (after any fault that answers without one). `seenMedia`: a request
 * with video parts (./stub-video.ts) gives the image URLs the rules see (image parts, then each JPEG frame) and its
 * prompt tokens by the stub's token rule; without it, the image parts and 255 tokens each.
 */
export function completionFor(
  body: ChatRequest,
  text: string,
  images: string[],
  fault: Fault | null,
  rule: StubRule,
  id: string,
  seen = 0,
  seenMedia?: { imageUrls: string[]; promptTokens: number },
) {
  const wantsJson = body.response_format?.type === "json_schema" || body.response_format?.type === "json_object";
  const imageUrls = seenMedia?.imageUrls ?? imageUrlsOf(body);
  let content: string | null = rule.respond(makeContext(text, images, wantsJson, body.model, seen, imageUrls));
  // A simulated uncertain judge answers each value it has a truth for with its belief's argmax (./stub-logprobs.ts).
  const simulated = simulatedLogprobJudge(body.model);
  if (simulated) content = simulatedAnswer(content, text, simulated);
  let finishReason = "stop";
  let refusal: string | null = null;
  if (fault?.kind === "content") content = fault.content;
  if (fault?.kind === "prose")
    content = `Sure! Here is my analysis of the frames.\n\n\`\`\`json\n${content}\n\`\`\`\n\nLet me know if you need anything else.`;
  if (fault?.kind === "truncated") {
    content = content.slice(0, Math.max(1, Math.floor(content.length / 2)));
    finishReason = "length";
  }
  if (fault?.kind === "refusal") {
    refusal = "I'm sorry, but I can't help with that request.";
    content = wantsJson ? null : refusal;
  }
  const answerText = content ?? refusal ?? "";
  let sentContent: string | { type: "text"; text: string }[] | null = content;
  if (fault?.kind === "think" && content !== null) {
    // The draft has other values than the answer: a step that parses the thinking stores wrong ones.
    const draft = content.replace(/\d+/g, (digits) => String((Number(digits) + 3) % 10));
    sentContent = fault.unterminated
      ? `<think>\nLet me draft it first.\n${draft}\nHmm, let me look at the frames again`
      : `<think>\nLet me draft it first.\n${draft}\nHmm, let me look at the frames again.\n</think>\n\n${content}`;
  }
  if (fault?.kind === "content_parts" && content !== null) {
    const half = Math.floor(content.length / 2);
    sentContent = [
      { type: "text", text: content.slice(0, half) },
      { type: "text", text: content.slice(half) },
    ];
  }
  if (fault?.kind === "null_content") sentContent = null;
  let reasoningContent: string | null = null;
  if (fault?.kind === "reasoning_field" && content !== null) {
    reasoningContent = `Let me draft it first.\n${content.replace(/\d+/g, (digits) => String((Number(digits) + 3) % 10))}\nHmm, let me look at the frames again.`;
  }
  if (fault?.kind === "max_tokens" && typeof sentContent === "string") {
    const allowed = body.max_tokens ?? body.max_completion_tokens ?? fault.tokens;
    if (Math.ceil(sentContent.length / 4) > allowed) {
      sentContent = sentContent.slice(0, allowed * 4);
      finishReason = "length";
    }
  }
  const promptTokens = seenMedia?.promptTokens ?? stubPromptTokens(text, images.length, []);
  const completionTokens = Math.ceil((typeof sentContent === "string" ? sentContent : answerText).length / 4);
  // Only the plain answer's tokens (./stub-logprobs.ts): a fault that reshapes the content leaves no logprobs, as the
  // answer's tokens are no longer those; a "…no-logprobs…" model never returns them.
  const logprobs =
    body.logprobs === true &&
    !NO_LOGPROBS_MODEL.test(body.model) &&
    typeof sentContent === "string" &&
    sentContent === content
      ? { content: stubContentLogprobs(sentContent, body.top_logprobs ?? 0, text, simulated) }
      : null;
  const completion = {
    id: `chatcmpl-${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: fault?.kind === "content" && fault.model !== undefined ? fault.model : reportedModelOf(body.model),
    system_fingerprint: "framejury-stub",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: sentContent,
          refusal,
          ...(reasoningContent === null ? {} : { reasoning_content: reasoningContent }),
        },
        logprobs,
        finish_reason: finishReason,
      },
    ],
    ...(fault?.kind === "no_usage"
      ? {}
      : {
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
          },
        }),
  };
  return completion;
}

/** A completion with a `x_stub_padding` field that brings its JSON to about `bytes` bytes; clients ignore the field. */
export function padded(completion: object, bytes: number | undefined): object {
  if (!bytes) return completion;
  const missing = bytes - JSON.stringify(completion).length - '"x_stub_padding":"",'.length;
  return missing > 0 ? { ...completion, x_stub_padding: "x".repeat(missing) } : completion;
}
