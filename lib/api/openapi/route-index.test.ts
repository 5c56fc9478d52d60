import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { apiRouteFiles, handlerFile, openApiPathOf } from "../../../testkit/testing/route-source";
import { recordIdSchema } from "../../validation/ids";
import { apiRoutesOf } from "./route-modules";
import { type DescribedRoute, HTTP_METHODS, type RouteModule } from "./route-spec";

/*
 * A route describes itself in its wrapper call, beside its handler, and its path and method are its file's place
 * under app/api/v1 and its export's name, listed by the generated route index. The type of that index makes a
 * method without a description a type error; these checks hold the rest: the index is current, and each handler
 * reads what its description says, with the very schemas it shows.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** Every method name Next.js routes, whether or not OpenAPI is given it. */
const NEXT_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const EXPORT = /export\s+(?:async\s+)?(?:const|function)\s+([A-Z]+)\b/g;

const placeholders = (routePath: string) => [...routePath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

interface DescribedMethod {
  key: string;
  file: string;
  description: DescribedRoute;
  /** Where the handler is written (the route file, or the task's module it mounts), from this export to the next, comments left out. */
  source: string;
  /** The handler file's imports: identifier → module. */
  imports: Map<string, string>;
  handlerFile: string;
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

function describedMethods(): DescribedMethod[] {
  return apiRouteFiles().flatMap((file) => {
    const entry = documentedRoutes.find((route) => route.path === openApiPathOf(file));
    if (!entry) return [];
    const written = handlerFile(file);
    const source = fs.readFileSync(written, "utf8");
    const found = [...source.matchAll(EXPORT)].filter((m) => NEXT_METHODS.includes(m[1]!));
    return found.map((match, i) => ({
      key: `${match[1]} ${entry.path}`,
      file: path.relative(ROOT, file),
      description: entry.module[match[1] as keyof RouteModule]!.apiRoute,
      source: source
        .slice(match.index, found[i + 1]?.index ?? source.length)
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, ""),
      imports: imports(source),
      handlerFile: written,
    }));
  });
}

/** The value a handler file imports under `name` (a zod schema, or the function that builds one), loaded from the same module. */
async function importedValue(method: DescribedMethod, name: string): Promise<unknown> {
  const from = method.imports.get(name);
  if (!from) return undefined;
  const resolved = from.startsWith("@/")
    ? path.join(ROOT, from.slice(2))
    : from.startsWith(".")
      ? path.resolve(path.dirname(method.handlerFile), from)
      : from;
  return ((await import(resolved)) as Record<string, unknown>)[name];
}

describe("the /api/v1 route index", () => {
  it("is what scripts/generate-api-route-index.mjs writes now", () => {
    const check = spawnSync(process.execPath, ["scripts/generate-api-route-index.mjs", "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("lists every route file under app/api/v1 once, at the path its folder names, with what the file exports", async () => {
    const files = apiRouteFiles();
    expect(files.length).toBeGreaterThan(90);
    expect(documentedRoutes.map((route) => route.path).sort()).toEqual(files.map(openApiPathOf).sort());
    for (const file of files) {
      const exported = (await import(file)) as Record<string, unknown>;
      const entry = documentedRoutes.find((route) => route.path === openApiPathOf(file))!;
      for (const name of NEXT_METHODS)
        expect(entry.module[name as keyof RouteModule], `${name} ${entry.path}`).toBe(exported[name]);
    }
  });

  it("holds a description on every method a route file exports, and no method the document cannot hold", () => {
    const described = HTTP_METHODS.map((method) => method.toUpperCase());
    for (const { path: routePath, module } of documentedRoutes) {
      const exported = Object.keys(module).filter((name) => NEXT_METHODS.includes(name));
      expect(exported.length, routePath).toBeGreaterThan(0);
      for (const name of exported) {
        expect(described, `${name} ${routePath}`).toContain(name);
        expect(module[name as keyof RouteModule]?.apiRoute.summary, `${name} ${routePath}`).toBeTruthy();
      }
    }
  });
});

describe("the routes' descriptions", () => {
  const methods = describedMethods();

  it("are found for every handler (so an empty scan cannot pass)", () => {
    expect(methods.length).toBeGreaterThan(130);
    expect(methods.length).toBe(apiRoutesOf(documentedRoutes).length);
  });

  it("declare only path parameters their path names, and the document lists every one the path names", () => {
    for (const { key, description } of methods) {
      const names = placeholders(key.split(" ")[1]!);
      expect(
        Object.keys(description.params ?? {}).filter((name) => !names.includes(name)),
        key,
      ).toEqual([]);
    }
    for (const route of apiRoutesOf(documentedRoutes))
      expect(Object.keys(route.params ?? {}), `${route.method} ${route.path}`).toEqual(placeholders(route.path));
    const stray = { summary: "A thing", access: "member" as const, params: { otherId: recordIdSchema }, responses: [] };
    expect(() => apiRoutesOf([{ path: "/api/v1/things/{thingId}", module: { GET: { apiRoute: stray } } }])).toThrow(
      /otherId/,
    );
  });

  it("declare a body exactly where the handler reads one, and say who reads it: the wrapper a JSON body, unless the handler does", () => {
    for (const { key, description, source } of methods) {
      const body = description.body;
      expect(/parse(?:Optional)?JsonBody\(|request\.(json|text|formData|arrayBuffer)\(/.test(source), key).toBe(
        body?.kind === "json" && body.readBy === "handler",
      );
      expect(/readMultipart\(|readItemFileUpload\(|readPairImportUpload\(/.test(source), key).toBe(
        body?.kind === "multipart",
      );
      expect(/requestBodyStream\(/.test(source), key).toBe(body?.kind === "bytes");
    }
  });

  it("declare a query exactly where the handler or its wrapper reads one, and say which", () => {
    for (const { key, description, source } of methods) {
      const readByHandler = description.query !== undefined && "readBy" in description.query;
      expect(/searchParams/.test(source), key).toBe(readByHandler);
    }
    // The wrapper parses the others: a few routes' queries, so the check above cannot pass on none.
    expect(
      methods.filter(({ description }) => description.query && !("readBy" in description.query)).length,
    ).toBeGreaterThan(15);
  });

  it("show the very schemas the handlers parse multipart fields and their own queries with", async () => {
    let compared = 0;
    for (const method of methods) {
      const { key, description, source } = method;
      // A schema built from the task catalogue is a function (`labelSetImportFieldsSchema(catalogue)`): the description holds the function.
      const fields = /(\w+)(?:\(\w*\))?\.parse\(fields\)/.exec(source);
      const query = /(\w+)(?:\(\w*\))?\.parse\((?:Object\.fromEntries|searchParamsObject)\(/.exec(source);
      for (const [match, declared] of [
        [fields, description.body?.kind === "multipart" ? description.body.fields : undefined],
        [query, description.query && "readBy" in description.query ? description.query.schema : undefined],
      ] as const) {
        const name = match?.[1];
        if (!name) continue;
        expect(declared, `${key}: ${name}`).toBe(await importedValue(method, name));
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });

  it("are public exactly where the route goes through withoutActor, not withActor, withProject or withProjectOf", () => {
    for (const { key, description, source } of methods) {
      expect(description.access, key).toBe(/\bwithoutActor\b/.test(source) ? "public" : "member");
      expect(/\b(withActor|withProject|withProjectOf)\b/.test(source), key).toBe(description.access === "member");
    }
  });
});
