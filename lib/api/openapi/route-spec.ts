import type { z } from "zod";

/** The methods a route file exports, as OpenAPI names them. */
export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route: `member` routes go through withActor (an API key as `Authorization: Bearer`, or
 * the session cookie) and check the project role inside; `public` routes need no caller.
 */
export type ApiAccess = "member" | "public";

/** What a route reads from the request body: the same three kinds withActor's `body` option names. */
export type RouteBody =
  | { kind: "json"; schema: z.ZodType; optional?: boolean; description?: string }
  | {
      kind: "multipart";
      /** The plain text fields, as the route parses them. */
      fields?: z.ZodType;
      /** Text fields that hold JSON, each with the schema of its JSON. */
      jsonFields?: Record<string, z.ZodType>;
      /** File parts by name, with what each holds. */
      files: Record<string, string>;
      /** Parts of any other name are files too (frame-sets: one JPEG per frame). */
      otherFiles?: string;
      description?: string;
    }
  | { kind: "bytes"; description: string };

export interface RouteResponse {
  status: number;
  description: string;
  /** The JSON answer's schema, where one is declared. */
  schema?: z.ZodType;
  /** Default `application/json`; downloads name theirs (`text/csv`, `image/jpeg`, …). */
  contentTypes?: string[];
}

/** One (path, method) of the HTTP API, described with the zod schemas its route parses. */
export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI style: `/api/v1/projects/{projectId}/runs`. */
  path: string;
  summary: string;
  description?: string;
  /** Default `member`. */
  access?: ApiAccess;
  params?: Record<string, z.ZodType>;
  /** An object schema: each property is one query parameter. */
  query?: z.ZodType;
  body?: RouteBody;
  responses: RouteResponse[];
  /** Error statuses beyond the ones every route of its kind can answer (see standardErrors). */
  errors?: number[];
}
