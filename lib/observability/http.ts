import { randomUUID } from "node:crypto";
import { contextLogger, rootLogger, withLogger } from "./logger";
import { observeHttpRequest } from "./metrics";

/** An incoming X-Request-Id is kept when it is a sane token (a proxy's or a client's id), else replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{8,128}$/;

export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get("x-request-id")?.trim();
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

type Params = Record<string, string | string[] | undefined>;

/**
 * The route's pattern, for logs and metric labels without one series per id: each path segment that
 * is a route parameter's value is replaced by the parameter's name (`/api/v1/videos/[id]/file`).
 */
export function routePattern(pathname: string, params: Params): string {
  const segments = pathname.split("/");
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      // A catch-all: its values are the path's last segments.
      const tail = value.map(encodeURIComponent);
      const start = segments.length - tail.length;
      if (start > 0 && segments.slice(start).join("/") === tail.join("/"))
        segments.splice(start, tail.length, `[...${name}]`);
    } else if (typeof value === "string") {
      const index = segments.lastIndexOf(encodeURIComponent(value));
      if (index > 0) segments[index] = `[${name}]`;
    }
  }
  return segments.join("/");
}

/**
 * Wraps an API route handler: one JSON log line per request (method, route, path, status, duration,
 * request id), the request id in the `X-Request-Id` response header and in every line logged while
 * handling it (log()), and the request in the HTTP latency histogram of GET /api/metrics.
 */
export function observed<C>(
  handler: (request: Request, context: C) => Promise<Response>,
  /** quiet: log successful requests at debug level (health checks and metric scrapes come every few seconds). */
  options: { quiet?: boolean } = {},
) {
  // The context is optional for callers (tests call parameterless routes with the request alone).
  return async (request: Request, context?: C): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFrom(request.headers);
    const pathname = new URL(request.url).pathname;
    const params = ((await (context as { params?: Promise<Params> } | undefined)?.params?.catch(() => ({}))) ??
      {}) as Params;
    const route = routePattern(pathname, params);
    const logger = rootLogger().child({ requestId });
    let response: Response;
    try {
      response = await withLogger(logger, () => handler(request, context as C));
    } catch (error) {
      const durationMs = performance.now() - started;
      logger.error(
        { method: request.method, route, path: pathname, status: 500, durationMs: round(durationMs), err: error },
        "request failed",
      );
      observeHttpRequest(request.method, route, 500, durationMs / 1000);
      throw error;
    }
    const durationMs = performance.now() - started;
    response = withHeader(response, "x-request-id", requestId);
    const fields = {
      method: request.method,
      route,
      path: pathname,
      status: response.status,
      durationMs: round(durationMs),
    };
    if (options.quiet && response.status < 400) logger.debug(fields, "request");
    else logger.info(fields, "request");
    observeHttpRequest(request.method, route, response.status, durationMs / 1000);
    return response;
  };
}

/** Adds who is asking to the request's log lines, once the route knows. */
export function logRequestActor(fields: { userId: string; via: string }): void {
  contextLogger()?.setBindings(fields);
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // Immutable headers (a response from fetch): answer with a copy.
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
