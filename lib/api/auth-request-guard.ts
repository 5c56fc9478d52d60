import { ValidationError, isAppError } from "../errors";
import { hasNulByte, NUL_BYTE_MESSAGE, rejectNulBytes } from "../validation/nul-bytes";
import { errorResponse, rejectNulBytesInUrl } from "./handler";
import { AUTH_BODY_LIMIT, readBoundedBody } from "./request-body";

/**
 * What every request to better-auth's own routes (/api/auth/*, the paths it does not know included) goes through
 * before better-auth sees it: the body read once, bounded (more than AUTH_BODY_LIMIT is a 413 naming it, refused
 * by its `Content-Length` or as soon as the counted bytes pass the limit, so an anonymous caller cannot make the
 * server hold a large body), and the NUL-byte and nesting checks of withActor and parseJsonBody, since better-auth
 * parses its bodies itself: a NUL in `update-user`'s name reached PostgreSQL (a 500) and deep JSON would reach
 * better-auth's parser. The answer when refused, else the request to hand to better-auth, its body replayed
 * from the bytes read.
 */
export async function guardedAuthRequest(request: Request): Promise<Response | Request> {
  try {
    rejectNulBytesInUrl(request, {});
    if (hasNulByte(safeDecode(new URL(request.url).pathname)))
      throw new ValidationError(`The path: ${NUL_BYTE_MESSAGE}.`);
    if (request.method === "GET" || request.method === "HEAD" || !request.body) return request;
    const bytes = await readBoundedBody(request, AUTH_BODY_LIMIT);
    rejectNulBytesInBody(new TextDecoder().decode(bytes), request.headers.get("content-type"));
    return new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: bytes,
      signal: request.signal,
    });
  } catch (error) {
    if (isAppError(error)) return errorResponse(error);
    throw error;
  }
}

function rejectNulBytesInBody(text: string, contentType: string | null): void {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return; // better-auth answers malformed JSON itself
    }
    rejectNulBytes(body);
  } else if (type === "application/x-www-form-urlencoded") {
    rejectNulBytes(Object.fromEntries(new URLSearchParams(text)));
  } else if (hasNulByte(text)) {
    throw new ValidationError(`The request body: ${NUL_BYTE_MESSAGE}.`);
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
