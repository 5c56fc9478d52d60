/**
 * TEST TOOL. The stub LLM's HTTP plumbing: reading a request's body, answering JSON or a server-sent-events stream,
 * and the error shapes of the servers it imitates.
 */
import type http from "node:http";

export function readRaw(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function headerValue(value: string | string[] | undefined): string | null {
  return typeof value === "string" ? value : Array.isArray(value) ? (value[0] ?? null) : null;
}

export function readChunks(req: http.IncomingMessage): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(chunks));
    req.on("error", reject);
  });
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export function sendStream(
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

/** vLLM's error body: `message` at the top level, not under `error` as OpenAI's. */
export function vllmError(status: number, message: string) {
  return { object: "error", message, type: "BadRequestError", param: null, code: status };
}
