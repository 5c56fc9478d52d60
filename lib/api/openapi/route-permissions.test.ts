import { describe, expect, it } from "vitest";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { PROJECT_ACTIONS, roleCan } from "../../authz/permissions";
import { openApiDocument } from "./document";
import { apiRoutesOf } from "./route-modules";

/*
 * A project-scoped route names its one permission in its wrapper call (withProject, withProjectOf): the wrapper
 * checks it before the handler runs, and the OpenAPI document shows it. A write naming a permission a viewer has
 * would be a decoy: the real check would be somewhere else.
 */
const routes = apiRoutesOf(documentedRoutes);
const key = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

describe("route permissions", () => {
  it("names a permission on every route under a project or a project's record", () => {
    const projectScoped = routes.filter((route) => route.path.startsWith("/api/v1/projects/{projectId}"));
    expect(projectScoped.length).toBeGreaterThan(50);
    expect(projectScoped.filter((route) => !route.permission).map(key)).toEqual([]);
    for (const route of routes) if (route.permission) expect(PROJECT_ACTIONS).toContain(route.permission);
  });

  it("never names a permission a viewer has on a write (POST, PUT, PATCH, DELETE)", () => {
    const writes = routes.filter((route) => route.method !== "get" && route.permission);
    expect(writes.length).toBeGreaterThan(50);
    const decoys = writes.filter((route) => roleCan("viewer", route.permission!)).map(key);
    expect(decoys).toEqual([]);
  });

  it("shows each operation's permission and the roles that have it in the OpenAPI document", () => {
    const document = openApiDocument(documentedRoutes);
    for (const route of routes) {
      const operation = document.paths[route.path]![route.method]!;
      expect({ key: key(route), permission: operation["x-permission"] }).toEqual({
        key: key(route),
        permission: route.permission,
      });
    }
    const start = document.paths["/api/v1/projects/{projectId}/runs"]!.post!;
    expect(start["x-permission"]).toBe("runs.manage");
    expect(start["x-roles"]).toEqual(["owner"]);
    const review = document.paths["/api/v1/scores/{scoreId}/review"]!.put!;
    expect(review["x-permission"]).toBe("scores.review");
    expect(review["x-roles"]).toEqual(["owner", "reviewer"]);
  });
});
