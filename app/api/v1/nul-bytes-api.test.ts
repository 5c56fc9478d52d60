import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { GET as getAgreement } from "./projects/[projectId]/agreement/route";
import { GET as getCompare } from "./projects/[projectId]/compare/route";
import { POST as createEndpoint } from "./projects/[projectId]/endpoints/route";
import { GET as getExport } from "./projects/[projectId]/export/route";
import { PUT as putJudgeSettings } from "./projects/[projectId]/judge-settings/[pipeline]/route";
import { POST as addMember } from "./projects/[projectId]/members/route";
import { POST as createQueue } from "./projects/[projectId]/queues/route";
import { PATCH as patchProject } from "./projects/[projectId]/route";
import { GET as listVideos, POST as postVideo } from "./projects/[projectId]/videos/route";
import { POST as createProjectRoute } from "./projects/route";

let key: string;
let projectId: string;

beforeAll(async () => {
  const owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Nul" })).id;
});

async function expectNulRefused(response: Response, field: string) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect({ status: response.status, code: body.error.code }).toEqual({ status: 400, code: "invalid_request" });
  expect(body.error.message).toContain(field);
  expect(body.error.message).toMatch(/NUL/);
}

describe("a NUL byte in any text input is a 400 naming the field, never a 500", () => {
  it("in the video list's, the agreement's, the export's and the compare page's filters", async () => {
    await expectNulRefused(
      await listVideos(
        apiRequest(`/api/v1/projects/${projectId}/videos?prompt=a%00b`, key),
        routeContext({ projectId }),
      ),
      "prompt",
    );
    await expectNulRefused(
      await listVideos(apiRequest(`/api/v1/projects/${projectId}/videos?model=%00`, key), routeContext({ projectId })),
      "model",
    );
    await expectNulRefused(
      await getAgreement(
        apiRequest(`/api/v1/projects/${projectId}/agreement?dimension=x%00`, key),
        routeContext({ projectId }),
      ),
      "dimension",
    );
    await expectNulRefused(
      await getExport(
        apiRequest(`/api/v1/projects/${projectId}/export?prompt=a%00b`, key),
        routeContext({ projectId }),
      ),
      "prompt",
    );
    await expectNulRefused(
      await getCompare(
        apiRequest(`/api/v1/projects/${projectId}/compare?prompt=a%00b`, key),
        routeContext({ projectId }),
      ),
      "prompt",
    );
  });

  it("in names, emails and nested JSON fields", async () => {
    const json = (path: string, method: string, body: unknown) =>
      apiRequest(path, key, { method, body: JSON.stringify(body) });
    await expectNulRefused(
      await createProjectRoute(json("/api/v1/projects", "POST", { name: "a\u0000b" }), routeContext({}) as never),
      "name",
    );
    await expectNulRefused(
      await patchProject(
        json(`/api/v1/projects/${projectId}`, "PATCH", { name: "a\u0000b" }),
        routeContext({ projectId }),
      ),
      "name",
    );
    await expectNulRefused(
      await addMember(
        json(`/api/v1/projects/${projectId}/members`, "POST", { email: "a\u0000@x.test", role: "viewer" }),
        routeContext({ projectId }),
      ),
      "email",
    );
    await expectNulRefused(
      await createQueue(
        json(`/api/v1/projects/${projectId}/queues`, "POST", { name: "q\u0000", scope: "verdict" }),
        routeContext({ projectId }),
      ),
      "name",
    );
    await expectNulRefused(
      await createEndpoint(
        json(`/api/v1/projects/${projectId}/endpoints`, "POST", {
          name: "e\u0000",
          baseUrl: "http://127.0.0.1:1/v1",
          model: "m",
          apiKey: "k",
        }),
        routeContext({ projectId }),
      ),
      "name",
    );
    await expectNulRefused(
      await putJudgeSettings(
        json(`/api/v1/projects/${projectId}/judge-settings/hallucination`, "PUT", { aggregation: "x\u0000" }),
        routeContext({ projectId, pipeline: "hallucination" }),
      ),
      "aggregation",
    );
    // Nested: a note inside a list of judgments names its path.
    await expectNulRefused(
      await createQueue(
        json(`/api/v1/projects/${projectId}/queues`, "POST", {
          name: "q",
          scope: "scores",
          categories: ["s1", "s\u00002"],
        }),
        routeContext({ projectId }),
      ),
      "categories.1",
    );
    expect((await prisma.project.findUniqueOrThrow({ where: { id: projectId } })).name).toBe("Nul");
  });

  it("in multipart fields and the JSON inside them", async () => {
    const upload = (form: FormData) =>
      postVideo(
        new Request(`http://x/api/v1/projects/${projectId}/videos`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          body: form,
        }),
        routeContext({ projectId }),
      );
    const withField = (name: string, value: string) => {
      const form = new FormData();
      form.set(name, value);
      form.set("file", new Blob([new Uint8Array(10)]), "a-0.mp4");
      return form;
    };
    await expectNulRefused(await upload(withField("model", "m\u0000")), "model");
    await expectNulRefused(
      await upload(withField("metadata", JSON.stringify({ prompt: "a\u0000b" }))),
      "metadata.prompt",
    );
    expect(await prisma.video.count({ where: { projectId } })).toBe(0);
  });
});
