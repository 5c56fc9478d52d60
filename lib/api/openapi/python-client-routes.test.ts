import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { openApiDocument } from "./document";

// The Python client (clients/python) makes every call through one table, framejury/api_routes.json: the
// method, the path as the OpenAPI document spells it, and the query parameters and body fields it may send
// (the client refuses any other). This checks the table against the document the app serves, so a route
// renamed or a parameter dropped fails here rather than in a lab's notebook.
const clientFolder = path.join(import.meta.dirname, "../../../clients/python/framejury");

interface ClientRoute {
  method: string;
  path: string;
  query?: string[];
  body?: string[];
  contentType?: string;
}

interface BodySchema {
  properties?: Record<string, unknown>;
  anyOf?: BodySchema[];
  oneOf?: BodySchema[];
}

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: BodySchema }> };
}

const routes = (
  JSON.parse(fs.readFileSync(path.join(clientFolder, "api_routes.json"), "utf8")) as {
    routes: Record<string, ClientRoute>;
  }
).routes;
const paths = openApiDocument(documentedRoutes).paths as Record<string, Record<string, Operation>>;

describe("the Python client's routes", () => {
  it.each(Object.entries(routes))(
    "%s: the method and path exist, with every query parameter and body field the client sends",
    (_name, route) => {
      const operation = paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path} is not in the OpenAPI document`).toBeDefined();
      const declaredQuery = new Set((operation!.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
      for (const name of route.query ?? [])
        expect(declaredQuery.has(name), `${route.method} ${route.path} has no query parameter ${name}`).toBe(true);
      const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declaredPath = (operation!.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      expect(declaredPath.sort()).toEqual(pathParameters.sort());
      const content = operation!.requestBody?.content ?? {};
      const contentType = route.contentType ?? "application/json";
      if (route.body?.length || route.contentType) {
        expect(Object.keys(content), `${route.method} ${route.path} takes no ${contentType} body`).toContain(
          contentType,
        );
        // A body that is one of several shapes (a union, as an alignment's) declares its fields in its members.
        const schema = content[contentType]?.schema;
        const properties = [schema, ...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])].flatMap((member) =>
          Object.keys(member?.properties ?? {}),
        );
        for (const field of route.body ?? [])
          expect(properties, `${route.method} ${route.path}'s body has no field ${field}`).toContain(field);
      }
    },
  );

  it("calls only routes of its table, and uses every one", () => {
    const source = fs.readFileSync(path.join(clientFolder, "client.py"), "utf8");
    const called = new Set([...source.matchAll(/self\._call\(\s*"(\w+)"/g)].map((m) => m[1]!));
    expect([...called].sort()).toEqual(Object.keys(routes).sort());
  });
});
