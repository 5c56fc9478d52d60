import { z } from "zod";
import type { Actor } from "../auth/actor";
import type { PrismaClient } from "../generated/prisma/client";
import { actorFromRequest } from "../auth/request-actor";
import { isAppError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { observed, logRequestActor } from "../observability/http";
import { log } from "../observability/logger";
import { hasNulByte, NUL_BYTE_MESSAGE, rejectNulBytes } from "../validation/nul-bytes";
import { assertSessionRequestAllowed } from "./session-request-guard";
import { JSON_BODY_LIMIT, readBoundedText } from "./request-body";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import { appContext } from "../app-context/app-context";
import { searchParamsObject } from "../videos/video-filter";
import {
  type ApiAccess,
  type DescribedHandler,
  type RouteDescription,
  type RouteInput,
  schemaOf,
} from "./openapi/route-spec";

export function jsonError(status: number, code: string, message: string, details?: Record<string, unknown>): Response {
  return Response.json({ error: { code, message, ...(details ? { details } : {}) } }, { status });
}

/**
 * Maps thrown errors to the API's JSON error shape; unknown errors are logged, not leaked. The app's own errors are
 * recognised by the mark they carry (isAppError), so one thrown by another server bundle's copy of lib/errors.ts
 * keeps its status and message.
 */
export function errorResponse(error: unknown): Response {
  if (isAppError(error)) return jsonError(error.status, error.code, error.message, error.details);
  if (error instanceof z.ZodError) {
    return jsonError(
      400,
      "invalid_request",
      // A union's message already names the paths inside it (lib/validation/keyed-union.ts).
      error.issues
        .map((i) =>
          i.code === "invalid_union" && i.path.length === 0 && i.message !== "Invalid input"
            ? i.message
            : `${i.path.join(".") || "input"}: ${i.message}`,
        )
        .join("; "),
    );
  }
  log().error({ err: error }, "unhandled error in an API route");
  return jsonError(500, "internal_error", "Something went wrong on the server.");
}

/** A route's path parameters as Next.js hands them over, by the names its folders give (`[projectId]`). */
export type PathParams = Record<string, string>;
type RouteContext = { params: Promise<PathParams> };
/** A route handler as Next.js calls it (the context is optional: tests call parameterless routes with the request alone). */
type RouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;

/** The handler with its route's description on it, where the OpenAPI document reads it (lib/api/openapi/route-modules.ts). */
function described(handler: RouteHandler, api: RouteDescription, access: ApiAccess): RouteHandler & DescribedHandler {
  return Object.assign(handler, { apiRoute: { ...api, access } });
}

/**
 * What every /api/v1 route with a caller does before its handler: authenticates (session cookie or API key),
 * refuses cross-site requests that ride on the session cookie (lib/api/session-request-guard.ts; the body kind
 * the route reads is the one content type such a request may send), turns errors into JSON, refuses a NUL byte
 * in a path segment (404: no id holds one) or a query parameter (400) before any query sees it, and logs and
 * measures the request with its request id (lib/observability/http.ts). withActor, withProject and withProjectOf
 * build on it, each reading the route's input (readRouteInput) once the caller may call it. It builds the application
 * context first (lib/app-context/app-context.ts): a route bundle's copy of lib/ reads the catalogues it provides.
 */
export function authenticatedRoute(
  api: RouteDescription,
  handler: (request: Request, actor: Actor, params: PathParams) => Promise<Response>,
) {
  const route = observed(async (request: Request, context: RouteContext): Promise<Response> => {
    try {
      appContext();
      const { actor, via } = await actorFromRequest(request.headers);
      if (!actor) throw new UnauthorizedError();
      logRequestActor({ userId: actor.userId, via });
      if (via === "session") assertSessionRequestAllowed(request, api.body?.kind ?? "json");
      const params = await context.params;
      rejectNulBytesInUrl(request, params);
      return await handler(request, actor, params);
    } catch (error) {
      return errorResponse(error);
    }
  });
  return described(route, api, "member");
}

/**
 * What a route's description says the wrapper reads for the handler: the query, parsed with its schema
 * (`schema.parse(searchParamsObject(…))`: an empty value is left out, a repeated one counts once), then a JSON body
 * (parseJsonBody, or parseOptionalJsonBody for an optional one). A body or query the route reads itself
 * (`readBy: "handler"`, multipart, bytes) is left to the handler. A schema built from the tasks is built from the
 * request's catalogue (its project's tasks; the built-in ones for a route outside a project).
 */
export async function readRouteInput<D extends RouteDescription>(
  request: Request,
  api: D,
  catalogue: TaskCatalogue,
): Promise<RouteInput<D>> {
  const query =
    api.query && !("readBy" in api.query)
      ? schemaOf(api.query, catalogue).parse(searchParamsObject(new URL(request.url).searchParams))
      : undefined;
  const json = api.body?.kind === "json" && !api.body.readBy ? api.body : undefined;
  const limit = json?.maxBytes ?? JSON_BODY_LIMIT;
  const body = json
    ? await (json.optional ? parseOptionalJsonBody : parseJsonBody)(request, schemaOf(json.schema, catalogue), {
        limit,
      })
    : undefined;
  return { query, body } as RouteInput<D>;
}

/**
 * Wraps an /api/v1 route handler that acts for the caller alone (their own keys, their projects): everything
 * authenticatedRoute does, then the handler gets the query and JSON body `api` declares, parsed, and the database
 * (route handlers never import it). `api` is the route's description for the OpenAPI document. Permission checks stay
 * inside the lib functions the handler calls.
 */
export function withActor<D extends RouteDescription>(
  api: D,
  handler: (
    request: Request,
    actor: Actor,
    params: PathParams,
    input: RouteInput<D>,
    prisma: PrismaClient,
  ) => Promise<Response>,
) {
  return authenticatedRoute(api, async (request, actor, params) => {
    const { catalogue, prisma } = appContext();
    return handler(request, actor, params, await readRouteInput(request, api, catalogue), prisma);
  });
}

/**
 * Wraps a public /api/v1 route handler, one with no caller (the OpenAPI document): errors as JSON, a NUL byte in
 * the URL refused, the request logged and measured, as on every route; it reads no body or query of its own.
 */
export function withoutActor(
  api: Omit<RouteDescription, "body" | "query">,
  handler: (request: Request) => Promise<Response>,
) {
  const route = observed(async (request: Request, context: RouteContext | undefined): Promise<Response> => {
    try {
      appContext();
      rejectNulBytesInUrl(request, (await context?.params) ?? {});
      return await handler(request);
    } catch (error) {
      return errorResponse(error);
    }
  });
  return described(route, api, "public");
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
    if (hasNulByte(name) || hasNulByte(value))
      throw new ValidationError(`${hasNulByte(name) ? JSON.stringify(name) : name}: ${NUL_BYTE_MESSAGE}.`);
  }
}

