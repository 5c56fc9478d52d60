import { describe, expect, it } from "vitest";
import { GET as getOpenApi } from "./openapi.json/route";

describe("GET /api/v1/openapi.json", () => {
  it("answers the OpenAPI 3.1 document as JSON without a caller", async () => {
    const response = await getOpenApi(new Request("http://localhost:3000/api/v1/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { security: unknown[] }>>;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/v1/projects", "/api/v1/projects/{projectId}/runs", "/api/v1/openapi.json"]),
    );
    expect(document.paths["/api/v1/projects"]!.get!.security).toEqual([{ apiKey: [] }, { sessionCookie: [] }]);
  });

  it("refuses a NUL byte in the query as every /api/v1 route does", async () => {
    const response = await getOpenApi(new Request("http://localhost:3000/api/v1/openapi.json?x=%00"));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
  });
});
