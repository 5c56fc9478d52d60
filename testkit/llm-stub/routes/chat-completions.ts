/**
 * TEST TOOL. The stub LLM's chat completions (`POST /v1/chat/completions`, and Azure OpenAI's deployment path): the
 * request is read and recorded, waits out the latency, meets any fault or simulated server limit that answers without
 * a completion, and otherwise gets the matching rule's completion (./completion.ts), as JSON or as a stream.
 */
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { parseChatBody, type ParsedChatBody } from "../chat-body";
import {
  chatRequestSchema,
  CONTEXT_MODEL,
  IMAGE_LIMIT_MODEL,
  imageParts,
  JSON_OBJECT_ONLY_MODEL,
  NO_RESPONSE_FORMAT_MODEL,
  requestParts,
  TEXT_ONLY_MODEL,
  type ChatRequest,
} from "../chat-request";
import { completionFor, padded } from "../completion";
import { parseHeaderFault, takeFault, type Fault } from "../stub-faults";
import { headerValue, readChunks, sendJson, sendStream, vllmError } from "../stub-http";
import { FALLBACK_RULE } from "../stub-rules";
import { timesSeen } from "../stub-state";
import type { StubRequestRecord, StubState } from "../stub-types";
import { promptTokensOf, readMedia, refusedBySettings } from "./chat-media";
import type { StubRouteContext } from "./route";

/**
 * A request read: its body (each cut-out data URL a reference `parsed` resolves), its text and size; or null when
 * it was answered with a 400. Its media are read after it is recorded (./chat-media.ts).
 */
async function readChatRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<{ body: ChatRequest; text: string; images: string[]; parsed: ParsedChatBody; bodyBytes: number } | null> {
  try {
    const chunks = await readChunks(req);
    const parsed = parseChatBody(chunks);
    const body = chatRequestSchema.parse(parsed.body);
    for (const part of imageParts(body)) part.url = parsed.imageOf(part.url).url;
    const { text } = requestParts(body, []);
    const bodyBytes = chunks.reduce((total, chunk) => total + chunk.length, 0);
    return { body, text, images: [], parsed, bodyBytes };
  } catch (error) {
    sendJson(res, 400, {
      error: {
        message: `invalid request: ${error instanceof Error ? error.message : ""}`,
        type: "invalid_request_error",
      },
    });
    return null;
  }
}

/** The request as a test reads it back (`stub.requests`, `GET /__stub/requests`). */
function requestRecord(
  req: http.IncomingMessage,
  url: URL,
  request: { body: ChatRequest; text: string; images: string[]; bodyBytes: number },
  rule: string,
  fault: Fault | null,
): StubRequestRecord {
  const { body, text, images } = request;
  return {
    id: randomUUID(),
    at: Date.now(),
    endedAt: null,
    status: null,
    model: body.model,
    rule,
    fault: fault?.kind ?? null,
    imageCount: images.length,
    text,
    roles: body.messages.map((m) => m.role),
    path: `${url.pathname}${url.search}`,
    headers: {
      httpReferer: headerValue(req.headers["http-referer"]),
      title: headerValue(req.headers["x-openrouter-title"]) ?? headerValue(req.headers["x-title"]),
      apiKey: headerValue(req.headers["api-key"]),
      authorization: req.headers.authorization !== undefined,
    },
    maxTokens: body.max_tokens ?? body.max_completion_tokens ?? null,
    imageDetail: body.messages.some(
      (m) =>
        Array.isArray(m.content) &&
        m.content.some((part) => part.type === "image_url" && part.image_url && "detail" in part.image_url),
    ),
    topLogprobs: body.logprobs === true ? (body.top_logprobs ?? 0) : null,
    videos: [],
    bodyBytes: request.bodyBytes,
  };
}

