import type { DescribedHandler } from "@/lib/api/openapi/route-spec";

/**
 * A route's JSON answer read through the schema its description declares for the status (RouteResponse.schema):
 * the parse throws when the answer does not fit it, and what the schema strips (a field it does not declare) is
 * missing from the result, so a test comparing the result with the answer sees it.
 */
export function declaredAnswer(handler: DescribedHandler, status: number, body: unknown): unknown {
  const schema = handler.apiRoute.responses.find((answer) => answer.status === status)?.schema;
  if (!schema) throw new Error(`The route declares no schema for its ${status} answer.`);
  return schema.parse(body);
}

/**
 * A value as `Response.json` writes it and the client reads it back: dates become ISO strings. What a test checks a
 * lib answer's type against its declared schema with, where the answer holds dates.
 */
export type JsonOf<T> = T extends Date
  ? string
  : T extends readonly (infer E)[]
    ? JsonOf<E>[]
    : T extends object
      ? { [K in keyof T]: JsonOf<T[K]> }
      : T;
