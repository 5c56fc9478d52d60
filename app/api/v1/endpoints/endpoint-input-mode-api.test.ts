import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { PATCH as patchEndpoint } from "./[endpointId]/route";
import { POST as createEndpointRoute } from "../projects/[projectId]/endpoints/route";

async function ownerWithProject() {
  const owner = await makeUser();
  const { key } = await createApiKey(prisma, owner.userId, "test");
  const project = await createProject(prisma, owner, { name: "Input modes API" });
  return { key, projectId: project.id };
}

const create = (key: string, projectId: string, body: Record<string, unknown>) =>
  createEndpointRoute(
    apiRequest(`/api/v1/projects/${projectId}/endpoints`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ projectId }),
  );

const patch = (key: string, endpointId: string, body: Record<string, unknown>) =>
  patchEndpoint(
    apiRequest(`/api/v1/endpoints/${endpointId}`, key, { method: "PATCH", body: JSON.stringify(body) }),
    routeContext({ endpointId }),
  );

const base = { name: "video", baseUrl: "http://127.0.0.1:4010/v1", model: "qwen" };

describe("an endpoint's input mode through the API", () => {
  it("is images unless given, is set on create and changed with PATCH, and keeps the probe's findings", async () => {
    const { key, projectId } = await ownerWithProject();
    const plain = (await (await create(key, projectId, base)).json()) as { id: string };
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: plain.id } })).inputMode).toBe("images");

    const created = await create(key, projectId, { ...base, inputMode: "video-frames" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).inputMode).toBe("video-frames");

    const probed = { images: "yes", maxImages: 1, jsonMode: null, topLogprobs: null, usage: null };
    await prisma.judgeEndpoint.update({ where: { id }, data: { capabilities: probed, probedAt: new Date() } });
    const changed = await patch(key, id, { inputMode: "video-file" });
    expect(changed.status).toBe(200);
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.inputMode).toBe("video-file");
    // The mode is the owner's choice over the same server: the probe still holds.
    expect(row.capabilities).toEqual(probed);
    expect(row.probedAt).not.toBeNull();
  });

  it("refuses a mode that is not one with a 400 naming the field, and changes nothing", async () => {
    const { key, projectId } = await ownerWithProject();
    const refusedCreate = await create(key, projectId, { ...base, inputMode: "video" });
    expect(refusedCreate.status).toBe(400);
    expect(((await refusedCreate.json()) as { error: { message: string } }).error.message).toMatch(/inputMode/);
    expect(await prisma.judgeEndpoint.count({ where: { projectId } })).toBe(0);

    const { id } = (await (await create(key, projectId, base)).json()) as { id: string };
    for (const inputMode of ["VIDEO-FRAMES", "", null, 3]) {
      const refused = await patch(key, id, { name: "renamed", inputMode });
      expect(refused.status).toBe(400);
    }
    expect(await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: "video",
      inputMode: "images",
    });
  });
});
