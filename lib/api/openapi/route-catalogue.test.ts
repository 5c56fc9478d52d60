import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { handlerFile } from "../../testing/route-source";
import { apiRoutes } from "./route-catalogue";
import type { ApiRoute } from "./route-spec";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const API_ROOT = path.join(ROOT, "app/api/v1");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const EXPORT = /export\s+(?:async\s+)?(?:const|function)\s+([A-Z]+)\b/g;

interface RouteHandler {
  file: string;
  /** Where the handler is written: the route file, or the task's module it mounts (lib/tasks/<id>/routes). */
  handlerFile: string;
  path: string;
  method: string;
  /** The route file's source from this handler's export to the next one. */
  source: string;
  /** Identifier → module, from the file's imports. */
  imports: Map<string, string>;
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? routeFiles(full) : entry.name === "route.ts" ? [full] : [];
  });
}

/** `app/api/v1/projects/[projectId]/runs/route.ts` → `/api/v1/projects/{projectId}/runs`. */
function openApiPath(file: string): string {
  const dir = path.relative(API_ROOT, path.dirname(file)).split(path.sep).filter(Boolean);
  return ["/api/v1", ...dir.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}"))].join("/");
}

function imports(source: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [, names, from] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    for (const name of names!
      .split(",")
      .map((n) => n.trim().replace(/^type\s+/, ""))
      .filter(Boolean))
      map.set(name.split(/\s+as\s+/).pop()!, from!);
  }
  return map;
}

function handlers(): RouteHandler[] {
  return routeFiles(API_ROOT).flatMap((file) => {
    const written = handlerFile(file);
    const source = fs.readFileSync(written, "utf8");
    const found = [...source.matchAll(EXPORT)].filter((m) => METHODS.includes(m[1]!));
    return found.map((match, i) => ({
      file: path.relative(ROOT, file),
      handlerFile: written,
      path: openApiPath(file),
      method: match[1]!.toLowerCase(),
      source: source.slice(match.index, found[i + 1]?.index ?? source.length),
      imports: imports(source),
    }));
  });
}

/** The value a route imports under `name` (a zod schema), loaded from the same module. */
async function importedValue(handler: RouteHandler, name: string): Promise<unknown> {
  const from = handler.imports.get(name);
  if (!from) return undefined;
  const exported = (await import(from.startsWith("@/") ? path.join(ROOT, from.slice(2)) : from.startsWith(".") ? path.resolve(path.dirname(handler.handlerFile), from) : from)) as Record<
    string,
    unknown
  >;
  return exported[name];
}

const key = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

describe("the OpenAPI route catalogue", () => {
  const found = handlers();
  const catalogue = apiRoutes();
  const byKey = new Map(catalogue.map((route) => [key(route), route]));
  /** The handlers with an entry (the first test names those without, so the others do not fail on them too). */
  const described = () => found.filter((handler) => byKey.has(key(handler)));

  it("finds the route files (so an empty scan cannot pass)", () => {
    expect(found.length).toBeGreaterThan(90);
  });

  it("has an entry for every method every app/api/v1 route file exports", () => {
    const missing = found.filter((handler) => !byKey.has(key(handler))).map((handler) => `${key(handler)} (${handler.file})`);
    expect(missing, "routes without a schema in lib/api/openapi/route-catalogue.ts or their task's lib/tasks/<id>/api-routes.ts").toEqual([]);
  });

  it("has no entry that names no route, and none twice", () => {
    const exported = new Set(found.map(key));
    expect(catalogue.filter((route) => !exported.has(key(route))).map(key)).toEqual([]);
    expect(byKey.size).toBe(catalogue.length);
  });

  it("declares exactly the path parameters of each path", () => {
    for (const route of catalogue) {
      const placeholders = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(route.params ?? {}).sort(), key(route)).toEqual(placeholders);
    }
  });

  it("declares a body exactly where the handler reads one, of the kind it reads", () => {
    for (const handler of described()) {
      const route = byKey.get(key(handler))!;
      const kind = /parse(?:Optional)?JsonBody\(/.test(handler.source) ? "json" : /body: "multipart"/.test(handler.source) ? "multipart" : /body: "bytes"/.test(handler.source) ? "bytes" : undefined;
      expect(route.body?.kind, key(handler)).toBe(kind);
      if (route.body?.kind === "json") expect(route.body.optional ?? false, key(handler)).toBe(/parseOptionalJsonBody\(/.test(handler.source));
    }
  });

  it("declares query parameters exactly where the handler reads the query string", () => {
    for (const handler of described()) {
      expect(byKey.get(key(handler))!.query !== undefined, key(handler)).toBe(/searchParams/.test(handler.source));
    }
  });

  it("describes bodies, multipart fields and queries with the very schemas the handlers parse", async () => {
    let compared = 0;
    for (const handler of described()) {
      const route: ApiRoute = byKey.get(key(handler))!;
      // A schema built from the task registry is a function (`videoListQuerySchema()`): the handler parses what it returns.
      const body = /parse(?:Optional)?JsonBody\(request, (\w+)(\(\))?\)/.exec(handler.source);
      const fields = /(\w+)(\(\))?\.parse\(fields\)/.exec(handler.source);
      const query = /(\w+)(\(\))?\.parse\(searchParamsObject\(/.exec(handler.source);
      for (const [match, declared] of [
        [body, route.body?.kind === "json" ? route.body.schema : undefined],
        [fields, route.body?.kind === "multipart" ? route.body.fields : undefined],
        [query, route.query],
      ] as const) {
        const name = match?.[1];
        if (!name || !handler.imports.has(name)) continue;
        const imported = await importedValue(handler, name);
        expect(declared, `${key(handler)}: ${name}`).toBe(match[2] ? (imported as () => unknown)() : imported);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it("marks public exactly the routes that do not go through withActor, withProject or withProjectOf", () => {
    for (const handler of described()) {
      const isPublic = (byKey.get(key(handler))!.access ?? "member") === "public";
      expect(isPublic, key(handler)).toBe(!/\b(withActor|withProject|withProjectOf)\b/.test(handler.source));
    }
  });
});
