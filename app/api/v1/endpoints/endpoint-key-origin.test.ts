import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { prisma } from "@/lib/db/prisma";
import { appSecret } from "@/lib/judge/endpoints/endpoints";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { PATCH as patchEndpoint } from "./[endpointId]/route";
import { POST as createEndpointRoute } from "../projects/[projectId]/endpoints/route";

/** An owner's endpoint on http://127.0.0.1:4010/v1 with a stored key. */
async function endpointWithKey() {
  const owner = await makeUser();
  const { key } = await createApiKey(prisma, owner.userId, "test");
  const projectId = (await createProject(prisma, owner, { name: "Key follows origin" })).id;
  const created = await createEndpointRoute(
    apiRequest(`/api/v1/projects/${projectId}/endpoints`, key, {
      method: "POST",
      body: JSON.stringify({ name: "vision", baseUrl: "http://127.0.0.1:4010/v1", model: "m", apiKey: "sk-secret" }),
    }),
    routeContext({ projectId }),
  );
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const patch = async (body: Record<string, unknown>) => {
    const response = await patchEndpoint(
      apiRequest(`/api/v1/endpoints/${id}`, key, { method: "PATCH", body: JSON.stringify(body) }),
      routeContext({ endpointId: id }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as { hasApiKey: boolean; apiKeyDropped: boolean; baseUrl: string };
  };
  const storedKey = async () => {
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    return row.apiKeyEncrypted ? decryptSecret(row.apiKeyEncrypted, appSecret()) : null;
  };
  return { patch, storedKey };
}

describe("PATCH /api/v1/endpoints/:id: the stored key stays with its server", () => {
  it("a base URL on another host or port drops the stored key, and the answer says so", async () => {
    for (const baseUrl of ["http://localhost:4010/v1", "http://127.0.0.1:4011/v1"]) {
      const { patch, storedKey } = await endpointWithKey();
      const moved = await patch({ baseUrl });
      expect(moved).toMatchObject({ baseUrl, hasApiKey: false, apiKeyDropped: true });
      expect(await storedKey()).toBeNull();
    }
  });

  it("a move that gives the key again stores that key", async () => {
    const { patch, storedKey } = await endpointWithKey();
    expect(await patch({ baseUrl: "http://localhost:4010/v1", apiKey: "sk-new" })).toMatchObject({
      hasApiKey: true,
      apiKeyDropped: false,
    });
    expect(await storedKey()).toBe("sk-new");
  });

  it("a new path, model or name on the same origin keeps the key", async () => {
    const { patch, storedKey } = await endpointWithKey();
    expect(await patch({ baseUrl: "http://127.0.0.1:4010/v2", model: "other", name: "renamed" })).toMatchObject({
      hasApiKey: true,
      apiKeyDropped: false,
    });
    expect(await patch({ baseUrl: "http://127.0.0.1:4010/v2" })).toMatchObject({
      hasApiKey: true,
      apiKeyDropped: false,
    });
    expect(await storedKey()).toBe("sk-secret");
  });
});
