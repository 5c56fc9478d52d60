import OpenAI from "openai";
import { EndpointNotAllowedError } from "./endpoint-url-policy";
import { guardedFetch } from "./guarded-fetch";
import { errorBodyExcerpt, withoutServerDetails } from "./step-errors";

export interface ChatImage {
  /** A data: URL or an https URL. */
  url: string;
  detail: "low" | "high" | "auto";
}

export interface ChatRequest {
  model: string;
  /** The system message, sent first in the `system` role; none when null or absent. */
  system?: string | null;
  text: string;
  images: ChatImage[];
  temperature?: number | null;
  /** OpenAI `response_format` (json_schema); omitted for plain text. */
  responseFormat?: Record<string, unknown> | null;
  /** Earlier turns, for a repair request: the model's previous answer and our correction. */
  followUp?: { previousAnswer: string; correction: string } | null;
  maxTokens?: number | null;
}

export interface ChatResult {
  text: string | null;
  refusal: string | null;
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
}

export type LlmErrorKind = "rate_limited" | "server" | "timeout" | "network" | "client" | "bad_response" | "cancelled" | "not_allowed";

/**
 * One failed attempt. `retryable` failures are retried with backoff; the rest fail the step.
 * `message` is written by this app and shown to every member; `excerpt` is at most 200 sanitised
 * characters of what the endpoint answered, kept for owners only.
 */
export class LlmError extends Error {
  override readonly name = "LlmError";
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
    readonly excerpt: string | null = null,
  ) {
    super(message);
  }
  get retryable(): boolean {
    return this.kind === "rate_limited" || this.kind === "server" || this.kind === "timeout" || this.kind === "network" || this.kind === "bad_response";
  }
}

/** The judge engine's view of an LLM: one attempt per call; retries live in callWithRetries. */
export interface LlmClient {
  complete(request: ChatRequest, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ChatResult>;
}

/**
 * A client for an OpenAI-compatible endpoint. Requests go through guardedFetch (the SSRF policy at
 * connect time, no redirects) unless a test passes its own `fetch`.
 */
export function openAiCompatibleClient(options: { baseURL: string; apiKey: string | null; fetch?: typeof fetch }): LlmClient {
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? "not-needed", maxRetries: 0, fetch: options.fetch ?? guardedFetch() });
  return {
    async complete(request, { timeoutMs, signal }) {
      try {
        const response = await client.chat.completions.create(chatCompletionBody(request), { timeout: timeoutMs, signal });
        return chatResultOf(response);
      } catch (error) {
        throw toLlmError(error, signal, [options.apiKey]);
      }
    },
  };
}

/**
 * The chat-completions request body for a request: what the client sends, and what a Batch API line
 * carries as its `body` (lib/judge/batch), so both ask exactly the same.
 */
export function chatCompletionBody(request: ChatRequest): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  const content: OpenAI.Chat.ChatCompletionContentPart[] = [
    { type: "text", text: request.text },
    ...request.images.map((image) => ({ type: "image_url" as const, image_url: { url: image.url, detail: image.detail } })),
  ];
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [...(request.system ? [{ role: "system" as const, content: request.system }] : []), { role: "user", content }];
  if (request.followUp) {
    messages.push({ role: "assistant", content: request.followUp.previousAnswer });
    messages.push({ role: "user", content: request.followUp.correction });
  }
  return {
    model: request.model,
    messages,
    ...(request.temperature === null || request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.responseFormat ? { response_format: request.responseFormat as never } : {}),
    ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
  };
}

/** A chat completion as the engine reads it (from a live call or a Batch API output line). */
export function chatResultOf(response: { choices?: { message?: { content?: string | null } | null; finish_reason?: string | null }[] | null; usage?: { prompt_tokens?: number; completion_tokens?: number } | null }): ChatResult {
  const choice = response.choices?.[0];
  if (!choice) throw new LlmError("bad_response", "The endpoint answered without any choice.");
  return {
    text: choice.message?.content ?? null,
    refusal: (choice.message as { refusal?: string | null } | undefined)?.refusal ?? null,
    finishReason: choice.finish_reason ?? null,
    promptTokens: response.usage?.prompt_tokens ?? 0,
    completionTokens: response.usage?.completion_tokens ?? 0,
  };
}

