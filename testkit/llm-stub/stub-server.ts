import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { imageHashOf, parseChatBody } from "./chat-body";
import { makeContext, type StubRule } from "./stub-rule";
import { defaultStubRules, FALLBACK_RULE } from "./stub-rules";
import { simulatedAnswer, simulatedLogprobJudge, stubContentLogprobs } from "./stub-logprobs";

/**
 * TEST TOOL: a local stand-in for a paid OpenAI-compatible API, used by the tests and the demo.
 * It speaks the chat-completions wire format, answers from rules keyed on the prompt text, and
 * injects faults on request (control API `POST /__stub/faults`, or an `x-stub-fault` header).
 * Nothing in FrameJury's product code depends on it.
 */

/** Models whose name contains "text-only" answer any request with an image with a 400, as a model without vision does. */
export const TEXT_ONLY_MODEL = /text-only/i;
/**
 * Simulated servers, by model name, so a test (or an e2e that only fills in the endpoint form) picks one:
 * "…images-per-request-N…": vLLM without a larger `--limit-mm-per-prompt` (N = 1 is vLLM's default), a request
 * with more images gets vLLM's 400; "…no-response-format…": any `response_format` is refused with a 400;
 * "…json-object-only…": `json_schema` is refused, `json_object` accepted; "…no-logprobs…": `top_logprobs` are
 * never returned; "…context-N…": a request whose prompt and `max_tokens` exceed N tokens gets vLLM's
 * context-length 400.
 */
export const IMAGE_LIMIT_MODEL = /images-per-request-(\d+)/i;
export const NO_RESPONSE_FORMAT_MODEL = /no-response-format/i;
export const JSON_OBJECT_ONLY_MODEL = /json-object-only/i;
export const NO_LOGPROBS_MODEL = /no-logprobs/i;
export const CONTEXT_MODEL = /context-(\d+)/i;

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
  z.object({ kind: z.literal("content"), content: z.string() }),
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
type QueuedFault = z.infer<typeof queuedFaultSchema>;

export interface StubRequestRecord {
  id: string;
  /** When the request arrived (its body read), Date.now(). */
  at: number;
  /** When the answer was sent or the connection closed; null while it is in flight. */
  endedAt: number | null;
  /** The HTTP status answered (null: no answer, e.g. a hang or a disconnect). */
  status: number | null;
  model: string;
  rule: string;
  fault: Fault["kind"] | null;
  imageCount: number;
  text: string;
  /** The messages' roles in order, e.g. ["system", "user"]. */
  roles: string[];
  /** The path and query asked for (Azure's deployment path and `api-version`). */
  path: string;
  /** The request headers that identify a caller: OpenRouter's attribution headers, Azure's `api-key`, `authorization` (present or not). */
  headers: { httpReferer: string | null; title: string | null; apiKey: string | null; authorization: boolean };
  /** `max_tokens` as asked; null when not set. */
  maxTokens: number | null;
  /** Whether any image part carried a `detail` field. */
  imageDetail: boolean;
  /** `top_logprobs` as asked with `logprobs: true`; null when logprobs were not asked for. */
  topLogprobs: number | null;
}

export interface StubServerOptions {
  port?: number;
  host?: string;
  /** Added to every answer, e.g. 300 for the judge benchmark. */
  latencyMs?: number;
  /** With it, each answer's added latency is drawn uniformly between latencyMs and this, as a real model's varies. */
  latencyMaxMs?: number;
  /** A completion's JSON padded to about this many bytes (a real answer's usage, reasoning and ids), for the benchmark. */
  answerBytes?: number;
  rules?: StubRule[];
  log?: (line: string) => void;
  /** The Batch API's behaviour (see StubBatchOptions); changeable later with setBatchOptions or `POST /__stub/batch-options`. */
  batch?: Partial<StubBatchOptions>;
}

export interface StubBatchOptions {
  /** How long after its creation a batch completes (its lines are answered then), in milliseconds. */
  completionDelayMs: number;
  /** The share of a batch's lines (0–1) that fail with a server error instead of an answer, chosen by a hash of the custom_id. */
  failedShare: number;
}

