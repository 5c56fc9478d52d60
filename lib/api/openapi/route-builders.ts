/** The pieces routes' descriptions (the `api` of their wrapper calls, lib/api/openapi/route-spec.ts) are written with. */
import type { z } from "zod";
import type { RouteResponse } from "./route-spec";

export const ok = (description: string, schema?: z.ZodType): RouteResponse => ({ status: 200, description, schema });
export const created = (description: string, schema?: z.ZodType): RouteResponse => ({
  status: 201,
  description,
  schema,
});
export const accepted = (description: string, schema?: z.ZodType): RouteResponse => ({
  status: 202,
  description,
  schema,
});
export const noContent = (description: string): RouteResponse => ({ status: 204, description });
export const download = (description: string, contentTypes: string[]): RouteResponse => ({
  status: 200,
  description,
  contentTypes,
});
/** A whole aggregate or export withheld while the caller reviews some of its videos blind (lib/visibility/withheld.ts). */
export const withheldAnswer = (what: string): RouteResponse => ({
  status: 409,
  description: `${what} is withheld while the caller reviews any of its videos in a blind queue: \`error.code\` \`withheld\`, \`error.details.withheld: {queues: [{id, name, itemsLeft}], blindVideos}\`.`,
});
/**
 * The answer of an import that can be a dry run: 200 when it only checked, 201 when it wrote, each with its schema
 * where one is declared.
 */
export const importAnswers = (
  what: string,
  schemas: { dryRun?: z.ZodType; imported?: z.ZodType } = {},
): RouteResponse[] => [
  ok(`The dry run: what ${what} would import, nothing written.`, schemas.dryRun),
  created(`${what} imported.`, schemas.imported),
];

/** The multipart fields every item-set import reads beside its file. */
export const setFileFields = 'Multipart: `file`, `name`?, `citation`?, `dryRun`? ("true": check only, write nothing).';
