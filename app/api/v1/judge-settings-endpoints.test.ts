import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { PUT as putSettings } from "./projects/[projectId]/judge-settings/[pipeline]/route";

let key: string;
let projectId: string;
let ownEndpointId: string;
let foreignEndpointId: string;

beforeAll(async () => {
  const owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "QA defaults" })).id;
  // Another project: its owner is a co-owner here, yet its endpoint is not this project's.
  const otherProjectId = (await createProject(prisma, owner, { name: "Elsewhere" })).id;
  const endpoint = (pid: string) =>
    prisma.judgeEndpoint.create({
      data: {
        projectId: pid,
        name: "judge",
        baseUrl: "http://127.0.0.1:4010/v1",
        model: "m",
        createdById: owner.userId,
      },
    });
  ownEndpointId = (await endpoint(projectId)).id;
  foreignEndpointId = (await endpoint(otherProjectId)).id;
});

const put = (settings: Record<string, unknown>) =>
  putSettings(
    apiRequest(`/api/v1/projects/${projectId}/judge-settings/qa`, key, {
      method: "PUT",
      body: JSON.stringify(settings),
    }),
    routeContext({ projectId, pipeline: "qa" }),
  );

describe("PUT /api/v1/projects/:id/judge-settings/qa: the judge endpoint must be the project's", () => {
  it("refuses another project's endpoint id when saved (400 naming the role), and saves nothing", async () => {
    const response = await put({ judgeEndpointId: foreignEndpointId });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toContain("judge");
    expect(error.message).toContain(foreignEndpointId);
    expect(await prisma.pipelineSettingsVersion.count({ where: { projectId, pipeline: "qa" } })).toBe(0);
    expect(await put({ judgeEndpointId: "no-such-endpoint" }).then((r) => r.status)).toBe(400);
  });

  it("saves the project's own endpoint", async () => {
    const response = await put({ judgeEndpointId: ownEndpointId });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ judgeEndpointId: ownEndpointId });
  });
});