/** One line of a batch as the stub answered it. */
export interface StubBatchLineRecord {
  batchId: string;
  customId: string;
  text: string;
  /** A short hash of each image, as the rules see them. */
  images: string[];
  rule: string;
  fault: Fault["kind"] | "failed_line" | null;
  /** 200 for an answer; the error status of a failed line. */
  status: number;
}

export interface StubBatchRecord {
  id: string;
  inputFileId: string;
  status: "validating" | "in_progress" | "finalizing" | "completed" | "failed" | "expired" | "cancelling" | "cancelled";
  lineCount: number;
  createdAt: number;
  completeAt: number;
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number };
  cancelledAt: number | null;
  metadata: Record<string, string> | null;
}

export interface StubServer {
  url: string;
  /** The base URL to give an OpenAI client: `${url}/v1`. */
  baseURL: string;
  port: number;
  requests: StubRequestRecord[];
  /** Batches created through `/v1/batches`, by id, and every batch line answered so far. */
  batches: Map<string, StubBatchRecord>;
  batchLines: StubBatchLineRecord[];
  setBatchOptions(options: Partial<StubBatchOptions>): void;
  addFault(fault: z.input<typeof queuedFaultSchema>): void;
  reset(): void;
  close(): Promise<void>;
}

const messageSchema = z
  .object({
    role: z.string(),
    content: z.union([
      z.string(),
      z.array(
        z
          .object({
            type: z.string(),
            text: z.string().optional(),
            image_url: z.object({ url: z.string() }).passthrough().optional(),
          })
          .passthrough(),
      ),
      z.null(),
    ]),
  })
  .passthrough();

const chatRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(messageSchema).min(1),
    stream: z.boolean().optional(),
    response_format: z.object({ type: z.string() }).passthrough().optional(),
    max_tokens: z.number().optional(),
    max_completion_tokens: z.number().optional(),
    logprobs: z.boolean().optional(),
    top_logprobs: z.number().int().min(0).max(20).optional(),
  })
  .passthrough();

