import { randomUUID } from "node:crypto";
import OpenAI, { AzureOpenAI } from "openai";
import { EndpointNotAllowedError } from "../endpoints/endpoint-url-policy";
import { contentText, splitReasoning } from "./answer-content";
import { guardedFetch, piecesBody } from "./guarded-fetch";
import { errorBodyExcerpt, withoutServerDetails } from "./step-errors";

export interface ChatImage {
  /** A data: URL or an https URL. */
  url: string;
  /** Null: the `detail` field is left out (servers that reject or ignore it: Gemini, Ollama). */
  detail: "low" | "high" | "auto" | null;
}

/**
 * One video part (`video_url`, the `video-frames` and `video-file` input modes; lib/judge/media/video-parts.ts builds it):
 * a `data:video/jpeg;base64,` list of frames, a `data:video/mp4;base64,` clip or an https URL of the clip, with what
 * vLLM's video loader is told about it (`media_io_kwargs.video`: the frames' timing, or the sampling asked).
 */
export interface ChatVideo {
  url: string;
  /** vLLM's per-request `media_io_kwargs.video` (empty: the field is left out). */
  mediaIo: Readonly<Record<string, number | readonly number[]>>;
  /**
   * The same part with a new URL, for a URL good for one fetch (the app's signed clip URL): each attempt of a call
   * sends its own, since the endpoint may have fetched the first before the attempt failed. Never sent itself.
   */
  renew?: () => ChatVideo;
}

/**
 * A video part with the text part that names it before it (a pairwise question's "Video A:" and "Video B:"), so a
 * model told of two videos knows which is which.
 */
export interface CaptionedVideo {
  caption: string;
  video: ChatVideo;
}

/** One earlier message of a conversation a template writes out (see ChatRequest.turns). */
export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  model: string;
  /** The system message, sent first in the `system` role; none when null or absent. */
  system?: string | null;
  text: string;
  images: ChatImage[];
  /** The judged video as one video part, sent before any images (which are then a template's few-shot examples). */
  video?: ChatVideo | null;
  /**
   * Two or more judged videos, each after its caption, sent where `video` goes (never with it). vLLM applies a
   * request's `media_io_kwargs` to every video in it, so they must all ask the same (their sampling).
   */
  videos?: readonly CaptionedVideo[] | null;
  temperature?: number | null;
  /** OpenAI `response_format` (json_schema); omitted for plain text. */
  responseFormat?: Record<string, unknown> | null;
  /** Earlier turns, for a repair request: the model's previous answer and our correction. */
  followUp?: { previousAnswer: string; correction: string } | null;
  /**
   * A conversation the prompt is asked after (a template's `turns`: a system prompt and few-shot examples written as
   * the user's and the assistant's messages, as VBench-2.0's text judges send them); after `system`, before `text`.
   */
  turns?: readonly ChatTurn[] | null;
  /** The images go before the text in the user's message (a template's `image-position: before`: LLaVA's `<image>` first). */
  imagesFirst?: boolean;
  maxTokens?: number | null;
  /**
   * Ask for the answer tokens' logprobs with this many alternatives each (`logprobs: true, top_logprobs: k`,
   * k within 1–20): the judge for expected scores, and the endpoint probe's check; none when null or absent.
   */
  topLogprobs?: number | null;
}

/** One answer token with its logprob and the most likely alternatives at its place (OpenAI's `logprobs.content`). */
export interface TokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

export interface ChatResult {
  /** The answer, without any reasoning the model put before it (`<think>…</think>`). */
  text: string | null;
  refusal: string | null;
  finishReason: string | null;
  /** 0 when `usageKnown` is false. */
  promptTokens: number;
  completionTokens: number;
  /** False when the answer carried no `usage`: its tokens and cost are unknown, not 0. Absent (older stored results): true. */
  usageKnown?: boolean;
  /** The model's reasoning, kept apart from the answer and never parsed: `<think>…</think>`, or `reasoning_content`. */
  reasoning?: string | null;
  /**
   * The answer's content logprobs when they were asked for and came back; null or absent: none. Whether any
   * token carries alternatives is what the endpoint probe stores as the `topLogprobs` capability.
   */
  logprobs?: TokenLogprob[] | null;
  /** The model the answer named (`model`: a dated snapshot behind an alias); null or absent: it named none. */
  reportedModel?: string | null;
}

