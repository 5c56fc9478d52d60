import { AppError, ValidationError } from "../errors";
import { hasNulByte, NUL_BYTE_MESSAGE, rejectNulBytes } from "../validation/nul-bytes";
import { errorResponse, rejectNulBytesInUrl } from "./handler";

/**
 * The NUL-byte and nesting checks of withActor and parseJsonBody, for better-auth's own routes
 * (/api/auth/*), which parse their bodies themselves: a NUL in `update-user`'s name reached PostgreSQL
 * (a 500) and deep JSON would reach better-auth's parser. The answer when refused (400), else null.
 */
export async function refusedAuthRequest(request: Request): Promise<Response | null> {
  try {
    rejectNulBytesInUrl(request, {});
    if (hasNulByte(safeDecode(new URL(request.url).pathname))) throw new ValidationError(`The path: ${NUL_BYTE_MESSAGE}.`);
    if (request.method === "GET" || request.method === "HEAD" || !request.body) return null;
    const text = await request.clone().text();
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type === "application/json") {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return null; // better-auth answers malformed JSON itself
      }
      rejectNulBytes(body);
    } else if (type === "application/x-www-form-urlencoded") {
      rejectNulBytes(Object.fromEntries(new URLSearchParams(text)));
    } else if (hasNulByte(text)) {
      throw new ValidationError(`The request body: ${NUL_BYTE_MESSAGE}.`);
    }
    return null;
  } catch (error) {
    if (error instanceof AppError) return errorResponse(error);
    throw error;
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
