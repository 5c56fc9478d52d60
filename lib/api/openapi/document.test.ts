import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createProjectSchema, projectIdSchema } from "../../projects/projects.validation";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { videoListQuerySchema } from "../../videos/video-filter";
import { buildOpenApiDocument, jsonSchemaOf } from "./document";
import { apiReference, schemaSummary } from "./reference";
import { apiRoutesOf } from "./route-modules";
import type { ApiRoute } from "./route-spec";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

type Operation = {
  security: unknown[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
};
const operation = (document: ReturnType<typeof buildOpenApiDocument>, method: string, path: string) =>
  (document.paths[path] as Record<string, Operation> | undefined)?.[method];

describe("buildOpenApiDocument", () => {
  const document = buildOpenApiDocument(apiRoutesOf(documentedRoutes));

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("the validator refuses a broken document (so the check above can fail)", async () => {
    // A parameter "in" the body (OpenAPI 2's way, not 3.1's).
    const broken = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { parameters: { in: string }[] }>>;
    };
    broken.paths["/api/v1/projects/{projectId}"]!.get!.parameters[0]!.in = "body";
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
  });

  it("describes bodies with the JSON Schema of the zod schema the route parses", () => {
    const create = operation(document, "post", "/api/v1/projects")!;
    expect(create.requestBody!.content["application/json"]!.schema).toEqual(jsonSchemaOf(createProjectSchema));
    expect(create.requestBody!.content["application/json"]!.schema).toMatchObject({
      type: "object",
      properties: { name: { type: "string", minLength: 1, maxLength: 200 } },
      required: ["name"],
    });
  });

  it("turns a query schema into one parameter per field, and path ids into required path parameters", () => {
    const list = operation(document, "get", "/api/v1/projects/{projectId}/videos")!;
    const names = list.parameters!.filter((p) => p.in === "query").map((p) => p.name);
    expect(names).toEqual(
      Object.keys((jsonSchemaOf(videoListQuerySchema(builtInCatalogue())).properties as object) ?? {}),
    );
    expect(names).toEqual(expect.arrayContaining(["status", "sort", "dir", "cursor", "pageSize"]));
    expect(list.parameters!.find((p) => p.name === "projectId")).toEqual({
      name: "projectId",
      in: "path",
      required: true,
      schema: jsonSchemaOf(projectIdSchema),
    });
  });

  it("asks for an API key or the session on every route but the public ones (the document, a signed clip URL), and lists their errors", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
        if (path === "/api/v1/openapi.json" || path === "/api/v1/clips/{token}") {
          expect(op.security).toEqual([]);
          continue;
        }
        expect(op.security, `${method} ${path}`).toEqual([{ apiKey: [] }, { sessionCookie: [] }]);
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(["400", "401", "403", "404"]),
        );
        if (method !== "get" && op.requestBody) expect(Object.keys(op.responses)).toContain("415");
      }
    }
  });

  it("describes multipart uploads with their file parts and JSON fields", () => {
    const frames = operation(document, "post", "/api/v1/videos/{videoId}/frame-sets")!;
    const schema = frames.requestBody!.content["multipart/form-data"]!.schema as {
      properties: Record<string, Record<string, unknown>>;
      additionalProperties: unknown;
    };
    expect(schema.properties.manifest).toMatchObject({
      type: "string",
      contentMediaType: "application/json",
      contentSchema: { type: "array" },
    });
    expect(schema.additionalProperties).toMatchObject({ contentMediaType: "application/octet-stream" });
    const labels = operation(document, "post", "/api/v1/projects/{projectId}/label-sets")!;
    expect(labels.requestBody!.content["multipart/form-data"]!.schema).toMatchObject({
      required: expect.arrayContaining(["name", "file"]),
      properties: {
        format: {
          enum: ["t2vhalubench", "vbench", "generic", "csv", "jsonl", "label-studio", "spans", "label_studio_spans"],
          // The span file formats by their own ids; the aliases the import still reads are named as such.
          description: expect.stringMatching(
            /span file format \(`csv`, `jsonl`, `label-studio`\); `spans`, `label_studio_spans`: older names/,
          ),
        },
      },
    });
  });

  it("refuses routes that name a (path, method) twice", () => {
    const route: ApiRoute = {
      method: "get",
      path: "/api/v1/me",
      summary: "x",
      responses: [{ status: 200, description: "x" }],
    };
    expect(() => buildOpenApiDocument([route, route])).toThrow(/twice/);
  });
});

describe("apiReference (the /docs/api page)", () => {
  it("lists every operation of the document once, grouped by tag", () => {
    const document = buildOpenApiDocument(apiRoutesOf(documentedRoutes));
    const groups = apiReference(document);
    const listed = groups.flatMap((group) => group.operations.map((op) => `${op.method} ${op.path}`));
    const expected = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(expected.sort());
    const submit = groups
      .flatMap((g) => g.operations)
      .find((op) => op.path === "/api/v1/queues/{queueId}/items/{itemId}/submit")!;
    expect(submit.parameters.map((p) => `${p.in}:${p.name}${p.required ? "" : "?"}`)).toEqual([
      "path:queueId",
      "path:itemId",
      "query:next?",
    ]);
    expect(JSON.parse(submit.body!.schema)).toMatchObject({ type: "object", required: ["judgments"] });
  });

  it("reads a parameter's schema in one line", () => {
    expect(schemaSummary(jsonSchemaOf(z.enum(["json", "csv"]).default("json")))).toBe(
      '"json" | "csv" (default "json")',
    );
    expect(schemaSummary(jsonSchemaOf(z.coerce.number().int().min(1).max(20)))).toBe("integer 1–20");
    expect(schemaSummary(jsonSchemaOf(z.string().max(64)))).toBe("string ≤64");
  });
});