/** The latency before the answer: the server's (a fixed one, or drawn from its range) and a latency fault's. */
function latencyOf(state: StubState, fault: Fault | null): number {
  const base = state.options.latencyMs ?? 0;
  const max = state.options.latencyMaxMs;
  const drawn = max === undefined ? base : base + Math.random() * (max - base);
  return drawn + (fault?.kind === "latency" ? fault.ms : 0);
}

/** A fault that answers with an error instead of a completion (a status, vLLM's or another provider's shape); false when none. */
function answeredWithError(res: http.ServerResponse, fault: Fault | null, record: StubRequestRecord): boolean {
  if (fault?.kind === "status") {
    const headers: Record<string, string> = {};
    if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
    if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
    const type =
      fault.status === 429 ? "rate_limit_exceeded" : fault.status >= 500 ? "server_error" : "invalid_request_error";
    const message = fault.message ?? `stub fault: HTTP ${fault.status}`;
    sendJson(res, fault.status, { error: { message, type, code: type } }, headers);
  } else if (fault?.kind === "vllm_error") sendJson(res, fault.status, vllmError(fault.status, fault.message));
  else if (fault?.kind === "provider_error") sendProviderError(res, fault, record.id);
  else if (fault?.kind === "rejects_detail" && record.imageDetail) {
    const message =
      "Invalid JSON payload received. Unknown name \"detail\" at 'messages[0].content[1].image_url': Cannot find field.";
    sendJson(res, 400, [{ error: { code: 400, message, status: "INVALID_ARGUMENT" } }]);
  } else return false;
  return true;
}

/** Gemini's, Ollama's and OpenRouter's error shapes (OpenRouter's inside a 200 answer). */
function sendProviderError(res: http.ServerResponse, fault: Extract<Fault, { kind: "provider_error" }>, id: string) {
  if (fault.provider === "openrouter")
    return sendJson(res, 200, {
      id: `gen-${id}`,
      object: "chat.completion",
      error: { code: fault.status, message: fault.message, metadata: { provider_name: "stub" } },
    });
  if (fault.provider === "ollama") return sendJson(res, fault.status, { error: fault.message });
  const status = fault.status === 429 ? "RESOURCE_EXHAUSTED" : "INVALID_ARGUMENT";
  sendJson(res, fault.status, [{ error: { code: fault.status, message: fault.message, status } }]);
}

/**
 * The 400 a simulated server answers a request beyond its limits with (too many images, a response format it lacks,
 * a context too long, an image to a text-only model); false when the request is within them.
 */
