import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiRouteFiles, handlerFile } from "@/testkit/testing/route-source";

const apiRoot = path.resolve(import.meta.dirname);
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The only /api/v1 routes without withActor, and why: each goes through withoutActor, which describes it as public. */
const PUBLIC_ROUTES: Record<string, string> = {
  "openapi.json/route.ts": "the OpenAPI document describes the API and holds no data or secrets",
  "clips/[token]/route.ts":
    "a judge endpoint fetches a clip by a signed short-lived URL: the token in the path is the authorization (lib/judge/media/clip-urls.ts)",
};

/**
 * The wrapper a route's path calls for: under projects/[projectId], withProject; a route keyed by one record
 * of a project, withProjectOf; the caller's own routes (me/) and the project list, withActor.
 */
const ACTOR_ROUTES = [path.join("projects", "route.ts")];
function expectedWrapper(relative: string): string {
  if (ACTOR_ROUTES.includes(relative) || relative.startsWith(`me${path.sep}`)) return "withActor";
  if (relative.startsWith(path.join("projects", "[projectId]"))) return "withProject";
  return "withProjectOf";
}

describe("every /api/v1 route", () => {
  const files = apiRouteFiles().filter((file) => !(path.relative(apiRoot, file) in PUBLIC_ROUTES));

  it("has every public exception on disk, answering GET only, through withoutActor", () => {
    for (const relative of Object.keys(PUBLIC_ROUTES)) {
      const source = fs.readFileSync(path.join(apiRoot, relative), "utf8");
      expect([...source.matchAll(/export\s+(?:async\s+)?(?:const|function)\s+([A-Z]+)\b/g)].map((m) => m[1])).toEqual([
        "GET",
      ]);
      expect(source).toMatch(/export const GET\s*=\s*withoutActor\b/);
    }
  });

  it("exists (the scan finds the routes)", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  // withActor authenticates and applies the session-cookie CSRF guard: a handler that skipped it would
  // take cookie requests from any page on the same site. withProject (lib/api/with-project.ts) is withActor
  // plus the project's permission check; every route under projects/[projectId] uses it. A route keyed by a
  // record of a project (a run, queue, video, …) uses withProjectOf: the same check, on the record's project.
  it.each(files.map((file) => [path.relative(apiRoot, file)]))(
    "%s exports only handlers wrapped in withActor, withProject or withProjectOf as its path says",
    async (relative) => {
      // A task's route file is a thin mount point: its handlers are written in the task's folder (lib/tasks/<id>/routes).
      const source = fs.readFileSync(handlerFile(path.join(apiRoot, relative)), "utf8");
      const exported = [...source.matchAll(/export\s+(?:async\s+)?(?:const|function)\s+([A-Z]+)\b/g)]
        .map((m) => m[1]!)
        .filter((name) => METHODS.includes(name));
      expect(exported.length).toBeGreaterThan(0);
      const wrapper = expectedWrapper(relative);
      for (const method of exported)
        expect(source, `${relative} ${method}`).toMatch(new RegExp(`export const ${method}\\s*=\\s*(${wrapper})\\b`));
      const route = (await import(path.join(apiRoot, relative))) as Record<string, unknown>;
      expect(
        Object.keys(route)
          .filter((name) => METHODS.includes(name))
          .sort(),
      ).toEqual([...exported].sort());
    },
  );
});
