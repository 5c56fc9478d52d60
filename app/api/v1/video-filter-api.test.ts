import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { GET as listVideos } from "./projects/[projectId]/videos/route";
import { GET as queuePreview } from "./projects/[projectId]/queues/preview/route";

let key: string;
let projectId: string;

beforeAll(async () => {
  const owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Filter keys" })).id;
});

const list = (query: string) =>
  listVideos(apiRequest(`/api/v1/projects/${projectId}/videos?${query}`, key), routeContext({ projectId }));

async function errorOf(response: Response) {
  expect(response.status).toBe(400);
  return ((await response.json()) as { error: { code: string; message: string } }).error.message;
}

describe("a metric filter no task declares is a 400 naming it, not ignored", () => {
  it("GET …/videos?min.Overall=101 (a typo of min.overall) is refused", async () => {
    const message = await errorOf(await list("min.Overall=101"));
    expect(message).toContain("min.Overall");
    expect(message).toContain('no task declares a metric "Overall"');
  });

  it("a bound the metric does not take (is. on a numeric one) is refused too", async () => {
    const message = await errorOf(await list("is.overall=1"));
    expect(message).toContain("is.overall");
    expect(message).toContain("takes min. and max.");
  });

  it("the queue preview refuses it the same way", async () => {
    const response = await queuePreview(
      apiRequest(`/api/v1/projects/${projectId}/queues/preview?max.nope=1`, key),
      routeContext({ projectId }),
    );
    expect(await errorOf(response)).toContain("max.nope");
  });

  it("a declared metric filter, and a key that is no filter at all, are still answered", async () => {
    expect((await list("min.overall=0.5")).status).toBe(200);
    expect((await list("utm_source=mail")).status).toBe(200);
  });
});
