import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { DEFAULT_RULES, FALLBACK_RULE, makeContext, type StubRule } from "./stub-rules";

/**
 * TEST TOOL: a local stand-in for a paid OpenAI-compatible API, used by the tests and the demo.
 * It speaks the chat-completions wire format, answers from rules keyed on the prompt text, and
 * injects faults on request (control API `POST /__stub/faults`, or an `x-stub-fault` header).
 * Nothing in FrameJury's product code depends on it.
 */

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
}

export interface StubServerOptions {
  port?: number;
  host?: string;
  /** Added to every answer, e.g. 300 for the judge benchmark. */
  latencyMs?: number;
  rules?: StubRule[];
  log?: (line: string) => void;
}

export interface StubServer {
  url: string;
  /** The base URL to give an OpenAI client: `${url}/v1`. */
  baseURL: string;
  port: number;
  requests: StubRequestRecord[];
  addFault(fault: z.input<typeof queuedFaultSchema>): void;
  reset(): void;
  close(): Promise<void>;
}

const messageSchema = z.object({
  role: z.string(),
  content: z.union([
    z.string(),
    z.array(z.object({ type: z.string(), text: z.string().optional(), image_url: z.object({ url: z.string() }).passthrough().optional() }).passthrough()),
    z.null(),
  ]),
}).passthrough();

const chatRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  stream: z.boolean().optional(),
  response_format: z.object({ type: z.string() }).passthrough().optional(),
  max_tokens: z.number().optional(),
  max_completion_tokens: z.number().optional(),
}).passthrough();

export async function startStubLlm(options: StubServerOptions = {}): Promise<StubServer> {
  const rules = options.rules ?? DEFAULT_RULES;
  const log = options.log ?? (() => {});
  const faults: QueuedFault[] = [];
  const requests: StubRequestRecord[] = [];
  const hanging = new Set<http.ServerResponse>();

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
        return sendJson(res, 200, { object: "list", data: [{ id: "stub-vision", object: "model", created: 0, owned_by: "framejury-stub" }] });
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
      if (req.method === "POST" && (url.pathname === "/v1/chat/completions" || url.pathname === "/chat/completions")) {
        return await handleChat(req, res);
      }
      sendJson(res, 404, { error: { message: `The stub LLM has no route ${req.method} ${url.pathname}`, type: "invalid_request_error" } });
    } catch (error) {
      sendJson(res, 500, { error: { message: `stub error: ${error instanceof Error ? error.message : String(error)}`, type: "server_error" } });
    }
  });

  async function handleChat(req: http.IncomingMessage, res: http.ServerResponse) {
    let body: z.infer<typeof chatRequestSchema>;
    try {
      body = chatRequestSchema.parse(JSON.parse(await readBody(req)));
    } catch (error) {
      return sendJson(res, 400, { error: { message: `invalid request: ${error instanceof Error ? error.message : ""}`, type: "invalid_request_error" } });
    }
    const texts: string[] = [];
    const images: string[] = [];
    for (const message of body.messages) {
      if (typeof message.content === "string") texts.push(message.content);
      else for (const part of message.content ?? []) {
        if (part.type === "text" && part.text) texts.push(part.text);
        if (part.type === "image_url" && part.image_url) images.push(createHash("sha256").update(part.image_url.url).digest("hex").slice(0, 16));
      }
    }
    const text = texts.join("\n");
    const headerFault = parseHeaderFault(req.headers["x-stub-fault"]);
    const fault = headerFault ?? takeFault(text);
    const rule = rules.find((candidate) => candidate.match.test(text)) ?? FALLBACK_RULE;
    const record: StubRequestRecord = { id: randomUUID(), at: Date.now(), endedAt: null, status: null, model: body.model, rule: rule.name, fault: fault?.kind ?? null, imageCount: images.length, text };
    requests.push(record);
    // "finish": the whole answer is handed to the socket; "close" alone: the connection ended without one.
    res.once("finish", () => {
      record.status = res.statusCode;
      record.endedAt = Date.now();
    });
    res.once("close", () => (record.endedAt ??= Date.now()));
    log(`${body.model} ${rule.name}${fault ? ` fault=${fault.kind}` : ""} images=${images.length}`);

    const latency = (options.latencyMs ?? 0) + (fault?.kind === "latency" ? fault.ms : 0);
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
      const type = fault.status === 429 ? "rate_limit_exceeded" : fault.status >= 500 ? "server_error" : "invalid_request_error";
      return sendJson(res, fault.status, { error: { message: fault.message ?? `stub fault: HTTP ${fault.status}`, type, code: type } }, headers);
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

    const wantsJson = body.response_format?.type === "json_schema" || body.response_format?.type === "json_object";
    let content: string | null = rule.respond(makeContext(text, images, wantsJson, body.model));
    let finishReason = "stop";
    let refusal: string | null = null;
    if (fault?.kind === "content") content = fault.content;
    if (fault?.kind === "prose") content = `Sure! Here is my analysis of the frames.\n\n\`\`\`json\n${content}\n\`\`\`\n\nLet me know if you need anything else.`;
    if (fault?.kind === "truncated") {
      content = content.slice(0, Math.max(1, Math.floor(content.length / 2)));
      finishReason = "length";
    }
    if (fault?.kind === "refusal") {
      refusal = "I'm sorry, but I can't help with that request.";
      content = wantsJson ? null : refusal;
    }
    const promptTokens = Math.ceil(text.length / 4) + images.length * 255;
    const completionTokens = Math.ceil((content ?? refusal ?? "").length / 4);
    const completion = {
      id: `chatcmpl-${record.id}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      system_fingerprint: "framejury-stub",
      choices: [{ index: 0, message: { role: "assistant", content, refusal }, logprobs: null, finish_reason: finishReason }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    };
    if (body.stream) return sendStream(res, completion);
    sendJson(res, 200, completion);
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
    addFault: (fault) => faults.push(queuedFaultSchema.parse(fault)),
    reset: () => {
      faults.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseHeaderFault(value: string | string[] | undefined): Fault | null {
  if (typeof value !== "string" || !value) return null;
  try {
    return faultSchema.parse(value.trim().startsWith("{") ? JSON.parse(value) : { kind: value.trim() });
  } catch {
    return null;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendStream(res: http.ServerResponse, completion: { id: string; created: number; model: string; choices: { message: { content: string | null }; finish_reason: string }[]; usage: unknown }) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const choice = completion.choices[0]!;
  const chunk = (delta: unknown, finish: string | null, usage?: unknown) =>
    `data: ${JSON.stringify({ id: completion.id, object: "chat.completion.chunk", created: completion.created, model: completion.model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  res.write(chunk({ role: "assistant", content: choice.message.content ?? "" }, null));
  res.write(chunk({}, choice.finish_reason, completion.usage));
  res.end("data: [DONE]\n\n");
}
