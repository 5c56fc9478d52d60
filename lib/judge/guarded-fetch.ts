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
    if (body) headers["content-length"] = String(body.length);
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
      outgoing.end(body ?? undefined);
    });
  };
}

/**
 * The method, URL, headers and body bytes of a fetch call. The OpenAI SDK sends a URL string and a JSON string:
 * those are taken as they are. A web Request would turn the body into a stream only to read it back, which for a
 * call with 64 frames (VBench-2.0's, some 100 KB and more) cost the worker more than a millisecond a call.
 * Anything else (a Request, a stream, a form) goes through a Request as before.
 */
async function outgoingRequest(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<{ method: string; url: string; headers: Headers; body: Buffer | null }> {
  const raw = init?.body;
  const plainBody = raw === undefined || raw === null || typeof raw === "string" || raw instanceof Uint8Array || raw instanceof ArrayBuffer;
  if ((typeof input === "string" || input instanceof URL) && plainBody) {
    const method = (init?.method ?? "GET").toUpperCase();
    const headers = new Headers(init?.headers);
    if (typeof raw === "string" && !headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
    const noBody = method === "GET" || method === "HEAD" || raw === undefined || raw === null;
    const body = noBody ? null : typeof raw === "string" ? Buffer.from(raw, "utf8") : raw instanceof ArrayBuffer ? Buffer.from(raw) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return { method, url: String(input), headers, body };
  }
  const request = new Request(input, init);
  return { method: request.method, url: request.url, headers: request.headers, body: request.method === "GET" || request.method === "HEAD" ? null : Buffer.from(await request.arrayBuffer()) };
}
