/**
 * TEST TOOL. The faults the stub LLM injects on request: queued through its control route (`POST /__stub/faults`,
 * optionally only for prompts containing a text, for a number of requests) or sent with one request in an
 * `x-stub-fault` header (a kind, or the fault as JSON).
 */
import { z } from "zod";

export const faultSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("latency"), ms: z.number().int().min(0).max(600_000) }),
  z.object({
    kind: z.literal("status"),
    status: z.number().int().min(400).max(599),
    /** Seconds, sent as `retry-after`. */
    retryAfter: z.number().min(0).optional(),
    /** Milliseconds, sent as `retry-after-ms` (as OpenAI's API does). */
    retryAfterMs: z.number().min(0).optional(),
    message: z.string().optional(),
  }),
  z.object({ kind: z.literal("hang") }),
  z.object({ kind: z.literal("malformed") }),
  z.object({ kind: z.literal("truncated") }),
  z.object({ kind: z.literal("prose") }),
  z.object({ kind: z.literal("refusal") }),
  z.object({ kind: z.literal("disconnect") }),
  /** The answer's content as given; with `model`, the answer names that model instead of the one asked for. */
  z.object({ kind: z.literal("content"), content: z.string(), model: z.string().optional() }),
  // Shapes real OpenAI-compatible servers answer in:
  /** A reasoning model without a reasoning parser: `<think>` with a draft of the answer (other values) before the answer. */
  z.object({ kind: z.literal("think"), unterminated: z.boolean().optional() }),
  /** `content` as an array of text parts (the answer split in two). */
  z.object({ kind: z.literal("content_parts") }),
  /** `content: null` without a refusal. */
  z.object({ kind: z.literal("null_content") }),
  /** An answer without `usage`. */
  z.object({ kind: z.literal("no_usage") }),
  /** vLLM started with `--limit-mm-per-prompt '{"image": limit}'`: a request with more images gets vLLM's 400 (`message` at the top level). */
  z.object({ kind: z.literal("image_limit"), limit: z.number().int().min(0) }),
  /** vLLM's error shape, `{"object":"error","message":…}`, with any status and message (say, a context-length error). */
  z.object({ kind: z.literal("vllm_error"), status: z.number().int().min(400).max(599), message: z.string() }),
  /** A reasoning parser's answer (vLLM `--reasoning-parser`, DeepSeek's API): the thinking, with a draft of the answer, in `reasoning_content`. */
  z.object({ kind: z.literal("reasoning_field") }),
  /** `choices: []` (a prompt filtered before any answer, as Azure does). */
  z.object({ kind: z.literal("empty_choices") }),
  /**
   * A server's answer-length limit: an answer longer than the request's `max_tokens` (or `tokens` when the request
   * sets none) is cut there, with `finish_reason: "length"`.
   */
  z.object({ kind: z.literal("max_tokens"), tokens: z.number().int().min(1) }),
  /**
   * Other servers' error shapes: Gemini's OpenAI-compatible endpoint (Google's `{"error": {code, message, status}}` in a
   * list), Ollama's (`{"error": "…"}`), and OpenRouter's error inside a 200 answer (`{"error": {code, message}}`).
   */
  z.object({
    kind: z.literal("provider_error"),
    provider: z.enum(["gemini", "ollama", "openrouter"]),
    status: z.number().int().min(400).max(599),
    message: z.string(),
  }),
  /** A server that rejects the unknown `detail` field of an image (Gemini's error shape): FrameJury's "omit detail" endpoint option. */
  z.object({ kind: z.literal("rejects_detail") }),
]);
export type Fault = z.infer<typeof faultSchema>;

export const queuedFaultSchema = z.object({
  fault: faultSchema,
  /** Only requests whose prompt text contains this substring. */
  match: z.string().optional(),
  /** How many matching requests get the fault (default 1). */
  times: z.number().int().min(1).max(1_000_000).default(1),
});
export type QueuedFault = z.infer<typeof queuedFaultSchema>;

/** The first queued fault whose `match` the prompt contains, counted down (and dropped when used up); null when none applies. */
export function takeFault(faults: QueuedFault[], text: string): Fault | null {
  const index = faults.findIndex((queued) => !queued.match || text.includes(queued.match));
  if (index < 0) return null;
  const queued = faults[index]!;
  queued.times -= 1;
  if (queued.times <= 0) faults.splice(index, 1);
  return queued.fault;
}

/** The fault an `x-stub-fault` header asks for (a kind, or the whole fault as JSON); null when absent or invalid. */
export function parseHeaderFault(value: string | string[] | undefined): Fault | null {
  if (typeof value !== "string" || !value) return null;
  try {
    return faultSchema.parse(value.trim().startsWith("{") ? JSON.parse(value) : { kind: value.trim() });
  } catch {
    return null;
  }
}
