import { projectIdSchema } from "../../projects/projects.validation";
import { recordIdSchema } from "../../validation/ids";
import { type ApiRoute, HTTP_METHODS, type RouteModuleEntry, type SchemaSource } from "./route-spec";

/** A path parameter's schema when its route declares none: the one every route of that name parses. */
const defaultParamSchema = (name: string): SchemaSource => (name === "projectId" ? projectIdSchema : recordIdSchema);

/**
 * The routes of a route index (app/api/v1/api-route-index.generated.ts: each route file's module with the path its
 * folder names), one per method a module exports, each with the description its wrapper left on the handler and
 * every path parameter the path names.
 */
export function apiRoutesOf(entries: readonly RouteModuleEntry[]): ApiRoute[] {
  return entries.flatMap(({ path, module }) =>
    HTTP_METHODS.flatMap((method) => {
      const handler = module[method.toUpperCase() as Uppercase<typeof method>];
      if (!handler) return [];
      const { params: declared = {}, query, ...described } = handler.apiRoute;
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      const stray = Object.keys(declared).filter((name) => !names.includes(name));
      if (stray.length)
        throw new Error(
          `${method.toUpperCase()} ${path} declares path parameters its path does not name: ${stray.join(", ")}.`,
        );
      const params = Object.fromEntries(names.map((name) => [name, declared[name] ?? defaultParamSchema(name)]));
      return [{ ...described, method, path, params, query: query && "readBy" in query ? query.schema : query }];
    }),
  );
}
