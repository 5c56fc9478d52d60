import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { createStubEndpoint } from "@/testkit/testing/stub-endpoint";
import { GET as listEndpointsRoute } from "../projects/[projectId]/endpoints/route";
import { GET as listReusable, POST as copyReusable } from "../projects/[projectId]/endpoints/reusable/route";

// GET and POST /api/v1/projects/:id/endpoints/reusable: the endpoints of the caller's other projects, and a copy
// of one into this project, for owners of both projects only.

const BASE_URL = "http://127.0.0.1:4010/v1";
const KEY = "sk-api-reuse-never-answered";

let owner: Actor;
let ownerKey: string;
let firstId: string;
let secondId: string;
let endpointId: string;
beforeAll(async () => {
  owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "test")).key;
  firstId = (await createProject(prisma, owner, { name: "API first" })).id;
  secondId = (await createProject(prisma, owner, { name: "API second" })).id;
  endpointId = (
    await createStubEndpoint(prisma, owner, firstId, BASE_URL, "stub-vision", { name: "Shared stub", apiKey: KEY })
  ).id;
});

const list = (key: string, projectId: string) =>
  listReusable(apiRequest(`/api/v1/projects/${projectId}/endpoints/reusable`, key), routeContext({ projectId }));
const copy = (key: string, projectId: string, body: unknown) =>
  copyReusable(
    apiRequest(`/api/v1/projects/${projectId}/endpoints/reusable`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ projectId }),
  );

async function userWithKey() {
  const user = await makeUser();
  return { user, key: (await createApiKey(prisma, user.userId, "test")).key };
}

describe("GET /api/v1/projects/:id/endpoints/reusable", () => {
  it("lists the owner's first project's endpoint in the second, never the key", async () => {
    const response = await list(ownerKey, secondId);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("apiKeyEncrypted");
    const body = JSON.parse(text) as {
      endpoints: { id: string; name: string; baseUrl: string; model: string; project: { id: string } }[];
    };
    expect(body.endpoints).toEqual([
      expect.objectContaining({
        id: endpointId,
        name: "Shared stub",
        baseUrl: BASE_URL,
        model: "stub-vision",
        hasApiKey: true,
        project: { id: firstId, name: "API first" },
      }),
    ]);
  });

  it("answers a non-member of the project 404 and a reviewer 403", async () => {
    const stranger = await userWithKey();
    expect((await list(stranger.key, secondId)).status).toBe(404);
    const reviewer = await userWithKey();
    await prisma.projectMember.create({
      data: { projectId: secondId, userId: reviewer.user.userId, role: "reviewer" },
    });
    expect((await list(reviewer.key, secondId)).status).toBe(403);
  });
});

describe("POST /api/v1/projects/:id/endpoints/reusable", () => {
  it("copies the endpoint with its key (never answered), and the project lists it", async () => {
    const response = await copy(ownerKey, secondId, { fromEndpointId: endpointId });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain(KEY);
    const { id } = JSON.parse(text) as { id: string };
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.projectId).toBe(secondId);
    expect(decryptSecret(row.apiKeyEncrypted!, process.env.APP_SECRET!)).toBe(KEY);
    const listed = (await (
      await listEndpointsRoute(
        apiRequest(`/api/v1/projects/${secondId}/endpoints`, ownerKey),
        routeContext({ projectId: secondId }),
      )
    ).json()) as { endpoints: { id: string }[] };
    expect(listed.endpoints.map((endpoint) => endpoint.id)).toContain(id);
  });

  it("answers 404 for an endpoint of a project the caller is not a member of, 403 for one they only review, and copies nothing", async () => {
    const other = await userWithKey();
    const otherProject = await createProject(prisma, other.user, { name: "Other's" });
    const notMember = await copy(other.key, otherProject.id, { fromEndpointId: endpointId });
    expect(notMember.status).toBe(404);
    expect(((await notMember.json()) as { error: { message: string } }).error.message).toBe("No such endpoint.");
    await prisma.projectMember.create({ data: { projectId: firstId, userId: other.user.userId, role: "reviewer" } });
    const reviewer = await copy(other.key, otherProject.id, { fromEndpointId: endpointId });
    expect(reviewer.status).toBe(403);
    expect(await prisma.judgeEndpoint.count({ where: { projectId: otherProject.id } })).toBe(0);
  });

  it("answers 403 to an owner of the source who reviews the target, 404 to a non-member of the target, and 400 to a body without an endpoint", async () => {
    const colleague = await userWithKey();
    await prisma.projectMember.create({ data: { projectId: firstId, userId: colleague.user.userId, role: "owner" } });
    const ownProject = await createProject(prisma, colleague.user, { name: "Colleague's" });
    const target = await createProject(prisma, owner, { name: "Reviewed by the colleague" });
    await prisma.projectMember.create({
      data: { projectId: target.id, userId: colleague.user.userId, role: "reviewer" },
    });
    expect((await copy(colleague.key, target.id, { fromEndpointId: endpointId })).status).toBe(403);
    const stranger = await userWithKey();
    expect((await copy(stranger.key, target.id, { fromEndpointId: endpointId })).status).toBe(404);
    expect((await copy(colleague.key, ownProject.id, {})).status).toBe(400);
    expect(await prisma.judgeEndpoint.count({ where: { projectId: target.id } })).toBe(0);
    // The colleague, owner of both, may copy it into their own project.
    expect((await copy(colleague.key, ownProject.id, { fromEndpointId: endpointId })).status).toBe(201);
  });
});
