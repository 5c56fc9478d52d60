import { appOrigins } from "../config/app-url";
import { AppError } from "../errors";

/** What a route reads from the request body, and so the one content type a cookie-session caller may send. */
export type BodyKind = "json" | "multipart" | "bytes";

const CONTENT_TYPE: Record<BodyKind, string> = {
  json: "application/json",
  multipart: "multipart/form-data",
  bytes: "application/octet-stream",
};

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export class CrossOriginRequestError extends AppError {
  constructor() {
    super(
      403,
      "cross_origin",
      "Requests that change data with a session cookie must come from the app's own pages (same Origin). Scripts send an API key (Authorization: Bearer <key>) instead.",
    );
  }
}

export class UnsupportedContentTypeError extends AppError {
  constructor(expected: string, received: string | null) {
    super(415, "unsupported_media_type", `Send the body as ${expected}${received ? `, not ${received}` : ""}.`);
  }
}

/**
 * The cross-site request forgery guard for requests authenticated by the session cookie (API-key
 * requests carry no ambient credential and skip it). Browsers attach the cookie to requests that any
 * page on the same site makes, including another port of the same host, and a form or a no-cors
 * fetch can POST text/plain, urlencoded or multipart bodies without asking. So a request that changes
 * data must show the app's own Origin (or `Sec-Fetch-Site: same-origin` when a browser sends no
 * Origin); that is the defence, since a cross-site form can send multipart too. On top, its body must
 * be the one type the route reads: JSON, which no form can send, except on the multipart and raw-bytes
 * upload routes. Reads (GET, HEAD) change nothing and are not checked.
 */
export function assertSessionRequestAllowed(request: Request, body: BodyKind): void {
  if (!isStateChanging(request)) return;
  if (!isSameOriginRequest(request)) throw new CrossOriginRequestError();
  const received = mediaType(request.headers.get("content-type"));
  const expected = CONTENT_TYPE[body];
  if (received === null ? declaresBody(request.headers) : received !== expected)
    throw new UnsupportedContentTypeError(expected, received);
}

export function isStateChanging(request: Request): boolean {
  return STATE_CHANGING.has(request.method.toUpperCase());
}

/**
 * Whether a request comes from the app's own pages: its Origin is the app's (APP_URL, its loopback twin,
 * the URL it was sent to, or the host the browser addressed), or a browser that sent no Origin says
 * `Sec-Fetch-Site: same-origin`. The API's CSRF guard and proxy.ts's server-action guard share it.
 */
export function isSameOriginRequest(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return request.headers.get("sec-fetch-site") === "same-origin";
  if (appOrigins().includes(origin) || origin === new URL(request.url).origin) return true;
  // The host the browser addressed (as Next.js checks server actions): a page can only show the same
  // host in its Origin if it is served by this app, since a browser sets both headers itself.
  const host = (request.headers.get("x-forwarded-host") ?? request.headers.get("host"))
    ?.split(",")[0]
    ?.trim()
    .toLowerCase();
  try {
    return host !== undefined && host !== "" && new URL(origin).host === host;
  } catch {
    return false; // "null" (sandboxed frames, file: pages) and anything unparsable
  }
}

/** `Multipart/Form-Data; boundary=x` → `multipart/form-data`; null when absent or empty. */
function mediaType(header: string | null): string | null {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  return type ? type : null;
}

function declaresBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  return headers.has("transfer-encoding") || (length !== null && length.trim() !== "0");
}
