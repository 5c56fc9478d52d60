import { rolesThatMay } from "../../authz/permissions";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { z } from "zod";
import { errorResponseSchema } from "./responses";
import { apiRoutesOf } from "./route-modules";
import {
  type ApiRoute,
  type HttpMethod,
  type RouteBody,
  type RouteModuleEntry,
  type RouteResponse,
  type SchemaSource,
  schemaOf,
} from "./route-spec";

/** A JSON Schema (draft 2020-12, the dialect OpenAPI 3.1 uses) as z.toJSONSchema writes it. */
export type JsonSchema = Record<string, unknown>;

type Operation = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  tags: { name: string }[];
  paths: Record<string, Partial<Record<HttpMethod, Operation>>>;
  components: Record<string, Record<string, unknown>>;
}

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The standard error answers, each a component every operation refers to. */
const ERRORS: Record<number, { name: string; description: string }> = {
  400: { name: "BadRequest", description: "Invalid input: `error.message` names the field (invalid_request)." },
  401: { name: "Unauthorized", description: "No valid API key or session." },
  403: {
    name: "Forbidden",
    description:
      "The caller's role does not allow it, or a cookie-session request that changes data came from another origin (cross_origin).",
  },
  404: { name: "NotFound", description: "No such thing, or not in a project the caller is a member of." },
  409: {
    name: "Conflict",
    description: "A stale version, a duplicate, or work in progress (`error.details` says more).",
  },
  410: { name: "Gone", description: "A signed link that expired or was already used (`error.code` says which)." },
  413: { name: "PayloadTooLarge", description: "The body or file is over its limit." },
  415: {
    name: "UnsupportedMediaType",
    description: "A cookie-session request sent a body of another content type than the route reads.",
  },
  416: { name: "RangeNotSatisfiable", description: "The Range header asks for bytes the file does not have." },
  422: { name: "Unprocessable", description: "The file was read but cannot be used (`error.details` lists why)." },
  500: { name: "InternalError", description: "Something went wrong on the server (logged, not shown)." },
  502: {
    name: "BadGateway",
    description:
      "A judge endpoint the request called failed or refused it (`error.details.kind`; a rate limit is endpoint_rate_limited).",
  },
  504: {
    name: "GatewayTimeout",
    description: "A judge endpoint the request called did not answer within its timeout (endpoint_timeout).",
  },
};

/**
 * The statuses every route of its kind can answer: member routes refuse a missing caller (401), a bad
 * parameter (400), a role without the right (403) and an id the caller cannot see (404); routes that
 * change data also check a cookie session's content type (415).
 */
export function standardErrors(route: ApiRoute): number[] {
  if ((route.access ?? "member") === "public") return [500];
  const errors = [400, 401, 403, 404, 500];
  if (route.method !== "get" && route.body) errors.push(415);
  return errors;
}

/**
 * A zod schema as the JSON Schema of what a client sends (defaults optional) or gets. A schema built from the tasks
 * is built from the built-in catalogue: the document is public, and a project's rubric tasks are that project's.
 */
export function jsonSchemaOf(schema: SchemaSource, io: "input" | "output" = "input"): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schemaOf(schema, builtInCatalogue()), {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  if ("$defs" in json)
    throw new Error("A recursive schema needs its $defs hoisted into components; none is expected in the API.");
  return json;
}

