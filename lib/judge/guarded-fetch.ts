import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { assertLiteralHostAllowed, guardedLookup, privateEndpointsAllowed } from "./endpoint-url-policy";

/**
 * The `fetch` the OpenAI SDK uses for judge endpoints. Node's built-in fetch gives no hook on the
 * address it connects to and follows redirects, so this one is made on node:http(s):
 * - every connection resolves its host through guardedLookup (the connect-time SSRF check);
 * - a host written as an IP address is checked before connecting;
 * - redirects are never followed: a 3xx comes back as the answer, so the API key is never sent
 *   to another origin.
 */
export function guardedFetch(options: { allowPrivate?: () => boolean } = {}): typeof fetch {
  const allowPrivate = options.allowPrivate ?? (() => privateEndpointsAllowed());
  const lookup = guardedLookup({ allowPrivate });
  const agents = {
    "http:": new http.Agent({ keepAlive: true, lookup } as http.AgentOptions),
    "https:": new https.Agent({ keepAlive: true, lookup } as https.AgentOptions),
  };
  return async (input, init) => {
    const request = await outgoingRequest(input, init);
    const url = new URL(request.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`Only http(s) endpoints can be called, not ${url.protocol}`);
    assertLiteralHostAllowed(url, allowPrivate());
    const body = request.body;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body) headers["content-length"] = String(body.reduce((total, piece) => total + piece.length, 0));
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();

    return new Promise<Response>((resolve, reject) => {
      const transport = url.protocol === "https:" ? https : http;
      const outgoing = transport.request(url, { method: request.method, headers, agent: agents[url.protocol as "http:" | "https:"], lookup, signal }, (incoming) => {
        const status = incoming.statusCode ?? 0;
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
        }
        let stream: Readable = incoming;
        const encoding = responseHeaders.get("content-encoding")?.trim().toLowerCase();
        const decoder = encoding === "gzip" || encoding === "x-gzip" ? zlib.createGunzip() : encoding === "deflate" ? zlib.createInflate() : encoding === "br" ? zlib.createBrotliDecompress() : null;
        if (decoder) {
          stream = incoming.pipe(decoder);
          incoming.on("error", (error) => decoder.destroy(error));
          responseHeaders.delete("content-encoding");
          responseHeaders.delete("content-length");
        }
        const nullBody = request.method === "HEAD" || [101, 103, 204, 205, 304].includes(status);
        if (nullBody) incoming.resume();
        resolve(
          new Response(nullBody ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), {
            status: status >= 200 && status <= 599 ? status : 502,
            statusText: incoming.statusMessage ?? "",
            headers: responseHeaders,
          }),
        );
      });
      outgoing.on("error", reject);
      // A body in pieces goes out in one write of all of them (writev), never copied into one buffer.
      outgoing.cork();
      for (const piece of body ?? []) outgoing.write(piece);
      outgoing.end();
    });
  };
}

/**
 * The method, URL, headers and body bytes of a fetch call. The OpenAI SDK sends a URL string and a JSON string:
 * those are taken as they are. A web Request would turn the body into a stream only to read it back, which for a
 * call with 64 frames (VBench-2.0's, some 100 KB and more) cost the worker more than a millisecond a call.
 * The judge's client sends its bodies as a stream of pieces with their `content-length` (see
 * chatCompletionPieces): the pieces are kept as they are, since joining a quarter of a megabyte into a fresh
 * buffer costs about a millisecond here, most of it the new memory's page faults.
 * Anything else (a Request, a stream without a length, a form) goes through a Request as before.
 */
async function outgoingRequest(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<{ method: string; url: string; headers: Headers; body: Uint8Array[] | null }> {
  const raw = init?.body;
  const plainBody = raw === undefined || raw === null || typeof raw === "string" || raw instanceof Uint8Array || raw instanceof ArrayBuffer;
  const plainUrl = typeof input === "string" || input instanceof URL;
  const method = (init?.method ?? "GET").toUpperCase();
  if (plainUrl && plainBody) {
    const headers = new Headers(init?.headers);
    if (typeof raw === "string" && !headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
    const noBody = method === "GET" || method === "HEAD" || raw === undefined || raw === null;
    const body = noBody ? null : typeof raw === "string" ? Buffer.from(raw, "utf8") : raw instanceof ArrayBuffer ? Buffer.from(raw) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return { method, url: String(input), headers, body: body ? [body] : null };
  }
  const headers = new Headers(init?.headers);
  const length = Number(headers.get("content-length") ?? NaN);
  if (plainUrl && raw instanceof ReadableStream && Number.isSafeInteger(length)) {
    const pieces: Uint8Array[] = [];
    let received = 0;
    const reader = (raw as ReadableStream<Uint8Array>).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pieces.push(read.value);
      received += read.value.length;
    }
    if (received !== length) throw new TypeError(`The request body has ${received} bytes, not the ${length} its content-length says.`);
    headers.delete("content-length");
    return { method, url: String(input), headers, body: pieces };
  }
  const request = new Request(input, init);
  return { method: request.method, url: request.url, headers: request.headers, body: request.method === "GET" || request.method === "HEAD" ? null : [Buffer.from(await request.arrayBuffer())] };
}