export type LlmErrorKind =
  "rate_limited" | "server" | "timeout" | "network" | "client" | "bad_response" | "cancelled" | "not_allowed";

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
    return (
      this.kind === "rate_limited" ||
      this.kind === "server" ||
      this.kind === "timeout" ||
      this.kind === "network" ||
      this.kind === "bad_response"
    );
  }
}

/**
 * The judge engine's view of an LLM: one attempt per call; the engine's recovery loop decides whether a failed
 * attempt is sent again (engine/recovery.ts nextMove).
 */
export interface LlmClient {
  complete(request: ChatRequest, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ChatResult>;
}

/**
 * A client for an OpenAI-compatible endpoint. Requests go through guardedFetch (the SSRF policy at
 * connect time, no redirects): its own, or one shared by a process's clients (`guardedSend`, a worker's), unless a
 * test passes its own `fetch`.
 */
export function openAiCompatibleClient(options: {
  baseURL: string;
  apiKey: string | null;
  /** A test's fetch, which gets plain bodies. */
  fetch?: typeof fetch;
  /** The guardedFetch to send through instead of a client's own (one a worker shares among its clients). */
  guardedSend?: typeof fetch;
  apiVersion?: string | null;
}): LlmClient {
  const common = {
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? "not-needed",
    maxRetries: 0,
    fetch: keepingErrorBodies(options.fetch ?? options.guardedSend ?? guardedFetch()),
    defaultHeaders: attributionHeaders(options.baseURL),
  };
  // Azure OpenAI: `api-version` on every request, the key in `api-key`, the model (its deployment) in the path
  // unless the base URL already names a deployment.
  const client = options.apiVersion
    ? new AzureOpenAI({ ...common, apiVersion: options.apiVersion })
    : new OpenAI(common);
  return {
    async complete(request, { timeoutMs, signal }) {
      const seen: ErrorBodySeen = { body: null };
      const callKey = randomUUID();
      errorBodies.set(callKey, seen);
      const callSignal = signalOfOneCall(signal);
      try {
        // The body goes as the pieces of JSON this module wrote (chatCompletionPieces), not as an object for the SDK to
        // stringify: the same bytes, without encoding a call's frames again for every call, streamed with their length
        // (guardedFetch writes them as they are). `__metadata.model` names Azure's deployment.
        const pieces = chatCompletionPieces(request);
        const length = pieces.reduce((total, piece) => total + piece.length, 0);
        const response = await client.post<OpenAI.Chat.ChatCompletion>("/chat/completions", {
          body: options.fetch ? pieces.values() : piecesBody(pieces),
          headers: { "content-type": "application/json", "content-length": String(length), [CALL_KEY_HEADER]: callKey },
          timeout: timeoutMs,
          signal: callSignal.signal,
          __metadata: { model: request.model },
        });
        return chatResultOf(response);
      } catch (error) {
        throw toLlmError(error, signal, [options.apiKey], seen.body);
      } finally {
        callSignal.release();
        errorBodies.delete(callKey);
      }
    },
  };
}

/**
 * A signal for one call that follows the caller's, and lets go of it when the call ends. The SDK adds an abort listener
 * to the signal it is given and never removes it, so a signal shared by many calls (a judge job's, an alignment's)
 * would gather one per call (Node's MaxListenersExceededWarning past ten); it gets this call's own signal instead.
 */
export function signalOfOneCall(caller: AbortSignal | undefined): { signal: AbortSignal | undefined; release(): void } {
  if (!caller) return { signal: undefined, release: () => {} };
  const controller = new AbortController();
  const abort = () => controller.abort(caller.reason);
  if (caller.aborted) abort();
  else caller.addEventListener("abort", abort, { once: true });
  return { signal: controller.signal, release: () => caller.removeEventListener("abort", abort) };
}

/** The client for an endpoint's settings: the judge's, the Test's and the probe's. */
export function clientForEndpoint(
  endpoint: { baseUrl: string; apiKey: string | null; apiVersion?: string | null },
  guardedSend?: typeof fetch,
): LlmClient {
  return openAiCompatibleClient({
    baseURL: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    apiVersion: endpoint.apiVersion ?? null,
    guardedSend,
  });
}

/**
 * OpenRouter's app attribution headers (openrouter.ai/docs/app-attribution): the app's name, and its address
 * when APP_URL is set. Sent to openrouter.ai only, so no other provider learns the app's address.
 */
export function attributionHeaders(
  baseURL: string,
  appUrl = process.env.APP_URL ?? null,
): Record<string, string> | undefined {
  let host: string;
  try {
    host = new URL(baseURL).hostname;
  } catch {
    return undefined;
  }
  if (host !== "openrouter.ai" && !host.endsWith(".openrouter.ai")) return undefined;
  // X-OpenRouter-Title is the current name; X-Title is still read (the docs say, for backwards compatibility).
  return { "X-OpenRouter-Title": "FrameJury", "X-Title": "FrameJury", ...(appUrl ? { "HTTP-Referer": appUrl } : {}) };
}

interface ErrorBodySeen {
  body: string | null;
}
/**
 * Where an error answer's body goes, by the key of the call that got it. The key travels as a request header that
 * keepingErrorBodies takes off before the request goes out. (An AsyncLocalStorage did this before: using one turns
 * on Node 20's promise hooks for every promise of the process, about 4% of a busy worker's CPU.)
 */
const errorBodies = new Map<string, ErrorBodySeen>();
const CALL_KEY_HEADER = "x-framejury-call-key";
const MAX_ERROR_BODY_CHARS = 4000;

/**
 * The SDK keeps only the `error` field of an error answer's JSON body: vLLM's
 * `{"object":"error","message":…}` and FastAPI's `{"detail":…}` come out as "400 status code (no body)".
 * This fetch keeps the raw body of an error answer (its start) for the call that got it.
 */
function keepingErrorBodies(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const seen = errorBodies.get(headers.get(CALL_KEY_HEADER) ?? "");
    headers.delete(CALL_KEY_HEADER);
    const response = await inner(input, { ...init, headers });
    if (response.ok || !seen || response.status < 400) return response;
    const body = await response.text().catch(() => "");
    seen.body = body.slice(0, MAX_ERROR_BODY_CHARS);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * The provider's own message in an error body: OpenAI's `error.message`, vLLM's top-level `message`,
 * FastAPI's `detail` (a string, or a list of `{msg}`), or a bare string.
 */
export function providerErrorMessage(body: string | null | undefined): string | null {
  if (!body?.trim()) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.trim();
  }
  const textOf = (value: unknown): string | null => {
    if (typeof value === "string") return value.trim() || null;
    if (Array.isArray(value)) {
      // FastAPI's `detail: [{msg}]`; Gemini's OpenAI-compatible endpoint wraps its error in a list: `[{"error": {"message": …}}]`.
      const parts = value
        .map((v) =>
          typeof v === "string" ? v : isRecord(v) ? (typeof v.msg === "string" ? v.msg : textOf(v.error)) : null,
        )
        .filter((v): v is string => !!v);
      return parts.length ? parts.join("; ") : null;
    }
    if (isRecord(value)) return textOf(value.message) ?? textOf(value.msg) ?? textOf(value.detail);
    return null;
  };
  if (!isRecord(parsed)) return textOf(parsed);
  return textOf(parsed.error) ?? textOf(parsed.message) ?? textOf(parsed.detail) ?? null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What to change on the server for errors that a server setting causes, in vLLM's words: the image limit
 * per request (`--limit-mm-per-prompt`) and the context length (`--max-model-len`).
 */
export function serverSettingHint(message: string | null): string | null {
  if (!message) return null;
  const images = /at most (\d+) image\(?s?\)? may be provided/i.exec(message);
  if (images) {
    return `The server accepts at most ${images[1]} image(s) per request; start vLLM with --limit-mm-per-prompt '{"image": K}' (K at least the frames a step sends), or choose fewer frames.`;
  }
  if (/maximum context length|max_model_len|context length|too many tokens|exceeds the model's max/i.test(message)) {
    return "The request is longer than the server's context length; start vLLM with a larger --max-model-len (within what the model supports), or send fewer or smaller frames.";
  }
  return null;
}

function imagePart(image: ChatImage): OpenAI.Chat.ChatCompletionContentPartImage {
  return {
    type: "image_url",
    image_url: image.detail === null ? { url: image.url } : { url: image.url, detail: image.detail },
  };
}

/** A video part as vLLM's chat parser reads it (`{"type": "video_url", "video_url": {"url": …}}`); OpenRouter takes the same. */
function videoPart(video: ChatVideo): OpenAI.Chat.ChatCompletionContentPart {
  return { type: "video_url", video_url: { url: video.url } } as unknown as OpenAI.Chat.ChatCompletionContentPart;
}

/** The request's video parts as they go, in order: the video, or each captioned video after its caption. */
function videoParts(request: ChatRequest): (ChatVideo | string)[] {
  if (request.video) return [request.video];
  return (request.videos ?? []).flatMap(({ caption, video }) => [caption, video]);
}

/**
 * The request's `media_io_kwargs` (vLLM reads them per request, keyed by modality, for every video in it); none
 * without a video's. Videos of one request that ask for different ones are a mistake of the request's builder.
 */
function mediaIoKwargs(request: ChatRequest): { media_io_kwargs: { video: ChatVideo["mediaIo"] } } | object {
  const videos = videoParts(request).filter((part): part is ChatVideo => typeof part !== "string");
  const kwargs = videos[0]?.mediaIo;
  if (kwargs && videos.some((video) => JSON.stringify(video.mediaIo) !== JSON.stringify(kwargs)))
    throw new Error("The video parts of one request must share their media_io_kwargs.");
  return kwargs && Object.keys(kwargs).length ? { media_io_kwargs: { video: kwargs } } : {};
}

const captionPart = (caption: string): OpenAI.Chat.ChatCompletionContentPart => ({ type: "text", text: caption });

/**
 * The chat-completions request body for a request: what the client sends, and what a Batch API line
 * carries as its `body` (lib/judge/batch), so both ask exactly the same.
 */
export function chatCompletionBody(request: ChatRequest): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  const text: OpenAI.Chat.ChatCompletionContentPart = { type: "text", text: request.text };
  const images = [
    ...videoParts(request).map((part) => (typeof part === "string" ? captionPart(part) : videoPart(part))),
    ...request.images.map(imagePart),
  ];
  const content: OpenAI.Chat.ChatCompletionContentPart[] = request.imagesFirst ? [...images, text] : [text, ...images];
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    ...(request.system ? [{ role: "system" as const, content: request.system }] : []),
    ...(request.turns ?? []).map(
      (turn) => ({ role: turn.role, content: turn.content }) as OpenAI.Chat.ChatCompletionMessageParam,
    ),
    { role: "user", content },
  ];
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
    ...(request.topLogprobs
      ? { logprobs: true, top_logprobs: Math.min(20, Math.max(1, Math.round(request.topLogprobs))) }
      : {}),
    ...mediaIoKwargs(request),
  };
}

