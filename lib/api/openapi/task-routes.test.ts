import { describe, expect, it } from "vitest";
import { z } from "zod";
import { installedTaskModules, registerTaskModule } from "../../task-modules/installed-task-modules";
import { buildOpenApiDocument } from "./document";
import { ok, projectParams } from "./route-builders";
import { apiRoutes } from "./route-catalogue";
import type { ApiRoute } from "./route-spec";

const key = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

// A task's routes are described in its own folder (its module's apiRoutes): the catalogue names no task.
describe("the tasks' routes in the OpenAPI document", () => {
  it("lists a task module's routes, read when the catalogue is built, so a task registered at test time is in it", () => {
    const toyQuery = z.object({ colour: z.enum(["red", "blue"]).describe("The toy's colour.") });
    const toyRoute: ApiRoute = {
      method: "get",
      path: "/api/v1/projects/{projectId}/toy-results",
      summary: "The toy task's results",
      params: projectParams,
      query: toyQuery,
      responses: [ok("`{results: [...]}`.")],
    };
    const before = apiRoutes().length;
    const unregister = registerTaskModule({ id: "toy-openapi", pipelines: [], apiRoutes: () => [toyRoute] });
    try {
      const routes = apiRoutes();
      expect(routes).toHaveLength(before + 1);
      expect(routes.filter((route) => key(route) === key(toyRoute))).toEqual([toyRoute]);
      const document = buildOpenApiDocument();
      const operation = document.paths[toyRoute.path]?.get as { summary: string; tags: string[]; parameters: { name: string; in: string }[] } | undefined;
      expect(operation?.summary).toBe("The toy task's results");
      expect(operation?.tags).toEqual(["toy-results"]);
      expect(operation?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(["path:projectId", "query:colour"]);
      expect(document.tags).toContainEqual({ name: "toy-results" });
    } finally {
      unregister();
    }
    expect(apiRoutes().map(key)).not.toContain(key(toyRoute));
  });

  it("holds every registered task's own routes once, after the core's", () => {
    const catalogue = apiRoutes().map(key);
    const taskRoutes = installedTaskModules()
      .flatMap((task) => task.apiRoutes?.() ?? [])
      .map(key);
    // Captions, QA and construction each describe routes of their own.
    expect(installedTaskModules().filter((task) => (task.apiRoutes?.() ?? []).length > 0).length).toBeGreaterThanOrEqual(3);
    expect(catalogue.slice(catalogue.length - taskRoutes.length)).toEqual(taskRoutes);
    expect(new Set(catalogue).size).toBe(catalogue.length);
  });
});
