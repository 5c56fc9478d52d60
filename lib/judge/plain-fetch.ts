// The plain call path's fetch: judge calls sent from the worker's own thread through undici's connection pool,
// with the endpoint policy (lib/judge/endpoint-url-policy.ts) checked when each connection is made.
import { Agent, fetch as undiciFetch } from "undici";
import { assertLiteralHostAllowed, guardedLookup, privateEndpointsAllowed } from "./endpoint-url-policy";
import { piecesOf } from "./guarded-fetch";

/** An answer larger than this fails the call: a chat completion is a few kilobytes. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * A fetch for judge endpoints on undici's `Agent`:
 * - every connection resolves its host through guardedLookup (the connect-time SSRF check), so a name that
 *   resolves to a private address is refused where the socket connects, whatever it resolved to before;
 * - a host written as an IP address (which no lookup sees) is checked before anything is sent;
 * - redirects are never followed: a 3xx comes back as the answer, so the API key never goes to another origin.
 * The answer is read whole before it is handed on (one over MAX_ANSWER_BYTES fails). Takes piecesBody bodies as
 * guardedFetch does. A failure to connect rejects with its cause (the policy's refusal, or the socket's error with
 * its code), as guardedFetch's does, so the client tells them apart.
 */
export function plainFetch(options: { allowPrivate?: () => boolean } = {}): typeof fetch {
  const allowPrivate = options.allowPrivate ?? (() => privateEndpointsAllowed());
  const agent = new Agent({ connect: { lookup: guardedLookup({ allowPrivate }) } });
  return async (input, init) => {
    const request = typeof input === "string" || input instanceof URL ? null : new Request(input, init);
    const url = new URL(request ? request.url : String(input));
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new TypeError(`Only http(s) endpoints can be called, not ${url.protocol}`);
    assertLiteralHostAllowed(url, allowPrivate());
    const method = (request?.method ?? init?.method ?? "GET").toUpperCase();
    const pieces = piecesOf(init?.body);
    const headers = new Headers(request?.headers ?? init?.headers);
    // undici counts the body's length itself.
    if (pieces) headers.delete("content-length");
    const body =
      method === "GET" || method === "HEAD"
        ? undefined
        : pieces
          ? Buffer.concat(pieces)
          : request
            ? Buffer.from(await request.arrayBuffer())
            : (init?.body ?? undefined);
    try {
      const response = await undiciFetch(url, {
        method,
        headers: [...headers],
        body,
        signal: request?.signal ?? init?.signal ?? undefined,
        redirect: "manual",
        dispatcher: agent,
        ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
      } as Parameters<typeof undiciFetch>[1]);
      return await readWhole(response as unknown as Response);
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (error instanceof TypeError && error.message === "fetch failed" && cause instanceof Error) throw cause;
      throw error;
    }
  };
}

/**
 * The response with its body read in full here, so a connection that breaks mid-answer or an answer over
 * MAX_ANSWER_BYTES fails the fetch itself, as a network error, as guardedFetch's does (the SDK reads a chat
 * completion whole anyway).
 */
async function readWhole(response: Response): Promise<Response> {
  if (!response.body) return response;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error(`The answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB.`);
    }
    chunks.push(read.value);
  }
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  return new Response(Buffer.concat(chunks, bytes), init);
}
