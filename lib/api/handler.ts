import { z } from "zod";
import type { Actor } from "../auth/actor";
import { actorFromHeaders } from "../auth/request-actor";
import { AppError, UnauthorizedError, ValidationError } from "../errors";
import { rejectNulBytes } from "../validation/nul-bytes";

export function jsonError(status: number, code: string, message: string, details?: Record<string, unknown>): Response {
  return Response.json({ error: { code, message, ...(details ? { details } : {}) } }, { status });
}

/** Maps thrown errors to the API's JSON error shape; unknown errors are logged, not leaked. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) return jsonError(error.status, error.code, error.message, error.details);
  if (error instanceof z.ZodError) {
    return jsonError(400, "invalid_request", error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
  }
  console.error("Unhandled error in API route:", error);
  return jsonError(500, "internal_error", "Something went wrong on the server.");
}

type RouteContext<P> = { params: Promise<P> };

/**
 * Wraps an /api/v1 route handler: authenticates (session cookie or API key), turns errors into
 * JSON. Permission checks stay inside the lib functions the handler calls.
 */
export function withActor<P = Record<string, never>>(
  handler: (request: Request, actor: Actor, params: P) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const actor = await actorFromHeaders(request.headers);
      if (!actor) throw new UnauthorizedError();
      return await handler(request, actor, await context.params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export async function parseJsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.output<T>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new ValidationError("The request body must be JSON.");
  }
  rejectNulBytes(body);
  return schema.parse(body);
}