const COMMA = Buffer.from(",", "utf8");

/** Each image's part of a request body, encoded once per image object (the engine passes a video's frames as the same objects to all its calls). */
const encodedImageParts = new WeakMap<ChatImage, Buffer>();

function imagePartBytes(image: ChatImage): Buffer {
  let bytes = encodedImageParts.get(image);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(imagePart(image)), "utf8");
    encodedImageParts.set(image, bytes);
  }
  return bytes;
}

/** A video part's bytes, encoded once per video object (measuring a body's size and sending it encode it once). */
const encodedVideoParts = new WeakMap<ChatVideo, Buffer>();

function videoPartBytes(video: ChatVideo): Buffer {
  let bytes = encodedVideoParts.get(video);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(videoPart(video)), "utf8");
    encodedVideoParts.set(video, bytes);
  }
  return bytes;
}

/**
 * `JSON.stringify(chatCompletionBody(request))` in pieces whose bytes, joined, are that JSON byte for byte. A
 * call's images are not stringified and encoded again for every call: with VBench-2.0's 64 frames a call, a body
 * is some 250 KB, and encoding it anew cost the worker about 3 ms of CPU a call (docs/benchmarks.md).
 */
export function chatCompletionPieces(request: ChatRequest): Buffer[] {
  const { model, messages, ...rest } = chatCompletionBody({ ...request, images: [], video: null, videos: null });
  const userAt = (request.system ? 1 : 0) + (request.turns?.length ?? 0);
  const [textPart] = messages[userAt]!.content as OpenAI.Chat.ChatCompletionContentPart[];
  const images = [
    ...videoParts(request).map((part) =>
      typeof part === "string" ? Buffer.from(JSON.stringify(captionPart(part)), "utf8") : videoPartBytes(part),
    ),
    ...request.images.map(imagePartBytes),
  ];
  // The video's kwargs close the body, where chatCompletionBody puts them.
  const restJson = JSON.stringify({ ...rest, ...mediaIoKwargs(request) });
  const text = Buffer.from(JSON.stringify(textPart), "utf8");
  const content = request.imagesFirst ? [...images, text] : [text, ...images];
  const pieces: Buffer[] = [];
  const write = (json: string) => pieces.push(Buffer.from(json, "utf8"));
  write(`{"model":${JSON.stringify(model)},"messages":[`);
  for (const before of messages.slice(0, userAt)) write(`${JSON.stringify(before)},`);
  write(`{"role":"user","content":[`);
  content.forEach((part, i) => (i ? pieces.push(COMMA, part) : pieces.push(part)));
  write("]}");
  for (const after of messages.slice(userAt + 1)) write(`,${JSON.stringify(after)}`);
  write(`]${restJson === "{}" ? "" : `,${restJson.slice(1, -1)}`}}`);
  return pieces;
}

