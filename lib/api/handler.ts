import { z } from "zod";
import type { Actor } from "../auth/actor";
import { actorFromRequest } from "../auth/request-actor";
import { AppError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { observed, logRequestActor } from "../observability/http";
import { log } from "../observability/logger";
import { hasNulByte, NUL_BYTE_MESSAGE, rejectNulBytes } from "../validation/nul-bytes";
import { assertSessionRequestAllowed, type BodyKind } from "./session-request-guard";
import { prisma } from "../db/prisma";
import { ensureRubricTasks, isRubricTaskId } from "../rubrics/rubric-registry";

export function jsonError(status: number, code: string, message: string, details?: Record<string, unknown>): Response {
  return Response.json({ error: { code, message, ...(details ? { details } : {}) } }, { status });
}

/** Maps thrown errors to the API's JSON error shape; unknown errors are logged, not leaked. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) return jsonError(error.status, error.code, error.message, error.details);
  if (error instanceof z.ZodError) {
    return jsonError(400, "invalid_request", error.issues.map((i) => `${i.path.join(".") || "input"}: ${issueMessage(i)}`).join("; "));
  }
  log().error({ err: error }, "unhandled error in an API route");
  return jsonError(500, "internal_error", "Something went wrong on the server.");
}

/** An issue's message; a list of options leaves out projects' rubric task ids (each project's own business). */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code !== "invalid_value" || !issue.values.some((v) => typeof v === "string" && isRubricTaskId(v))) return issue.message;
  const shown = issue.values.filter((v) => !(typeof v === "string" && isRubricTaskId(v)));
  return `Invalid option: expected one of ${shown.map((v) => JSON.stringify(v)).join("|")}`;
}

type RouteContext<P> = { params: Promise<P> };

/**
 * Wraps an /api/v1 route handler: authenticates (session cookie or API key), refuses cross-site
 * requests that ride on the session cookie (lib/api/session-request-guard.ts), turns errors into JSON,
 * refuses a NUL byte in a path segment (404: no id holds one) or a query parameter (400) before any
 * query sees it, and logs and measures the request with its request id (lib/observability/http.ts).
 * `body` says what the route reads from a request body (default JSON). Permission checks stay inside
 * the lib functions the handler calls.
 */
export function withActor<P = Record<string, never>>(handler: (request: Request, actor: Actor, params: P) => Promise<Response>, options: { body?: BodyKind } = {}) {
  return observed(async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const { actor, via } = await actorFromRequest(request.headers);
      if (!actor) throw new UnauthorizedError();
      logRequestActor({ userId: actor.userId, via });
      // Every project's rubric tasks are in the registry before a handler reads it (a second old at most).
      await ensureRubricTasks(prisma);
      if (via === "session") assertSessionRequestAllowed(request, options.body ?? "json");
      const params = await context.params;
      rejectNulBytesInUrl(request, params);
      return await handler(request, actor, params);
    } catch (error) {
      return errorResponse(error);
    }
  });
}

/**
 * PostgreSQL text cannot hold U+0000, so an id or a filter with one would fail its query with a 500.
 * Checked once here for every route: a path segment is an id that names nothing (404), a query
 * parameter is bad input (400, naming it).
 */
export function rejectNulBytesInUrl(request: Request, params: unknown): void {
  const segments = params && typeof params === "object" ? Object.values(params as Record<string, unknown>).flat() : [];
  if (segments.some((segment) => typeof segment === "string" && hasNulByte(segment))) throw new NotFoundError();
  for (const [name, value] of new URL(request.url).searchParams) {
    if (hasNulByte(name) || hasNulByte(value)) throw new ValidationError(`${hasNulByte(name) ? JSON.stringify(name) : name}: ${NUL_BYTE_MESSAGE}.`);
  }
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
