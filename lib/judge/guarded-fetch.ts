import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { PassThrough, Readable } from "node:stream";
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
  const agents = guardedAgents(lookup);
  return async (input, init) => {
    const request = await checkedRequest(input, init, allowPrivate());
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();

    return new Promise<Response>((resolve, reject) => {
      const outgoing = sendRequest(request, agents, lookup, signal, (incoming) => {
        const { init, stream } = answerParts(incoming, request.method);
        if (!stream) return resolve(new Response(null, init));
        if (!isJson(incoming.headers["content-type"] ?? null))
          return resolve(new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, init));
        readJson(stream, init).then(resolve, reject);
      });
      outgoing.on("error", reject);
    });
  };
}

/** A fetch call's request as guardedFetch sends it: the URL parsed, the body's length in its headers. */
export type CheckedRequest = OutgoingRequest & { parsedUrl: URL };

/**
 * A fetch call's request, checked against the endpoint policy before anything is sent: http(s) only, and a host
 * written as an IP address allowed (a name is checked when it is resolved, by guardedLookup).
 */
export async function checkedRequest(
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
  allowPrivate: boolean,
): Promise<CheckedRequest> {
  const request = await outgoingRequest(input, init);
  const parsedUrl = new URL(request.url);
  if (parsedUrl.protocol !== "http:" && parsedUrl.protocol !== "https:")
    throw new TypeError(`Only http(s) endpoints can be called, not ${parsedUrl.protocol}`);
  assertLiteralHostAllowed(parsedUrl, allowPrivate);
  const { body, headers } = request;
  if (body) headers["content-length"] = String(body.reduce((total, piece) => total + piece.length, 0));
  return { ...request, parsedUrl };
}

/** The keep-alive agents of a guarded fetch, one per protocol, each resolving hosts through the policy's lookup. */
export function guardedAgents(lookup: LookupFunction): Record<"http:" | "https:", http.Agent> {
  return {
    "http:": new http.Agent({ keepAlive: true, lookup } as http.AgentOptions),
    "https:": new https.Agent({ keepAlive: true, lookup } as https.AgentOptions),
  };
}

/** Sends a checked request through the agents (never following a redirect); `onAnswer` gets the answer's head. */
export function sendRequest(
  request: CheckedRequest,
  agents: Record<"http:" | "https:", http.Agent>,
  lookup: LookupFunction,
  signal: AbortSignal | undefined,
  onAnswer: (incoming: http.IncomingMessage) => void,
): http.ClientRequest {
  const { parsedUrl: url } = request;
  const transport = url.protocol === "https:" ? https : http;
  const outgoing = transport.request(
    url,
    {
      method: request.method,
      headers: request.headers,
      agent: agents[url.protocol as "http:" | "https:"],
      lookup,
      signal,
    },
    onAnswer,
  );
  // A body in pieces goes out in one write of all of them (writev), never copied into one buffer.
  outgoing.cork();
  for (const piece of request.body ?? []) outgoing.write(piece);
  outgoing.end();
  return outgoing;
}

/** What an answer's Response is made of: its status and headers, and its body decoded (null when it has none). */
export interface AnswerParts {
  init: { status: number; statusText: string; headers: [string, string][] };
  stream: Readable | null;
}

export function answerParts(incoming: http.IncomingMessage, method: string): AnswerParts {
  const status = incoming.statusCode ?? 0;
  let stream: Readable = incoming;
  const encoding = incoming.headers["content-encoding"]?.trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : null;
  if (decoder) {
    stream = incoming.pipe(decoder);
    incoming.on("error", (error) => decoder.destroy(error));
  }
  // The answer's headers as name–value pairs, which the Response takes as they are (node:http gives lower-case
  // names); a decoded body's encoding and length no longer apply.
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || (decoder && (name === "content-encoding" || name === "content-length"))) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.push([name, v]);
  }
  const init = {
    status: status >= 200 && status <= 599 ? status : 502,
    statusText: incoming.statusMessage ?? "",
    headers,
  };
  if (method === "HEAD" || [101, 103, 204, 205, 304].includes(status)) {
    incoming.resume();
    return { init, stream: null };
  }
  return { init, stream };
}

/** The pieces of the bodies made by piecesBody, by the empty array that stands for them. */
const bodyPieces = new WeakMap<Uint8Array, Uint8Array[]>();

/** The pieces a piecesBody stand-in carries (undefined for any other body). */
export function piecesOf(body: unknown): Uint8Array[] | undefined {
  return body instanceof Uint8Array ? bodyPieces.get(body) : undefined;
}

/**
 * A request body of several pieces that guardedFetch writes as they are. The SDK passes a typed array on untouched,
 * so this is an empty one that guardedFetch looks up; an iterator of the pieces (what the SDK takes otherwise) it
 * turns into a web stream, which guardedFetch then reads back, some 3% of the worker's CPU at 256 calls in flight
 * (`npm run bench:judge -- --concurrency 256`). Only for a client whose fetch is guardedFetch: any other fetch
 * would send it empty.
 */
export function piecesBody(pieces: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const stand = new Uint8Array(0);
  bodyPieces.set(stand, pieces);
  return stand;
}

/**
 * The method, URL, headers and body bytes of a fetch call. The OpenAI SDK sends a URL string and a JSON string:
 * those are taken as they are. A web Request would turn the body into a stream only to read it back, which for a
 * call with 64 frames (VBench-2.0's, some 100 KB and more) cost the worker more than a millisecond a call.
 * The judge's client sends its bodies as a stream of pieces with their `content-length` (see
 * chatCompletionPieces): the pieces are kept as they are, since joining a quarter of a megabyte into a fresh
 * buffer costs about a millisecond here, most of it the new memory's page faults.
 * Anything else (a Request, a stream without a length, a form) goes through a Request.
 */
interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Uint8Array[] | null;
}

async function outgoingRequest(
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
): Promise<OutgoingRequest> {
  const raw = init?.body;
  const plainUrl = typeof input === "string" || input instanceof URL;
  const pieces = raw instanceof Uint8Array ? bodyPieces.get(raw) : undefined;
  if (pieces && plainUrl) {
    const headers = plainHeaders(init?.headers);
    delete headers["content-length"];
    return { method: (init?.method ?? "POST").toUpperCase(), url: String(input), headers, body: pieces };
  }
  const plainBody =
    raw === undefined ||
    raw === null ||
    typeof raw === "string" ||
    raw instanceof Uint8Array ||
    raw instanceof ArrayBuffer;
  const method = (init?.method ?? "GET").toUpperCase();
  if (plainUrl && plainBody) {
    const headers = plainHeaders(init?.headers);
    if (typeof raw === "string" && !("content-type" in headers)) headers["content-type"] = "text/plain;charset=UTF-8";
    const noBody = method === "GET" || method === "HEAD" || raw === undefined || raw === null;
    const body = noBody
      ? null
      : typeof raw === "string"
        ? Buffer.from(raw, "utf8")
        : raw instanceof ArrayBuffer
          ? Buffer.from(raw)
          : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return { method, url: String(input), headers, body: body ? [body] : null };
  }
  const headers = plainHeaders(init?.headers);
  const length = Number(headers["content-length"] ?? NaN);
  if (plainUrl && raw instanceof ReadableStream && Number.isSafeInteger(length)) {
    const pieces: Uint8Array[] = [];
    let received = 0;
    const reader = (raw as ReadableStream<Uint8Array>).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pieces.push(read.value);
      received += read.value.length;
    }
    if (received !== length)
      throw new TypeError(`The request body has ${received} bytes, not the ${length} its content-length says.`);
    delete headers["content-length"];
    return { method, url: String(input), headers, body: pieces };
  }
  const request = new Request(input, init);
  return {
    method: request.method,
    url: request.url,
    headers: plainHeaders(request.headers),
    body: request.method === "GET" || request.method === "HEAD" ? null : [Buffer.from(await request.arrayBuffer())],
  };
}

/**
 * A call's headers as node:http takes them, by lower-case name. The SDK's Headers object is read as it is, not copied
 * into another first (which validated and sorted its dozen headers again on every call).
 */
function plainHeaders(given: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  (given instanceof Headers ? given : new Headers(given)).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** A JSON answer larger than this is handed on as a stream (from its first bytes) instead of read in full first. */
const MAX_BUFFERED_JSON_BYTES = 16 * 1024 * 1024;

function isJson(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

/**
 * A JSON answer (a chat completion, an error), read in full as node:stream chunks and handed on as bytes. The SDK
 * reads such an answer whole anyway; a web stream around the socket (Readable.toWeb) and undici reading it back
 * cost the worker some 4% of its CPU at 256 calls in flight (`npm run bench:judge -- --concurrency 256`). One
 * over MAX_BUFFERED_JSON_BYTES goes on as a stream, its bytes so far first. The connection closing before the
 * answer ends fails the fetch, as the SDK's own reading of the body would have.
 */
function readJson(stream: Readable, init: ResponseInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes <= MAX_BUFFERED_JSON_BYTES) return;
      stream.off("data", onData).off("end", onEnd).off("error", reject).off("close", onClose);
      stream.pause();
      const rest = new PassThrough();
      for (const piece of chunks) rest.write(piece);
      stream.on("error", (error) => rest.destroy(error));
      stream.pipe(rest);
      resolve(new Response(Readable.toWeb(rest) as ReadableStream<Uint8Array>, init));
    };
    const onEnd = () => resolve(new BufferedResponse(Buffer.concat(chunks, bytes), init));
    const onClose = () => reject(new Error("The connection closed before the answer ended."));
    stream.on("data", onData).once("end", onEnd).once("error", reject).once("close", onClose);
  });
}

/** A Response whose body is bytes already read: text() and json() decode them, with no stream in between. */
export class BufferedResponse extends Response {
  readonly #bytes: Buffer<ArrayBuffer>;
  #used = false;
  #stream: ReadableStream<Uint8Array> | null = null;

  constructor(bytes: Buffer<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  #take(): Buffer<ArrayBuffer> {
    if (this.#used || this.#stream) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#bytes;
  }

  override async text(): Promise<string> {
    return this.#take().toString("utf8");
  }

  override async json(): Promise<unknown> {
    return JSON.parse(this.#take().toString("utf8"));
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async blob(): Promise<Blob> {
    return new Blob([this.#take()], { type: this.headers.get("content-type") ?? "" });
  }

  override async formData(): Promise<FormData> {
    return new Response(this.#take(), { headers: this.headers }).formData();
  }

  override clone(): Response {
    if (this.#used || this.#stream) throw new TypeError("Response.clone: Body has already been consumed.");
    return new BufferedResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }

  /** The body as a stream, for a reader that wants one (the SDK does not); text() and the rest refuse after it. */
  bodyStream(): ReadableStream<Uint8Array> {
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    return (this.#stream ??= new Response(this.#bytes).body!);
  }

  isBodyUsed(): boolean {
    return this.#used || (this.#stream?.locked ?? false);
  }
}
// `body` and `bodyUsed` are accessors of Response; TypeScript's DOM types declare them as properties, so they are
// redefined here rather than in the class.
Object.defineProperties(BufferedResponse.prototype, {
  body: {
    get(this: BufferedResponse) {
      return this.bodyStream();
    },
  },
  bodyUsed: {
    get(this: BufferedResponse) {
      return this.isBodyUsed();
    },
  },
});