export function toLlmError(error: unknown, signal?: AbortSignal, secrets: (string | null)[] = []): LlmError {
  if (error instanceof LlmError) return error;
  if (signal?.aborted) return new LlmError("cancelled", "Cancelled.");
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmError("timeout", "The endpoint did not answer in time.");
  if (error instanceof OpenAI.APIUserAbortError) return new LlmError("cancelled", "Cancelled.");
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof EndpointNotAllowedError) return new LlmError("not_allowed", cause.message);
    const code = (cause as { code?: unknown } | undefined)?.code;
    return new LlmError("network", `Could not reach the endpoint${typeof code === "string" && /^[A-Z_]+$/.test(code) ? ` (${code})` : ""}.`, null, null, errorBodyExcerpt(cause instanceof Error ? cause.message : null, secrets));
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? null;
    const retryAfter = retryAfterMsOf(error.headers);
    // The SDK's message is "<status> <body or its error.message>": only an excerpt of it is kept.
    const excerpt = /status code \(no body\)$/.test(error.message) ? null : errorBodyExcerpt(error.message.replace(/^\d{3}\s+/, ""), secrets);
    if (status === 429) return new LlmError("rate_limited", "Rate limited (429).", status, retryAfter, excerpt);
    if (status !== null && status >= 500) return new LlmError("server", `Endpoint error (${status}).`, status, retryAfter, excerpt);
    if (status === 408) return new LlmError("timeout", "Request timeout (408).", status, null, excerpt);
    if (status !== null && status >= 300 && status < 400) {
      return new LlmError("client", `The endpoint answered with a redirect (${status}); redirects are not followed, so the API key never goes to another address. Use the final URL as the base URL.`, status, null, excerpt);
    }
    return new LlmError("client", `The endpoint refused the request (${status ?? "?"}).`, status, null, excerpt);
  }
  // The SDK throws SyntaxError-like errors for bodies that are not JSON; their message quotes the body.
  const name = error instanceof Error ? error.name : "Error";
  return new LlmError("bad_response", `Unreadable answer from the endpoint (${name}).`, null, null, errorBodyExcerpt(error instanceof Error ? error.message : String(error), secrets));
}

/**
 * How long an answer asks us to wait, in milliseconds: `retry-after-ms` (OpenAI's and Azure's, more
 * precise) when present, else `retry-after`.
 */
export function retryAfterMsOf(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | null {
  const ms = Number(headers?.get?.("retry-after-ms")?.trim() || Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers?.get?.("retry-after") ?? null, now);
}

/** `retry-after` in seconds or as an HTTP date, in milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 60_000 };

/**
 * Calls `attempt` until it succeeds, a non-retryable error occurs, or attempts run out. Waits with
 * exponential backoff and full jitter between attempts, and at least as long as `retry-after` says.
 */
export async function callWithRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: { policy?: RetryPolicy; sleep?: (ms: number) => Promise<void>; random?: () => number; onRetry?: (error: LlmError, delayMs: number) => void; signal?: AbortSignal },
): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      // Anything else is kept as the cause, for the server log; its message may carry server details.
      const llmError =
        error instanceof LlmError
          ? error
          : Object.assign(new LlmError("bad_response", `Unreadable answer from the endpoint (${withoutServerDetails(error instanceof Error ? error.name : "Error", 60)}).`), { cause: error });
      if (!llmError.retryable || n >= policy.maxAttempts || options.signal?.aborted) throw llmError;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1)) * random();
      const delay = Math.max(backoff, llmError.retryAfterMs ?? 0);
      options.onRetry?.(llmError, delay);
      await sleep(delay);
    }
  }
}
