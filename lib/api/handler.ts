import { z } from "zod";
import type { Actor } from "../auth/actor";
import { actorFromRequest } from "../auth/request-actor";
import { AppError, UnauthorizedError, ValidationError } from "../errors";
import { observed, logRequestActor } from "../observability/http";
import { log } from "../observability/logger";
import { rejectNulBytes } from "../validation/nul-bytes";
import { assertSessionRequestAllowed, type BodyKind } from "./session-request-guard";

export function jsonError(status: number, code: string, message: string, details?: Record<string, unknown>): Response {
  return Response.json({ error: { code, message, ...(details ? { details } : {}) } }, { status });
}

/** Maps thrown errors to the API's JSON error shape; unknown errors are logged, not leaked. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) return jsonError(error.status, error.code, error.message, error.details);
  if (error instanceof z.ZodError) {
    return jsonError(400, "invalid_request", error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
  }
  log().error({ err: error }, "unhandled error in an API route");
  return jsonError(500, "internal_error", "Something went wrong on the server.");
}

type RouteContext<P> = { params: Promise<P> };

/**
 * Wraps an /api/v1 route handler: authenticates (session cookie or API key), refuses cross-site
 * requests that ride on the session cookie (lib/api/session-request-guard.ts), turns errors into JSON,
 * and logs and measures the request with its request id (lib/observability/http.ts).
 * `body` says what the route reads from a request body (default JSON). Permission checks stay inside
 * the lib functions the handler calls.
 */
export function withActor<P = Record<string, never>>(
  handler: (request: Request, actor: Actor, params: P) => Promise<Response>,
  options: { body?: BodyKind } = {},
) {
  return observed(async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const { actor, via } = await actorFromRequest(request.headers);
      if (!actor) throw new UnauthorizedError();
      logRequestActor({ userId: actor.userId, via });
      if (via === "session") assertSessionRequestAllowed(request, options.body ?? "json");
      return await handler(request, actor, await context.params);
    } catch (error) {
      return errorResponse(error);
    }
  });
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

/** As parseJsonBody, for bodies that may be left out (a DELETE with only defaults): an empty body parses as `{}`. */
export async function parseOptionalJsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.output<T>> {
  const text = await request.text();
  if (text.trim() === "") return schema.parse({});
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ValidationError("The request body must be JSON.");
  }
  rejectNulBytes(body);
  return schema.parse(body);
}