/**
 * A chat completion as the engine reads it (from a live call or a Batch API output line). `content` may be
 * a string, an array of parts (its text parts are joined) or null; reasoning before the answer is taken
 * out (see splitReasoning). An answer without `usage` has unknown tokens (`usageKnown: false`), never 0.
 */
export function chatResultOf(response: {
  choices?:
    | {
        message?: {
          content?: unknown;
          refusal?: string | null;
          reasoning_content?: unknown;
          reasoning?: unknown;
        } | null;
        finish_reason?: string | null;
        logprobs?: unknown;
        error?: unknown;
      }[]
    | null;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
  model?: unknown;
  error?: unknown;
}): ChatResult {
  // OpenRouter reports an upstream failure inside a 200: `{"error": {"code": 502, "message": …}}`, at the top or on the choice.
  const inside = errorInsideAnswer(response.error) ?? errorInsideAnswer(response.choices?.[0]?.error);
  if (inside) throw inside;
  const choice = response.choices?.[0];
  if (!choice)
    throw new LlmError("bad_response", "The endpoint answered without any choice (an empty `choices` list).");
  const message = choice.message ?? null;
  const content = storableText(contentText(message?.content));
  const split = content === null ? { answer: null, reasoning: null } : splitReasoning(content);
  const separate =
    storableText(contentText(message?.reasoning_content)) ?? storableText(contentText(message?.reasoning));
  const reasoning = [separate, split.reasoning].filter((part): part is string => !!part?.trim()).join("\n\n") || null;
  const promptTokens = response.usage?.prompt_tokens;
  const completionTokens = response.usage?.completion_tokens;
  const usageKnown = isTokenCount(promptTokens) && isTokenCount(completionTokens);
  return {
    text: split.answer,
    refusal: storableText(message?.refusal),
    finishReason: storableText(choice.finish_reason),
    promptTokens: usageKnown ? promptTokens : 0,
    completionTokens: usageKnown ? completionTokens : 0,
    usageKnown,
    reasoning,
    logprobs: contentLogprobs(choice.logprobs),
    reportedModel: reportedModelOf(response.model),
  };
}