export async function startStubLlm(options: StubServerOptions = {}): Promise<StubServer> {
  // The registered tasks' rules, read per request: a task registered after the stub started is answered too.
  const rules = () => options.rules ?? defaultStubRules();
  const log = options.log ?? (() => {});
  const faults: QueuedFault[] = [];
  const requests: StubRequestRecord[] = [];
  const hanging = new Set<http.ServerResponse>();
  const batchOptions: StubBatchOptions = { completionDelayMs: 2000, failedShare: 0, ...options.batch };
  const files = new Map<string, { id: string; purpose: string; filename: string; bytes: Buffer; createdAt: number }>();
  const batches = new Map<string, StubBatchRecord>();
  const batchLines: StubBatchLineRecord[] = [];
  // How often each model and text was answered by a rule: a prompt asked again gets its next answer.
  const answered = new Map<string, number>();
  const timesSeen = (model: string, text: string) => {
    const key = `${model}\n${text}`;
    const seen = answered.get(key) ?? 0;
    answered.set(key, seen + 1);
    return seen;
  };

  const takeFault = (text: string): Fault | null => {
    const index = faults.findIndex((queued) => !queued.match || text.includes(queued.match));
    if (index < 0) return null;
    const queued = faults[index]!;
    queued.times -= 1;
    if (queued.times <= 0) faults.splice(index, 1);
    return queued.fault;
  };

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://stub");
      if (req.method === "GET" && (url.pathname === "/v1/models" || url.pathname === "/models")) {
        return sendJson(res, 200, {
          object: "list",
          data: [{ id: "stub-vision", object: "model", created: 0, owned_by: "framejury-stub" }],
        });
      }
      if (url.pathname === "/__stub/faults" && req.method === "POST") {
        const parsed = queuedFaultSchema.safeParse(JSON.parse(await readBody(req)));
        if (!parsed.success) return sendJson(res, 400, { error: { message: parsed.error.message } });
        faults.push(parsed.data);
        return sendJson(res, 200, { queued: faults.length });
      }
      if (url.pathname === "/__stub/requests" && req.method === "GET") return sendJson(res, 200, { requests });
      if (url.pathname === "/__stub/reset" && req.method === "POST") {
        faults.length = 0;
        requests.length = 0;
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === "/__stub/batch-options" && req.method === "POST") {
        const parsed = batchOptionsSchema.safeParse(JSON.parse(await readBody(req)));
        if (!parsed.success) return sendJson(res, 400, { error: { message: parsed.error.message } });
        Object.assign(batchOptions, parsed.data);
        return sendJson(res, 200, batchOptions);
      }
      if (req.method === "POST" && url.pathname === "/v1/files") return await uploadFile(req, res);
      const fileRoute = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(url.pathname);
      if (req.method === "GET" && fileRoute) {
        const file = files.get(fileRoute[1]!);
        if (!file)
          return sendJson(res, 404, {
            error: { message: `No such file ${fileRoute[1]}`, type: "invalid_request_error" },
          });
        if (!fileRoute[2]) return sendJson(res, 200, fileObject(file));
        res.writeHead(200, { "content-type": "application/octet-stream" });
        return res.end(file.bytes);
      }
      if (req.method === "POST" && url.pathname === "/v1/batches") return await createBatch(req, res);
      const batchRoute = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(url.pathname);
      if (batchRoute && (req.method === "GET" || (req.method === "POST" && batchRoute[2]))) {
        const batch = batches.get(batchRoute[1]!);
        if (!batch)
          return sendJson(res, 404, {
            error: { message: `No such batch ${batchRoute[1]}`, type: "invalid_request_error" },
          });
        if (batchRoute[2]) {
          if (batch.status === "validating" || batch.status === "in_progress" || batch.status === "finalizing") {
            batch.status = "cancelling";
            batch.cancelledAt = Date.now();
          }
        } else advanceBatch(batch);
        return sendJson(res, 200, batchObject(batch));
      }
      if (req.method === "POST" && (url.pathname === "/v1/chat/completions" || url.pathname === "/chat/completions")) {
        return await handleChat(req, res, url);
      }
      // Azure OpenAI: /openai/deployments/{deployment}/chat/completions?api-version=…, the key in `api-key`.
      if (req.method === "POST" && /^\/openai\/deployments\/[^/]+\/chat\/completions$/.test(url.pathname)) {
        if (!url.searchParams.get("api-version")) {
          return sendJson(res, 404, { error: { code: "404", message: "Resource not found" } });
        }
        if (!req.headers["api-key"]) {
          return sendJson(res, 401, {
            error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." },
          });
        }
        return await handleChat(req, res, url);
      }
      sendJson(res, 404, {
        error: { message: `The stub LLM has no route ${req.method} ${url.pathname}`, type: "invalid_request_error" },
      });
    } catch (error) {
      sendJson(res, 500, {
        error: {
          message: `stub error: ${error instanceof Error ? error.message : String(error)}`,
          type: "server_error",
        },
      });
    }
  });

  async function handleChat(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    let body: z.infer<typeof chatRequestSchema>;
    let imageHashes: string[];
    try {
      const parsed = parseChatBody(await readChunks(req));
      body = chatRequestSchema.parse(parsed.body);
      imageHashes = imageParts(body).map((part) => {
        const image = parsed.imageOf(part.url);
        part.url = image.url;
        return image.hash;
      });
    } catch (error) {
      return sendJson(res, 400, {
        error: {
          message: `invalid request: ${error instanceof Error ? error.message : ""}`,
          type: "invalid_request_error",
        },
      });
    }
    const { text, images } = requestParts(body, imageHashes);
    const headerFault = parseHeaderFault(req.headers["x-stub-fault"]);
    const fault = headerFault ?? takeFault(text);
    const rule = rules().find((candidate) => candidate.match.test(text)) ?? FALLBACK_RULE;
    const record: StubRequestRecord = {
      id: randomUUID(),
      at: Date.now(),
      endedAt: null,
      status: null,
      model: body.model,
      rule: rule.name,
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
    };
    requests.push(record);
    // "finish": the whole answer is handed to the socket; "close" alone: the connection ended without one.
    res.once("finish", () => {
      record.status = res.statusCode;
      record.endedAt = Date.now();
    });
    res.once("close", () => (record.endedAt ??= Date.now()));
    log(`${body.model} ${rule.name}${fault ? ` fault=${fault.kind}` : ""} images=${images.length}`);

    const base = options.latencyMs ?? 0;
    const drawn = options.latencyMaxMs === undefined ? base : base + Math.random() * (options.latencyMaxMs - base);
    const latency = drawn + (fault?.kind === "latency" ? fault.ms : 0);
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));

    if (fault?.kind === "hang") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return; // never answers; the client's timeout must handle it
    }
    if (fault?.kind === "status") {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      const type =
        fault.status === 429 ? "rate_limit_exceeded" : fault.status >= 500 ? "server_error" : "invalid_request_error";
      return sendJson(
        res,
        fault.status,
        { error: { message: fault.message ?? `stub fault: HTTP ${fault.status}`, type, code: type } },
        headers,
      );
    }
    if (fault?.kind === "vllm_error") return sendJson(res, fault.status, vllmError(fault.status, fault.message));
    if (fault?.kind === "provider_error") {
      if (fault.provider === "openrouter")
        return sendJson(res, 200, {
          id: `gen-${record.id}`,
          object: "chat.completion",
          error: { code: fault.status, message: fault.message, metadata: { provider_name: "stub" } },
        });
      if (fault.provider === "ollama") return sendJson(res, fault.status, { error: fault.message });
      return sendJson(res, fault.status, [
        {
          error: {
            code: fault.status,
            message: fault.message,
            status: fault.status === 429 ? "RESOURCE_EXHAUSTED" : "INVALID_ARGUMENT",
          },
        },
      ]);
    }
    if (fault?.kind === "rejects_detail" && record.imageDetail) {
      const message =
        "Invalid JSON payload received. Unknown name \"detail\" at 'messages[0].content[1].image_url': Cannot find field.";
      return sendJson(res, 400, [{ error: { code: 400, message, status: "INVALID_ARGUMENT" } }]);
    }
    const imageLimit =
      fault?.kind === "image_limit"
        ? fault.limit
        : IMAGE_LIMIT_MODEL.exec(body.model)
          ? Number(IMAGE_LIMIT_MODEL.exec(body.model)![1])
          : null;
    if (imageLimit !== null && images.length > imageLimit) {
      return sendJson(res, 400, vllmError(400, `At most ${imageLimit} image(s) may be provided in one request.`));
    }
    const format = body.response_format?.type;
    if (
      format &&
      (NO_RESPONSE_FORMAT_MODEL.test(body.model) ||
        (format === "json_schema" && JSON_OBJECT_ONLY_MODEL.test(body.model)))
    ) {
      return sendJson(res, 400, vllmError(400, `response_format type ${format} is not supported by this server.`));
    }
    const contextLimit = CONTEXT_MODEL.exec(body.model);
    if (contextLimit) {
      const limit = Number(contextLimit[1]);
      const promptTokens = Math.ceil(text.length / 4) + images.length * 255;
      const completion = record.maxTokens ?? 0;
      if (promptTokens + completion > limit) {
        return sendJson(
          res,
          400,
          vllmError(
            400,
            `This model's maximum context length is ${limit} tokens. However, you requested ${promptTokens + completion} tokens (${promptTokens} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
          ),
        );
      }
    }
    // A text-only model (its name says so) refuses images as OpenAI's API does, for the endpoint test's "took the image" check.
    if (TEXT_ONLY_MODEL.test(body.model) && images.length > 0) {
      return sendJson(res, 400, {
        error: {
          message: "Invalid content type. image_url is only supported by certain models.",
          type: "invalid_request_error",
          code: "invalid_request_error",
        },
      });
    }
    if (fault?.kind === "malformed") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"id": "chatcmpl-broken", "choices": [{"message": {"content": "oops');
    }
    if (fault?.kind === "disconnect") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id": "chatcmpl-');
      return res.socket?.destroy();
    }

    if (fault?.kind === "empty_choices") {
      return sendJson(res, 200, {
        id: `chatcmpl-${record.id}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [],
        prompt_filter_results: [],
      });
    }
    const completion = completionFor(body, text, images, fault, rule, record.id, timesSeen(body.model, text));
    if (body.stream) return sendStream(res, completion);
    sendJson(res, 200, padded(completion, options.answerBytes));
  }

  async function uploadFile(req: http.IncomingMessage, res: http.ServerResponse) {
    const form = await new Request("http://stub/v1/files", {
      method: "POST",
      headers: { "content-type": String(req.headers["content-type"] ?? "") },
      body: new Uint8Array(await readRaw(req)),
    })
      .formData()
      .catch(() => null);
    const file = form?.get("file");
    const purpose = form?.get("purpose");
    if (!form || !(file instanceof Blob) || typeof purpose !== "string") {
      return sendJson(res, 400, {
        error: { message: "Expected a multipart upload with `file` and `purpose`.", type: "invalid_request_error" },
      });
    }
    const stored = {
      id: `file-${randomUUID()}`,
      purpose,
      filename: (file as File).name ?? "upload",
      bytes: Buffer.from(await file.arrayBuffer()),
      createdAt: Date.now(),
    };
    files.set(stored.id, stored);
    log(`file ${stored.id} (${purpose}, ${stored.bytes.length} bytes)`);
    return sendJson(res, 200, fileObject(stored));
  }

  async function createBatch(req: http.IncomingMessage, res: http.ServerResponse) {
    const parsed = createBatchSchema.safeParse(JSON.parse(await readBody(req)));
    if (!parsed.success)
      return sendJson(res, 400, {
        error: { message: `invalid request: ${parsed.error.message}`, type: "invalid_request_error" },
      });
    const input = files.get(parsed.data.input_file_id);
    if (!input || input.purpose !== "batch")
      return sendJson(res, 400, {
        error: { message: `No batch input file ${parsed.data.input_file_id}`, type: "invalid_request_error" },
      });
    const lineCount = input.bytes
      .toString("utf8")
      .split("\n")
      .filter((line) => line.trim()).length;
    const now = Date.now();
    const batch: StubBatchRecord = {
      id: `batch_${randomUUID()}`,
      inputFileId: input.id,
      status: "in_progress",
      lineCount,
      createdAt: now,
      completeAt: now + batchOptions.completionDelayMs,
      outputFileId: null,
      errorFileId: null,
      counts: { total: lineCount, completed: 0, failed: 0 },
      cancelledAt: null,
      metadata: parsed.data.metadata ?? null,
    };
    batches.set(batch.id, batch);
    log(`batch ${batch.id}: ${lineCount} lines`);
    return sendJson(res, 200, batchObject(batch));
  }

  /** A batch moves on when it is looked at: its lines are answered once its completion delay has passed. */
  function advanceBatch(batch: StubBatchRecord) {
    if (batch.status === "cancelling") {
      batch.status = "cancelled";
      return;
    }
    if (batch.status !== "in_progress") return;
    const now = Date.now();
    if (now < batch.completeAt) {
      const share = (now - batch.createdAt) / Math.max(1, batch.completeAt - batch.createdAt);
      batch.counts.completed = Math.floor(batch.lineCount * share);
      return;
    }
    const lines = files
      .get(batch.inputFileId)!
      .bytes.toString("utf8")
      .split("\n")
      .filter((line) => line.trim());
    // The failed share is exact: the lines whose custom_id hashes lowest fail.
    const hashOf = (line: string) =>
      createHash("sha256")
        .update(String((JSON.parse(line) as { custom_id?: unknown }).custom_id))
        .digest("hex");
    const failing = new Set(
      lines
        .map((line, i) => ({ i, h: hashOf(line) }))
        .sort((a, b) => a.h.localeCompare(b.h))
        .slice(0, Math.round(lines.length * batchOptions.failedShare))
        .map((x) => x.i),
    );
    const output: string[] = [];
    const errors: string[] = [];
    lines.forEach((line, i) => {
      const answered = answerBatchLine(batch.id, line, failing.has(i));
      (answered.ok ? output : errors).push(JSON.stringify(answered.line));
    });
    const store = (content: string[]) => {
      if (content.length === 0) return null;
      const file = {
        id: `file-${randomUUID()}`,
        purpose: "batch_output",
        filename: `${batch.id}.jsonl`,
        bytes: Buffer.from(content.join("\n") + "\n"),
        createdAt: now,
      };
      files.set(file.id, file);
      return file.id;
    };
    batch.outputFileId = store(output);
    batch.errorFileId = store(errors);
    batch.counts = { total: lines.length, completed: output.length, failed: errors.length };
    batch.status = "completed";
  }

  /** A batch line answered by the same rules and faults as a chat completion; faults that would leave a connection without an answer fail the line. */
  function answerBatchLine(batchId: string, line: string, failLine: boolean): { ok: boolean; line: unknown } {
    const requestId = `batch_req_${randomUUID()}`;
    let parsedLine: { custom_id: string; body: z.infer<typeof chatRequestSchema> };
    try {
      parsedLine = batchLineSchema.parse(JSON.parse(line));
    } catch (error) {
      return {
        ok: false,
        line: {
          id: requestId,
          custom_id: null,
          response: null,
          error: { code: "invalid_request", message: `invalid line: ${error instanceof Error ? error.message : ""}` },
        },
      };
    }
    const { text, images } = requestParts(parsedLine.body);
    const rule = rules().find((candidate) => candidate.match.test(text)) ?? FALLBACK_RULE;
    const record: StubBatchLineRecord = {
      batchId,
      customId: parsedLine.custom_id,
      text,
      images,
      rule: rule.name,
      fault: null,
      status: 200,
    };
    batchLines.push(record);
    const failed = (status: number, type: string, message: string) => {
      record.status = status;
      return {
        ok: false,
        line: {
          id: requestId,
          custom_id: parsedLine.custom_id,
          response: { status_code: status, request_id: requestId, body: { error: { message, type, code: type } } },
          error: null,
        },
      };
    };
    if (failLine) {
      record.fault = "failed_line";
      record.status = 500;
      return {
        ok: false,
        line: {
          id: requestId,
          custom_id: parsedLine.custom_id,
          response: null,
          error: { code: "server_error", message: "stub: this batch line failed" },
        },
      };
    }
    const fault = takeFault(text);
    record.fault = fault?.kind ?? null;
    if (fault?.kind === "status") {
      const type =
        fault.status === 429 ? "rate_limit_exceeded" : fault.status >= 500 ? "server_error" : "invalid_request_error";
      return failed(fault.status, type, fault.message ?? `stub fault: HTTP ${fault.status}`);
    }
    if (fault?.kind === "hang" || fault?.kind === "disconnect" || fault?.kind === "malformed")
      return failed(500, "server_error", `stub fault: ${fault.kind}`);
    if (fault?.kind === "vllm_error") return failed(fault.status, "BadRequestError", fault.message);
    if (fault?.kind === "image_limit" && images.length > fault.limit)
      return failed(400, "BadRequestError", `At most ${fault.limit} image(s) may be provided in one request.`);
    const completion = completionFor(
      parsedLine.body,
      text,
      images,
      fault,
      rule,
      requestId,
      timesSeen(parsedLine.body.model, text),
    );
    return {
      ok: true,
      line: {
        id: requestId,
        custom_id: parsedLine.custom_id,
        response: { status_code: 200, request_id: requestId, body: completion },
        error: null,
      },
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    batches,
    batchLines,
    setBatchOptions: (changes) => Object.assign(batchOptions, batchOptionsSchema.parse(changes)),
    addFault: (fault) => faults.push(queuedFaultSchema.parse(fault)),
    reset: () => {
      faults.length = 0;
      requests.length = 0;
      batchLines.length = 0;
      answered.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The chat completion the stub answers to a request (after any fault that answers without one). */
function completionFor(
  body: z.infer<typeof chatRequestSchema>,
  text: string,
  images: string[],
  fault: Fault | null,
  rule: StubRule,
  id: string,
  seen = 0,
) {
  const wantsJson = body.response_format?.type === "json_schema" || body.response_format?.type === "json_object";
  let content: string | null = rule.respond(makeContext(text, images, wantsJson, body.model, seen, imageUrlsOf(body)));
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
  const promptTokens = Math.ceil(text.length / 4) + images.length * 255;
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
    model: body.model,
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

/** vLLM's error body: `message` at the top level, not under `error` as OpenAI's. */
function vllmError(status: number, message: string) {
  return { object: "error", message, type: "BadRequestError", param: null, code: status };
}

/** The request's image parts' `image_url` objects, in order. */
function imageParts(body: z.infer<typeof chatRequestSchema>): { url: string }[] {
  return body.messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : (message.content ?? []).flatMap((part) =>
          part.type === "image_url" && part.image_url ? [part.image_url] : [],
        ),
  );
}

function imageUrlsOf(body: z.infer<typeof chatRequestSchema>): string[] {
  return imageParts(body).map((part) => part.url);
}

/** The text parts of every message, joined by newlines, and a short hash of each image (`imageHashes`: those already computed, in order). */
function requestParts(
  body: z.infer<typeof chatRequestSchema>,
  imageHashes?: readonly string[],
): { text: string; images: string[] } {
  const texts: string[] = [];
  for (const message of body.messages) {
    if (typeof message.content === "string") texts.push(message.content);
    else for (const part of message.content ?? []) if (part.type === "text" && part.text) texts.push(part.text);
  }
  return { text: texts.join("\n"), images: imageHashes ? [...imageHashes] : imageUrlsOf(body).map(imageHashOf) };
}

const batchOptionsSchema = z.object({
  completionDelayMs: z.number().int().min(0).max(86_400_000).optional(),
  failedShare: z.number().min(0).max(1).optional(),
});
const createBatchSchema = z.object({
  input_file_id: z.string().min(1),
  endpoint: z.literal("/v1/chat/completions"),
  completion_window: z.literal("24h"),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
const batchLineSchema = z.object({
  custom_id: z.string().min(1),
  method: z.literal("POST"),
  url: z.literal("/v1/chat/completions"),
  body: chatRequestSchema,
});

function fileObject(file: { id: string; purpose: string; filename: string; bytes: Buffer; createdAt: number }) {
  return {
    id: file.id,
    object: "file",
    bytes: file.bytes.length,
    created_at: Math.floor(file.createdAt / 1000),
    filename: file.filename,
    purpose: file.purpose,
    status: "processed",
  };
}

function batchObject(batch: StubBatchRecord) {
  const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));
  const done = batch.status === "completed";
  return {
    id: batch.id,
    object: "batch",
    endpoint: "/v1/chat/completions",
    errors: null,
    input_file_id: batch.inputFileId,
    completion_window: "24h",
    status: batch.status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: seconds(batch.createdAt),
    in_progress_at: seconds(batch.createdAt),
    expires_at: seconds(batch.createdAt + 86_400_000),
    finalizing_at: done ? seconds(batch.completeAt) : null,
    completed_at: done ? seconds(batch.completeAt) : null,
    failed_at: null,
    expired_at: null,
    cancelling_at: seconds(batch.cancelledAt),
    cancelled_at: batch.status === "cancelled" ? seconds(batch.cancelledAt) : null,
    request_counts: batch.counts,
    metadata: batch.metadata,
  };
}

function readRaw(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function parseHeaderFault(value: string | string[] | undefined): Fault | null {
  if (typeof value !== "string" || !value) return null;
  try {
    return faultSchema.parse(value.trim().startsWith("{") ? JSON.parse(value) : { kind: value.trim() });
  } catch {
    return null;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  return typeof value === "string" ? value : Array.isArray(value) ? (value[0] ?? null) : null;
}

function readChunks(req: http.IncomingMessage): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(chunks));
    req.on("error", reject);
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A completion with a `x_stub_padding` field that brings its JSON to about `bytes` bytes; clients ignore the field. */
function padded(completion: object, bytes: number | undefined): object {
  if (!bytes) return completion;
  const missing = bytes - JSON.stringify(completion).length - '"x_stub_padding":"",'.length;
  return missing > 0 ? { ...completion, x_stub_padding: "x".repeat(missing) } : completion;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendStream(
  res: http.ServerResponse,
  completion: {
    id: string;
    created: number;
    model: string;
    choices: { message: { content: string | { type: "text"; text: string }[] | null }; finish_reason: string }[];
    usage?: unknown;
  },
) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const choice = completion.choices[0]!;
  const chunk = (delta: unknown, finish: string | null, usage?: unknown) =>
    `data: ${JSON.stringify({ id: completion.id, object: "chat.completion.chunk", created: completion.created, model: completion.model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  const content = choice.message.content;
  res.write(
    chunk(
      {
        role: "assistant",
        content: Array.isArray(content) ? content.map((part) => part.text).join("") : (content ?? ""),
      },
      null,
    ),
  );
  res.write(chunk({}, choice.finish_reason, completion.usage));
  res.end("data: [DONE]\n\n");
}
