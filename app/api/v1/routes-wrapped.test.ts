import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const apiRoot = path.resolve(import.meta.dirname);
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? routeFiles(full) : entry.name === "route.ts" ? [full] : [];
  });
}

/** The only /api/v1 routes without withActor, and why: each is `access: "public"` in lib/api/openapi/route-catalogue.ts. */
const PUBLIC_ROUTES: Record<string, string> = {
  "openapi.json/route.ts": "the OpenAPI document describes the API and holds no data or secrets",
};

describe("every /api/v1 route", () => {
  const files = routeFiles(apiRoot).filter((file) => !(path.relative(apiRoot, file) in PUBLIC_ROUTES));

  it("has every public exception on disk, answering GET only", () => {
    for (const relative of Object.keys(PUBLIC_ROUTES)) {
      const source = fs.readFileSync(path.join(apiRoot, relative), "utf8");
      expect([...source.matchAll(/export\s+(?:async\s+)?(?:const|function)\s+([A-Z]+)\b/g)].map((m) => m[1])).toEqual(["GET"]);
    }
  });

  it("exists (the scan finds the routes)", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  // withActor authenticates and applies the session-cookie CSRF guard: a handler that skipped it would
  // take cookie requests from any page on the same site. withProject (lib/api/with-project.ts) is withActor
  // plus the project's permission check; every route under projects/[projectId] uses it.
  it.each(files.map((file) => [path.relative(apiRoot, file)]))("%s exports only handlers wrapped in withActor (under projects/[projectId]: withProject)", async (relative) => {
    const source = fs.readFileSync(path.join(apiRoot, relative), "utf8");
    const exported = [...source.matchAll(/export\s+(?:async\s+)?(?:const|function)\s+([A-Z]+)\b/g)].map((m) => m[1]!).filter((name) => METHODS.includes(name));
    expect(exported.length).toBeGreaterThan(0);
    const wrapper = relative.startsWith(path.join("projects", "[projectId]")) && relative !== path.join("projects", "[projectId]", "compare", "route.ts") ? "withProject" : "withActor|withProject";
    for (const method of exported) expect(source, `${relative} ${method}`).toMatch(new RegExp(`export const ${method}\\s*=\\s*(${wrapper})\\b`));
    const route = (await import(path.join(apiRoot, relative))) as Record<string, unknown>;
    expect(
      Object.keys(route)
        .filter((name) => METHODS.includes(name))
        .sort(),
    ).toEqual([...exported].sort());
  });
});