/** The answer's `model`, when it is a plain name (at most 200 characters); anything else is not kept. */
function reportedModelOf(model: unknown): string | null {
  const name = storableText(model)?.trim();
  return name && name.length <= 200 ? name : null;
}

/** The most tokens a call row holds (a PostgreSQL integer). */
const MAX_TOKEN_COUNT = 2_147_483_647;

/**
 * A token count the call row can hold: a whole number from 0 to MAX_TOKEN_COUNT. Anything else (a fraction, a
 * negative or an absurd count) would fail every write of the step, so the answer's usage is taken as unknown.
 */
function isTokenCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_TOKEN_COUNT;
}

const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A string from an answer as the database can hold it: PostgreSQL's text and jsonb refuse NUL (and jsonb a lone
 * surrogate), and one such character would fail every write of the step that carries it. NULs are dropped, a lone
 * surrogate becomes U+FFFD; anything but a string is null. Every text taken from an answer passes here.
 */
export function storableText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  return value.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * An error a provider put in a 200 answer's body, as the status it names would be: a 429 or 5xx code is retried,
 * anything else fails the call with the provider's words (sanitised).
 */
function errorInsideAnswer(error: unknown): LlmError | null {
  if (error === undefined || error === null) return null;
  const message = errorBodyExcerpt(providerErrorMessage(JSON.stringify({ error }))) ?? "no message";
  const code = isRecord(error) ? Number(error.code) : Number.NaN;
  const status = Number.isInteger(code) && code >= 400 && code <= 599 ? code : null;
  const said = `The endpoint said: "${message}"`;
  if (status === 429)
    return new LlmError(
      "rate_limited",
      `Rate limited (429, reported inside a 200 answer). ${said}`,
      status,
      null,
      message,
    );
  if (status === null || status >= 500)
    return new LlmError(
      "server",
      `Endpoint error (${status ?? "no code"}, reported inside a 200 answer). ${said}`,
      status,
      null,
      message,
    );
  return new LlmError(
    "client",
    `The endpoint refused the request (${status}, reported inside a 200 answer). ${said}`,
    status,
    null,
    message,
  );
}