function parameters(route: ApiRoute): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [];
  for (const [name, schema] of Object.entries(route.params ?? {}))
    list.push({ name, in: "path", required: true, schema: jsonSchemaOf(schema) });
  if (route.query) {
    const query = jsonSchemaOf(route.query);
    const properties = query.properties as Record<string, JsonSchema> | undefined;
    if (!properties)
      throw new Error(`${route.method.toUpperCase()} ${route.path}: the query schema must be an object of parameters.`);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(properties)) {
      const { description, ...rest } = schema;
      list.push({
        name,
        in: "query",
        required: required.has(name),
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  }
  return list;
}

function requestBody(body: RouteBody): Record<string, unknown> {
  if (body.kind === "json") {
    return {
      required: !body.optional,
      ...(body.description ? { description: body.description } : {}),
      content: { "application/json": { schema: jsonSchemaOf(body.schema) } },
    };
  }
  if (body.kind === "bytes") {
    return {
      required: true,
      description: body.description,
      content: {
        "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
      },
    };
  }
  const fields = body.fields ? jsonSchemaOf(body.fields) : { properties: {} };
  const properties: Record<string, unknown> = { ...(fields.properties as Record<string, unknown>) };
  const required = [...((fields.required as string[] | undefined) ?? [])];
  for (const [name, schema] of Object.entries(body.jsonFields ?? {})) {
    properties[name] = {
      type: "string",
      contentMediaType: "application/json",
      contentSchema: jsonSchemaOf(schema),
      description: "JSON text.",
    };
  }
  for (const [name, description] of Object.entries(body.files)) {
    properties[name] = { type: "string", contentMediaType: "application/octet-stream", description };
    required.push(name);
  }
  const schema: JsonSchema = { type: "object", properties, ...(required.length ? { required } : {}) };
  if (body.otherFiles)
    schema.additionalProperties = {
      type: "string",
      contentMediaType: "application/octet-stream",
      description: body.otherFiles,
    };
  return {
    required: true,
    ...(body.description ? { description: body.description } : {}),
    content: { "multipart/form-data": { schema } },
  };
}

function response(answer: RouteResponse): Record<string, unknown> {
  if (answer.status === 204) return { description: answer.description };
  const types = answer.contentTypes ?? ["application/json"];
  const content = Object.fromEntries(
    types.map((type) => [
      type,
      type === "application/json" && answer.schema ? { schema: jsonSchemaOf(answer.schema, "output") } : {},
    ]),
  );
  return { description: answer.description, content };
}

/** `/api/v1/projects/{projectId}/runs` → `projects`; a project's sub-resource by its own name (`runs`). */
export function tagOf(path: string): string {
  const segments = path.replace(/^\/api\/v1\//, "").split("/");
  if (segments[0] === "projects" && segments.length > 2) return segments[2]!;
  return segments[0]!;
}

/** `get /api/v1/projects/{projectId}/runs` → `get_projects_projectId_runs`. */
function operationId(route: ApiRoute): string {
  return `${route.method}_${route.path
    .replace(/^\/api\/v1\//, "")
    .replace(/[{}]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "_")}`;
}

function operation(route: ApiRoute): Operation {
  const errors = [...new Set([...standardErrors(route), ...(route.errors ?? [])])].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {};
  for (const answer of route.responses) responses[String(answer.status)] = response(answer);
  for (const status of errors) responses[String(status)] = { $ref: `#/components/responses/${ERRORS[status]!.name}` };
  const params = parameters(route);
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [tagOf(route.path)],
    security: (route.access ?? "member") === "public" ? [] : [{ apiKey: [] }, { sessionCookie: [] }],
    ...(route.permission ? { "x-permission": route.permission, "x-roles": rolesThatMay(route.permission) } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(route.body ? { requestBody: requestBody(route.body) } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of /api/v1, built from the routes' descriptions and the zod schemas the routes parse
 * (a function schema is built here, from the built-in catalogue). Served at /api/v1/openapi.json and shown
 * at /docs/api.
 */
export function buildOpenApiDocument(routes: ApiRoute[]): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is described twice.`);
    item[route.method] = operation(route);
  }
  const tags = [...new Set(routes.map((route) => tagOf(route.path)))].sort().map((name) => ({ name }));
  return {
    openapi: "3.1.0",
    info: {
      title: "FrameJury HTTP API",
      version: "1",
      description:
        'Every /api/v1 route. Send an API key (Settings → API keys) as `Authorization: Bearer <key>`; the app\'s own pages use the session cookie, with which requests that change data must come from the app\'s origin and send the content type the route reads. Errors are `{"error": {"code", "message", "details"?}}`. Not described here: better-auth\'s /api/auth/* routes, /api/health and /api/metrics (see the README).',
    },
    jsonSchemaDialect: DIALECT,
    tags,
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key made under Settings → API keys (or `npm run cli -- create-api-key`). It acts with the user's rights.",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "better-auth.session_token",
          description:
            "The session cookie the sign-in page sets (`__Secure-` prefixed over https). Requests that change data need the app's Origin.",
        },
      },
      schemas: { Error: jsonSchemaOf(errorResponseSchema, "output") },
      responses: Object.fromEntries(
        Object.values(ERRORS).map(({ name, description }) => [
          name,
          { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        ]),
      ),
    },
  };
}

const built = new WeakMap<readonly RouteModuleEntry[], OpenApiDocument>();

/**
 * The document of a route index (app/api/v1/api-route-index.generated.ts), built once per process and index: the
 * routes and their schemas do not change while the app runs.
 */
export function openApiDocument(routes: readonly RouteModuleEntry[]): OpenApiDocument {
  let document = built.get(routes);
  if (!document) {
    document = buildOpenApiDocument(apiRoutesOf(routes));
    built.set(routes, document);
  }
  return document;
}
