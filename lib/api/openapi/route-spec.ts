import type { z } from "zod";
import type { ProjectAction } from "../../authz/permissions";
import type { TaskCatalogue } from "../../task-modules/task-catalogue";

/** The methods a route file exports, as OpenAPI names them. */
export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route: `member` routes go through withActor, withProject or withProjectOf (an API key as
 * `Authorization: Bearer`, or the session cookie) and check the project role inside; `public` routes
 * (withoutActor) need no caller. The wrapper says which, so a route never declares it.
 */
export type ApiAccess = "member" | "public";

/**
 * A zod schema, or a function that builds it from a task catalogue (`videoListQuerySchema`): a wrapper calls it
 * with the request's catalogue (its project's rubric tasks included), the OpenAPI document with the built-in one.
 */
export type SchemaSource = z.ZodType | ((catalogue: TaskCatalogue) => z.ZodType);

export const schemaOf = (source: SchemaSource, catalogue: TaskCatalogue): z.ZodType =>
  typeof source === "function" ? source(catalogue) : source;

/**
 * What a route reads from the request body. A JSON body is parsed by the route's wrapper with `schema` and handed
 * to the handler as `body`, unless `readBy: "handler"`: then the document shows `schema` and the handler reads the
 * body itself (it parses it in steps the one schema cannot say). Multipart and raw bytes are streamed by the
 * handler; the kind is also the one content type a cookie session may send (lib/api/session-request-guard.ts).
 */
export type RouteBody =
  | {
      kind: "json";
      schema: SchemaSource;
      optional?: boolean;
      readBy?: "handler";
      description?: string;
      /** The most bytes the body may hold, when more than JSON_BODY_LIMIT (lib/api/request-body.ts); more is a 413 naming it. */
      maxBytes?: number;
    }
  | {
      kind: "multipart";
      /** The plain text fields, as the route parses them. */
      fields?: SchemaSource;
      /** Text fields that hold JSON, each with the schema of its JSON. */
      jsonFields?: Record<string, SchemaSource>;
      /** File parts by name, with what each holds. */
      files: Record<string, string>;
      /** Parts of any other name are files too (frame-sets: one JPEG per frame). */
      otherFiles?: string;
      description?: string;
    }
  | { kind: "bytes"; description: string };

/**
 * Query parameters the handler reads itself (a flag with `searchParams.get`, a repeated `runId`, …), which the
 * wrapper's one way of parsing them would answer differently: the document shows `schema`.
 */
export interface HandlerQuery {
  readBy: "handler";
  /** An object schema: each property is one query parameter. */
  schema: SchemaSource;
}

export interface RouteResponse {
  status: number;
  description: string;
  /** The JSON answer's schema, where one is declared. */
  schema?: z.ZodType;
  /** Default `application/json`; downloads name theirs (`text/csv`, `image/jpeg`, …). */
  contentTypes?: string[];
}

/**
 * What a route says about itself, written once in its wrapper call beside its handler (withActor, withProject,
 * withProjectOf, withoutActor): the OpenAPI document reads it, and the wrapper parses the JSON body and the query
 * it declares. The path and the method come from the route file's folder and export name
 * (app/api/v1/api-route-index.generated.ts).
 */
export interface RouteDescription {
  summary: string;
  description?: string;
  /**
   * A path parameter's schema where it is not the default one of its name (`projectId`: projectIdSchema, any
   * other: recordIdSchema); the document lists every parameter the path names.
   */
  params?: Record<string, SchemaSource>;
  /** An object schema, each property one query parameter, which the wrapper parses and hands on as `query`. */
  query?: SchemaSource | HandlerQuery;
  body?: RouteBody;
  responses: RouteResponse[];
  /** Error statuses beyond the ones every route of its kind can answer (see standardErrors). */
  errors?: number[];
}

/** The description a wrapper leaves on the handler it returns, with the access the wrapper gives. */
export interface DescribedRoute extends RouteDescription {
  access: ApiAccess;
  /**
   * The project action a project-scoped wrapper (withProject, withProjectOf) checks before the handler runs: the
   * route's one permission, which the OpenAPI document shows (`x-permission`). Absent on withActor and public routes.
   */
  permission?: ProjectAction;
}

/** A route handler a wrapper made: it carries its route's description. */
export interface DescribedHandler {
  readonly apiRoute: DescribedRoute;
}

/** A route file's module as the route index imports it: every method it exports is a described handler. */
export type RouteModule = { readonly [M in Uppercase<HttpMethod>]?: DescribedHandler };

/** One route file: its module, and its path as OpenAPI writes it (from the file's folder). */
export interface RouteModuleEntry {
  /** `/api/v1/projects/{projectId}/runs`. */
  path: string;
  module: RouteModule;
}

/**
 * One (path, method) of the HTTP API, described with the zod schemas its route parses: what the document is built
 * from (lib/api/openapi/route-modules.ts reads it off a route index). Every path parameter is in `params`.
 */
export interface ApiRoute extends Omit<RouteDescription, "query"> {
  method: HttpMethod;
  /** OpenAPI style: `/api/v1/projects/{projectId}/runs`. */
  path: string;
  /** Default `member`. */
  access?: ApiAccess;
  /** The project action checked before the handler runs (DescribedRoute.permission). */
  permission?: ProjectAction;
  /** An object schema: each property is one query parameter. */
  query?: SchemaSource;
}

type SchemaOutput<S> = S extends z.ZodType
  ? z.output<S>
  : S extends (catalogue: TaskCatalogue) => infer T
    ? T extends z.ZodType
      ? z.output<T>
      : never
    : never;

/** What a wrapper parsed for its handler as the description declares, typed by the description's schemas. */
export interface RouteInput<D extends RouteDescription> {
  /** The JSON body; undefined when the route declares none, or reads it itself. */
  body: D extends { body: { kind: "json"; schema: infer S; readBy?: undefined } } ? SchemaOutput<S> : undefined;
  /** The query, parsed; undefined when the route declares none, or reads it itself. */
  query: D extends { query: infer Q } ? (Q extends HandlerQuery ? undefined : SchemaOutput<Q>) : undefined;
}