function refusedByModel(
  res: http.ServerResponse,
  request: { body: ChatRequest; images: string[]; promptTokens: number },
  fault: Fault | null,
  maxTokens: number | null,
): boolean {
  const { body, images, promptTokens } = request;
  const modelLimit = IMAGE_LIMIT_MODEL.exec(body.model);
  const imageLimit = fault?.kind === "image_limit" ? fault.limit : modelLimit ? Number(modelLimit[1]) : null;
  if (imageLimit !== null && images.length > imageLimit) {
    sendJson(res, 400, vllmError(400, `At most ${imageLimit} image(s) may be provided in one request.`));
    return true;
  }
  const format = body.response_format?.type;
  if (
    format &&
    (NO_RESPONSE_FORMAT_MODEL.test(body.model) || (format === "json_schema" && JSON_OBJECT_ONLY_MODEL.test(body.model)))
  ) {
    sendJson(res, 400, vllmError(400, `response_format type ${format} is not supported by this server.`));
    return true;
  }
  const contextLimit = CONTEXT_MODEL.exec(body.model);
  if (contextLimit) {
    const limit = Number(contextLimit[1]);
    const completion = maxTokens ?? 0;
    if (promptTokens + completion > limit) {
      const message = `This model's maximum context length is ${limit} tokens. However, you requested ${promptTokens + completion} tokens (${promptTokens} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;
      sendJson(res, 400, vllmError(400, message));
      return true;
    }
  }
  // A text-only model (its name says so) refuses images as OpenAI's API does, for the endpoint test's "took the image" check.
  if (TEXT_ONLY_MODEL.test(body.model) && images.length > 0) {
    sendJson(res, 400, {
      error: {
        message: "Invalid content type. image_url is only supported by certain models.",
        type: "invalid_request_error",
        code: "invalid_request_error",
      },
    });
    return true;
  }
  return false;
}

/** A fault that breaks the answer itself (a cut JSON body, a dropped connection, no choices); false when none. */
function answeredBroken(res: http.ServerResponse, fault: Fault | null, model: string, id: string): boolean {
  if (fault?.kind === "malformed") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"id": "chatcmpl-broken", "choices": [{"message": {"content": "oops');
  } else if (fault?.kind === "disconnect") {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"id": "chatcmpl-');
    res.socket?.destroy();
  } else if (fault?.kind === "empty_choices") {
    const created = Math.floor(Date.now() / 1000);
    sendJson(res, 200, {
      id: `chatcmpl-${id}`,
      object: "chat.completion",
      created,
      model,
      choices: [],
      prompt_filter_results: [],
    });
  } else return false;
  return true;
}

/** `POST /v1/chat/completions` (and `/chat/completions`). */
export async function chatCompletions({ req, res, url, state }: StubRouteContext): Promise<void> {
  const request = await readChatRequest(req, res);
  if (!request) return;
  const { body, text } = request;
  const fault = parseHeaderFault(req.headers["x-stub-fault"]) ?? takeFault(state.faults, text);
  const rule = state.rules().find((candidate) => candidate.match.test(text)) ?? FALLBACK_RULE;
  const record = requestRecord(req, url, request, rule.name, fault);
  state.requests.push(record);
  // "finish": the whole answer is handed to the socket; "close" alone: the connection ended without one.
  res.once("finish", () => {
    record.status = res.statusCode;
    record.endedAt = Date.now();
  });
  res.once("close", () => (record.endedAt ??= Date.now()));

  const latency = latencyOf(state, fault);
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
  if (fault?.kind === "hang") {
    state.hanging.add(res);
    res.on("close", () => state.hanging.delete(res));
    return; // never answers; the client's timeout must handle it
  }
  if (answeredWithError(res, fault, record)) return;
  if (refusedBySettings(res, state.videoOptions, body, request.bodyBytes)) return;
  const media = await readMedia(res, state.videoOptions, body, request.parsed);
  if (!media) return;
  const { images } = media;
  record.imageCount = images.length;
  record.videos = media.videos.map(({ form, frames, durationS, totalFrames }) => ({
    form,
    frames: frames.length,
    durationS,
    totalFrames,
  }));
  state.log(`${body.model} ${rule.name}${fault ? ` fault=${fault.kind}` : ""} images=${images.length}`);
  const promptTokens = promptTokensOf(text, media);
  if (refusedByModel(res, { body, images, promptTokens }, fault, record.maxTokens)) return;
  if (answeredBroken(res, fault, body.model, record.id)) return;
  const seen = timesSeen(state, body.model, text);
  const completion = completionFor(body, text, images, fault, rule, record.id, seen, {
    imageUrls: media.imageUrls,
    promptTokens,
  });
  if (body.stream) return sendStream(res, completion);
  sendJson(res, 200, padded(completion, state.options.answerBytes));
}

/** Azure OpenAI: `/openai/deployments/{deployment}/chat/completions?api-version=…`, the key in `api-key`. */
export async function azureChatCompletions(context: StubRouteContext): Promise<void> {
  const { req, res, url } = context;
  if (!url.searchParams.get("api-version")) {
    return sendJson(res, 404, { error: { code: "404", message: "Resource not found" } });
  }
  if (!req.headers["api-key"]) {
    return sendJson(res, 401, {
      error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." },
    });
  }
  return chatCompletions(context);
}