/** How much of a JSON body is read: `limit` bytes, JSON_BODY_LIMIT unless the route's description says more. */
type JsonBodyOptions = { limit?: number };

/**
 * The request's JSON body parsed with `schema`: read bounded (more than the limit is a 413 naming it, before the
 * rest is read), then refused with a 400 when it is not JSON or holds a NUL byte.
 */
export async function parseJsonBody<T extends z.ZodType>(
  request: Request,
  schema: T,
  options: JsonBodyOptions = {},
): Promise<z.output<T>> {
  const body = parseJsonText(await readBoundedText(request, options.limit ?? JSON_BODY_LIMIT));
  rejectNulBytes(body);
  return schema.parse(body);
}

/** As parseJsonBody, for bodies that may be left out (a DELETE with only defaults): an empty body parses as `{}`. */
export async function parseOptionalJsonBody<T extends z.ZodType>(
  request: Request,
  schema: T,
  options: JsonBodyOptions = {},
): Promise<z.output<T>> {
  const text = await readBoundedText(request, options.limit ?? JSON_BODY_LIMIT);
  if (text.trim() === "") return schema.parse({});
  const body = parseJsonText(text);
  rejectNulBytes(body);
  return schema.parse(body);
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ValidationError("The request body must be JSON.");
  }
}
