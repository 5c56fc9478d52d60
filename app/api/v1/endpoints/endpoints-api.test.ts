import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { PATCH as patchEndpoint } from "./[endpointId]/route";
import { POST as createEndpointRoute } from "../projects/[projectId]/endpoints/route";

afterEach(() => {
  vi.unstubAllEnvs();
});

async function ownerWithProject() {
  const owner = await makeUser();
  const { key } = await createApiKey(prisma, owner.userId, "test");
  const project = await createProject(prisma, owner, { name: "Endpoints API" });
  return { key, projectId: project.id };
}

async function create(key: string, projectId: string, body: Record<string, unknown>) {
  return createEndpointRoute(
    apiRequest(`/api/v1/projects/${projectId}/endpoints`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ projectId }),
  );
}

const patch = (key: string, endpointId: string, body: Record<string, unknown>) =>
  patchEndpoint(
    apiRequest(`/api/v1/endpoints/${endpointId}`, key, { method: "PATCH", body: JSON.stringify(body) }),
    routeContext({ endpointId }),
  );

describe("PATCH /api/v1/endpoints/:id", () => {
  it("changes only the fields sent: temperature, timeout and structured output keep their values", async () => {
    const { key, projectId } = await ownerWithProject();
    const created = await create(key, projectId, {
      name: "vision",
      baseUrl: "http://127.0.0.1:4010/v1",
      model: "m",
      temperature: 0.7,
      timeoutSeconds: 300,
      structuredOutput: false,
      imageDetail: "high",
      maxConcurrency: 9,
      requestsPerMinute: 60,
      pricePer1kInput: 0.5,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const renamed = await patch(key, id, { name: "renamed" });
    expect(renamed.status).toBe(200);
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      name: "renamed",
      temperature: 0.7,
      timeoutSeconds: 300,
      structuredOutput: false,
      imageDetail: "high",
      maxConcurrency: 9,
      requestsPerMinute: 60,
      pricePer1kInput: 0.5,
    });

    // A field that is sent does change, null included.
    expect((await patch(key, id, { temperature: null, structuredOutput: true })).status).toBe(200);
    expect(await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: "renamed",
      temperature: null,
      structuredOutput: true,
      timeoutSeconds: 300,
    });
  });

  it("still fills in the defaults when an endpoint is created without them", async () => {
    const { key, projectId } = await ownerWithProject();
    const created = await create(key, projectId, { name: "defaults", baseUrl: "http://127.0.0.1:4010/v1", model: "m" });
    const { id } = (await created.json()) as { id: string };
    expect(await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({
      temperature: 0,
      timeoutSeconds: 120,
      structuredOutput: true,
      imageDetail: "auto",
      maxConcurrency: 4,
    });
  });
});

describe("the endpoint URL policy on the endpoints API", () => {
  it("refuses loopback, private and metadata addresses, and names resolving to them, unless ALLOW_PRIVATE_ENDPOINTS=1", async () => {
    const { key, projectId } = await ownerWithProject();
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    for (const baseUrl of [
      "http://127.0.0.1:4010/v1",
      "http://localhost:4010/v1",
      "http://169.254.169.254/latest",
      "http://10.1.2.3/v1",
      "http://[::1]:8000/v1",
      "http://[::ffff:127.0.0.1]/v1",
      "http://0.0.0.0:4010/v1",
    ]) {
      const refused = await create(key, projectId, { name: "internal", baseUrl, model: "m" });
      expect(refused.status, baseUrl).toBe(400);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("endpoint_not_allowed");
      expect(body.error.message).toMatch(/ALLOW_PRIVATE_ENDPOINTS=1/);
    }
    expect(await prisma.judgeEndpoint.count({ where: { projectId } })).toBe(0);

    // An existing endpoint can't be moved onto a private address either.
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "1");
    const created = await create(key, projectId, {
      name: "local vLLM",
      baseUrl: "http://127.0.0.1:8000/v1",
      model: "m",
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    const moved = await patch(key, id, { baseUrl: "http://192.168.1.10/v1" });
    expect(moved.status).toBe(400);
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).baseUrl).toBe("http://127.0.0.1:8000/v1");
  });

  it("refuses base URLs with credentials, a query string, a fragment or another scheme, whatever the flag", async () => {
    const { key, projectId } = await ownerWithProject();
    const cases: [string, RegExp][] = [
      ["http://user:pass@127.0.0.1:4010/v1", /user name or password/],
      ["http://127.0.0.1:4010/v1?x=", /query string/],
      ["http://127.0.0.1:4010/v1#frag", /fragment/],
      ["ftp://127.0.0.1/v1", /http\(s\)/],
      ["file:///etc/passwd", /http\(s\)/],
    ];
    for (const [baseUrl, message] of cases) {
      const refused = await create(key, projectId, { name: "bad", baseUrl, model: "m" });
      expect(refused.status, baseUrl).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message, baseUrl).toMatch(message);
    }
    expect(await prisma.judgeEndpoint.count({ where: { projectId } })).toBe(0);
  });
});

describe("the Batch API setting", () => {
  it("is off unless set, changes with PATCH, and a batch run needs it", async () => {
    const { POST: startRun } = await import("../projects/[projectId]/runs/route");
    const { key, projectId } = await ownerWithProject();
    const created = await create(key, projectId, {
      name: "batchable",
      baseUrl: "http://127.0.0.1:4010/v1",
      model: "m",
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).supportsBatchApi).toBe(false);

    const run = () =>
      startRun(
        apiRequest(`/api/v1/projects/${projectId}/runs`, key, {
          method: "POST",
          body: JSON.stringify({ pipeline: "hallucination", endpointId: id, batch: true }),
        }),
        routeContext({ projectId }),
      );
    const refused = await run();
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /does not support the Batch API/,
    );

    expect((await patch(key, id, { supportsBatchApi: true })).status).toBe(200);
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).supportsBatchApi).toBe(true);
    // Past the Batch API check: this project has no video with frames.
    const noVideos = await run();
    expect(noVideos.status).toBe(400);
    expect(((await noVideos.json()) as { error: { message: string } }).error.message).toMatch(
      /No video with key frames/,
    );
  });
});
