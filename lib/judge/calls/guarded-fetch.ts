// The one fetch of every outbound call the app makes to an address a user wrote (judge endpoints and their probes,
// the Batch API, webhooks), on undici's connection pool from the calling process's own thread.
import { Agent, fetch as undiciFetch } from "undici";
import { assertLiteralHostAllowed, guardedLookup, privateEndpointsAllowed } from "../endpoints/endpoint-url-policy";

/**
 * How an answer is handed on:
 * - `whole`: read in full before the fetch resolves, one over MAX_WHOLE_ANSWER_BYTES failing the fetch (a chat
 *   completion is a few kilobytes, and the judge's client tells a failed fetch apart as a network error);
 * - `streamed`: a JSON answer is read in full up to MAX_BUFFERED_JSON_BYTES and handed on as a stream past that; any
 *   other answer is a stream from its first bytes (a Batch API output file, a webhook receiver's page).
 */
export type AnswerReading = "whole" | "streamed";

/** A `whole` answer larger than this fails the call. */
const MAX_WHOLE_ANSWER_BYTES = 64 * 1024 * 1024;

/** A `streamed` JSON answer larger than this is handed on as a stream (its bytes so far first). */
const MAX_BUFFERED_JSON_BYTES = 16 * 1024 * 1024;

/** The content codings undici's fetch decodes: an answer in these arrives decoded, so its encoding and length go. */
const DECODED_CODINGS = new Set(["gzip", "x-gzip", "deflate", "br"]);

/**
 * A fetch that enforces the endpoint URL policy (lib/judge/endpoints/endpoint-url-policy.ts):
 * - every connection resolves its host through guardedLookup (the connect-time SSRF check), so a name that
 *   resolves to a private address is refused where the socket connects, whatever it resolved to before;
 * - a host written as an IP address (which no lookup sees) is checked before anything is sent, and only http(s)
 *   URLs are called;
 * - redirects are never followed: a 3xx comes back as the answer, so an API key or a webhook's signature never goes
 *   to another origin.
 * A failure to connect rejects with its cause (the policy's refusal, or the socket's error with its code), so the
 * judge's client tells them apart. Takes piecesBody bodies.
 */
export function guardedFetch(options: { allowPrivate?: () => boolean; answers?: AnswerReading } = {}): typeof fetch {
  const allowPrivate = options.allowPrivate ?? (() => privateEndpointsAllowed());
  const answers = options.answers ?? "whole";
  const agent = new Agent({ connect: { lookup: guardedLookup({ allowPrivate }) } });
  return async (input, init) => {
    const response = await sendGuarded(agent, input, init, allowPrivate());
    switch (answers) {
      case "whole":
        return readWhole(response);
      case "streamed":
        return readStreamed(response);
      default: {
        const unknown: never = answers;
        throw new TypeError(`Unknown answer reading: ${String(unknown)}`);
      }
    }
  };
}

/** Sends one request through the guarded agent, after the checks the agent's lookup cannot make. */
async function sendGuarded(
  agent: Agent,
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
  allowPrivate: boolean,
): Promise<Response> {
  const request = typeof input === "string" || input instanceof URL ? null : new Request(input, init);
  const url = new URL(request ? request.url : String(input));
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`Only http(s) endpoints can be called, not ${url.protocol}`);
  assertLiteralHostAllowed(url, allowPrivate);
  const method = (request?.method ?? init?.method ?? "GET").toUpperCase();
  const pieces = piecesOf(init?.body);
  const headers = new Headers(request?.headers ?? init?.headers);
  // undici counts the body's length itself: a caller's own figure could only disagree with it.
  headers.delete("content-length");
  const body =
    method === "GET" || method === "HEAD"
      ? undefined
      : pieces
        ? Buffer.concat(pieces)
        : request
          ? Buffer.from(await request.arrayBuffer())
          : await sendableBody(init?.body, headers);
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
    return response as unknown as Response;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof TypeError && error.message === "fetch failed" && cause instanceof Error) throw cause;
    throw error;
  }
}

/**
 * A fetch body as this undici's fetch takes it. A form, a blob or search parameters (the Batch API's file upload) come
 * from the platform's own fetch classes, which another copy of undici does not recognise: they are encoded here as
 * the platform's fetch encodes them, a form's boundary in its content type.
 */
async function sendableBody(
  body: RequestInit["body"] | undefined,
  headers: Headers,
): Promise<string | Uint8Array | ReadableStream | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array || body instanceof ReadableStream) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const encoded = new Request("http://body.invalid/", { method: "POST", body });
  const type = encoded.headers.get("content-type");
  if (type && (body instanceof FormData || !headers.has("content-type"))) headers.set("content-type", type);
  return new Uint8Array(await encoded.arrayBuffer());
}

/** The answer's status and headers, without the encoding and length of a body undici has decoded. */
function answerInit(response: Response): ResponseInit {
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  const codings = response.headers.get("content-encoding")?.toLowerCase().split(",");
  if (!codings?.every((coding) => DECODED_CODINGS.has(coding.trim()))) return init;
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  return { ...init, headers };
}

/**
 * The response with its body read in full here, so a connection that breaks mid-answer or an answer over
 * MAX_WHOLE_ANSWER_BYTES fails the fetch itself, as a network error (the SDK reads a chat completion whole anyway).
 */
async function readWhole(response: Response): Promise<Response> {
  const init = answerInit(response);
  if (!response.body) return new Response(null, init);
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length;
    if (bytes > MAX_WHOLE_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error(`The answer is larger than ${MAX_WHOLE_ANSWER_BYTES / 1024 / 1024} MiB.`);
    }
    chunks.push(read.value);
  }
  return new Response(Buffer.concat(chunks, bytes), init);
}

/**
 * A JSON answer (an error, a batch's record) read in full up to MAX_BUFFERED_JSON_BYTES, so a connection that closes
 * before it ends fails the fetch; past that it goes on as a stream, its bytes so far first. Any other answer goes on
 * as a stream from the start.
 */
async function readStreamed(response: Response): Promise<Response> {
  const init = answerInit(response);
  if (!response.body) return new Response(null, init);
  if (!isJson(response.headers.get("content-type"))) return new Response(response.body, init);
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(read.value);
    bytes += read.value.length;
    if (bytes > MAX_BUFFERED_JSON_BYTES) return new Response(restAfter(chunks, reader), init);
  }
  return new Response(Buffer.concat(chunks, bytes), init);
}

/** A stream of the chunks already read, then the rest of the reader's. */
function restAfter(chunks: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks.splice(0)) controller.enqueue(chunk);
    },
    async pull(controller) {
      const read = await reader.read();
      if (read.done) controller.close();
      else controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function isJson(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

/** The pieces of the bodies made by piecesBody, by the empty array that stands for them. */
const bodyPieces = new WeakMap<Uint8Array, Uint8Array[]>();

/** The pieces a piecesBody stand-in carries (undefined for any other body). */
function piecesOf(body: unknown): Uint8Array[] | undefined {
  return body instanceof Uint8Array ? bodyPieces.get(body) : undefined;
}

/**
 * A request body of several pieces (the judge's chat completion, chatCompletionPieces) that guardedFetch sends as
 * one. The SDK passes a typed array on untouched, so this is an empty one that guardedFetch looks up. Only for a
 * client whose fetch is guardedFetch: any other fetch would send it empty.
 */
export function piecesBody(pieces: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const stand = new Uint8Array(0);
  bodyPieces.set(stand, pieces);
  return stand;
}
