import http from "node:http";
import https from "node:https";

/**
 * The demo's seeding requests to the app's API. Each request opens its own connection and closes it
 * (`connection: close`): seeding waits seconds between requests (ffmpeg extracts frames), longer than the
 * server keeps an idle connection, and fetch's pooled sockets then lost the race with the server closing
 * them (`fetch failed … write EPIPE` on a loaded machine).
 *
 * A request that fails before the server can have acted on it is retried with backoff: a GET always, a
 * POST when the connection was refused or broke while its body was being written (EPIPE, or a reset before
 * the body was handed over). A POST that may have been acted on is not repeated: it fails, saying so.
 */
export interface SeedingClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Attempts per request (default 5); the waits between them double from `backoffMs` (default 500). */
  attempts?: number;
  backoffMs?: number;
  log?: (line: string) => void;
}

export type SeedingRequest = (
  route: string,
  init?: { method?: "GET" | "POST"; json?: unknown; form?: FormData },
) => Promise<Record<string, unknown>>;

export class SeedingRequestError extends Error {}

const RETRYABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);

export function seedingClient(options: SeedingClientOptions): SeedingRequest {
  const attempts = options.attempts ?? 5;
  const backoffMs = options.backoffMs ?? 500;
  return async (route, init = {}) => {
    const method = init.method ?? (init.json !== undefined || init.form ? "POST" : "GET");
    const { body, contentType } = await encodeBody(init);
    for (let attempt = 1; ; attempt++) {
      const outcome = await send(new URL(route, options.baseUrl), method, options.apiKey, body, contentType);
      if (outcome.kind === "response") {
        const parsed = parseJson(outcome.body);
        if (outcome.status >= 200 && outcome.status < 300) return (parsed ?? {}) as Record<string, unknown>;
        throw new SeedingRequestError(
          `${method} ${route}: ${outcome.status} ${parsed === null ? outcome.body.slice(0, 500) : JSON.stringify(parsed)}`,
        );
      }
      const code = outcome.error.code ?? "";
      // EPIPE: a write failed because the server had closed the connection, so it never read the whole
      // request, and it acts on a request only once it has the whole body.
      const safe = method === "GET" || code === "ECONNREFUSED" || code === "EPIPE" || !outcome.bodySent;
      if (!safe || !RETRYABLE_CODES.has(code) || attempt >= attempts) {
        const why = safe
          ? `after ${attempt} attempt${attempt === 1 ? "" : "s"}`
          : "not retried: the server may have received it";
        throw new SeedingRequestError(`${method} ${route} failed (${code || outcome.error.message}; ${why})`, {
          cause: outcome.error,
        });
      }
      const wait = backoffMs * 2 ** (attempt - 1);
      options.log?.(`${method} ${route}: ${code}, retrying in ${wait} ms (attempt ${attempt + 1} of ${attempts})`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}

type Outcome =
  | { kind: "response"; status: number; body: string }
  | { kind: "error"; error: NodeJS.ErrnoException; bodySent: boolean };

function send(
  url: URL,
  method: string,
  apiKey: string,
  body: Buffer | null,
  contentType: string | null,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      connection: "close",
      accept: "application/json",
    };
    if (body) {
      headers["content-length"] = String(body.length);
      if (contentType) headers["content-type"] = contentType;
    }
    const transport = url.protocol === "https:" ? https : http;
    let bodySent = false;
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (!settled) {
        settled = true;
        resolve(outcome);
      }
    };
    const request = transport.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        settle({ kind: "response", status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
      // The answer was cut off: the server acted on the request, so this is not a connection failure to retry.
      response.on("error", (error: NodeJS.ErrnoException) => settle({ kind: "error", error, bodySent: true }));
    });
    request.on("finish", () => (bodySent = true));
    request.on("error", (error: NodeJS.ErrnoException) => settle({ kind: "error", error, bodySent }));
    request.end(body ?? undefined);
  });
}

async function encodeBody(init: {
  json?: unknown;
  form?: FormData;
}): Promise<{ body: Buffer | null; contentType: string | null }> {
  if (init.json !== undefined) return { body: Buffer.from(JSON.stringify(init.json)), contentType: "application/json" };
  if (init.form) {
    // Request encodes the multipart body (and its boundary) as fetch would.
    const encoded = new Request("http://localhost/", { method: "POST", body: init.form });
    return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type") };
  }
  return { body: null, contentType: null };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