/** `choice.logprobs.content` as tokens with their alternatives; null when the answer carried none (or an unreadable shape). */
export function contentLogprobs(logprobs: unknown): TokenLogprob[] | null {
  const content = isRecord(logprobs) ? logprobs.content : null;
  if (!Array.isArray(content) || content.length === 0) return null;
  const tokens: TokenLogprob[] = [];
  for (const entry of content) {
    if (!isRecord(entry) || typeof entry.token !== "string" || typeof entry.logprob !== "number") return null;
    const top = Array.isArray(entry.top_logprobs)
      ? entry.top_logprobs.flatMap((alt) =>
          isRecord(alt) && typeof alt.token === "string" && typeof alt.logprob === "number"
            ? [{ token: storableText(alt.token)!, logprob: alt.logprob }]
            : [],
        )
      : [];
    tokens.push({ token: storableText(entry.token)!, logprob: entry.logprob, top });
  }
  return tokens;
}

export function toLlmError(
  error: unknown,
  signal?: AbortSignal,
  secrets: (string | null)[] = [],
  rawBody: string | null = null,
): LlmError {
  if (error instanceof LlmError) return error;
  if (signal?.aborted) return new LlmError("cancelled", "Cancelled.");
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new LlmError("timeout", "The endpoint did not answer in time.");
  if (error instanceof OpenAI.APIUserAbortError) return new LlmError("cancelled", "Cancelled.");
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof EndpointNotAllowedError) return new LlmError("not_allowed", cause.message);
    const code = (cause as { code?: unknown } | undefined)?.code;
    return new LlmError(
      "network",
      `Could not reach the endpoint${typeof code === "string" && /^[A-Z_]+$/.test(code) ? ` (${code})` : ""}.`,
      null,
      null,
      errorBodyExcerpt(cause instanceof Error ? cause.message : null, secrets),
    );
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? null;
    const retryAfter = retryAfterMsOf(error.headers);
    // The provider's own message, from the raw body (the SDK's message has only `error.message`, or
    // "status code (no body)" for vLLM's and FastAPI's shapes); only a sanitised excerpt of it is kept.
    const sdkMessage = /status code \(no body\)$/.test(error.message) ? null : error.message.replace(/^\d{3}\s+/, "");
    const providerMessage = errorBodyExcerpt(providerErrorMessage(rawBody) ?? sdkMessage, secrets);
    const excerpt = providerMessage ?? errorBodyExcerpt(rawBody, secrets);
    // Members see the provider's words too (sanitised, as the excerpt): they say what to change.
    const said = providerMessage ? ` The endpoint said: "${providerMessage}"` : "";
    const hint = serverSettingHint(providerMessage);
    if (status === 429) return new LlmError("rate_limited", "Rate limited (429).", status, retryAfter, excerpt);
    if (status !== null && status >= 500)
      return new LlmError("server", `Endpoint error (${status}).`, status, retryAfter, excerpt);
    if (status === 408) return new LlmError("timeout", "Request timeout (408).", status, null, excerpt);
    if (status !== null && status >= 300 && status < 400) {
      return new LlmError(
        "client",
        `The endpoint answered with a redirect (${status}); redirects are not followed, so the API key never goes to another address. Use the final URL as the base URL.`,
        status,
        null,
        excerpt,
      );
    }
    return new LlmError(
      "client",
      `The endpoint refused the request (${status ?? "?"}).${said}${hint ? ` ${hint}` : ""}`,
      status,
      null,
      excerpt,
    );
  }
  // The SDK throws SyntaxError-like errors for bodies that are not JSON; their message quotes the body.
  const name = error instanceof Error ? error.name : "Error";
  return new LlmError(
    "bad_response",
    `Unreadable answer from the endpoint (${name}).`,
    null,
    null,
    errorBodyExcerpt(error instanceof Error ? error.message : String(error), secrets),
  );
}

/**
 * How long an answer asks us to wait, in milliseconds: `retry-after-ms` (OpenAI's and Azure's, more
 * precise) when present, else `retry-after`.
 */
export function retryAfterMsOf(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | null {
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

/** How failed attempts are sent again; the decision itself is the recovery loop's (engine/recovery.ts nextMove). */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** A failed attempt's error as an LlmError: anything else is an unreadable answer, kept as the cause for the server log. */
export function attemptError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  // Its message may carry server details: only its class goes in ours.
  return Object.assign(
    new LlmError(
      "bad_response",
      `Unreadable answer from the endpoint (${withoutServerDetails(error instanceof Error ? error.name : "Error", 60)}).`,
    ),
    { cause: error },
  );
}
