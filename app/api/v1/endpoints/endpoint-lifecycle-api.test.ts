import net from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { solidColourDataUrl, solidColourPng, TEST_COLOURS, type TestColour } from "@/lib/judge/endpoints/test-image";
import { testColourOfDataUrl } from "@/testkit/llm-stub/test-image-colour";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { addMember, createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { DELETE as deleteEndpointRoute, PATCH as patchEndpoint } from "./[endpointId]/route";
import { POST as testEndpointRoute } from "./[endpointId]/test/route";
import { GET as listEndpointsRoute, POST as createEndpointRoute } from "../projects/[projectId]/endpoints/route";
import { projectAccess } from "@/lib/authz/permissions";

let stub: StubServer;
beforeAll(async () => {
  stub = await startStubLlm();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());
afterEach(() => {
  vi.unstubAllEnvs();
});

async function ownerWithProject() {
  const owner = await makeUser();
  const { key } = await createApiKey(prisma, owner.userId, "test");
  const project = await createProject(prisma, owner, { name: "Endpoint lifecycle" });
  return { owner, key, projectId: project.id };
}

async function create(key: string, projectId: string, body: Record<string, unknown>): Promise<string> {
  const response = await createEndpointRoute(
    apiRequest(`/api/v1/projects/${projectId}/endpoints`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ projectId }),
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const patch = (key: string, endpointId: string, body: Record<string, unknown>) =>
  patchEndpoint(
    apiRequest(`/api/v1/endpoints/${endpointId}`, key, { method: "PATCH", body: JSON.stringify(body) }),
    routeContext({ endpointId }),
  );
const remove = (key: string, endpointId: string) =>
  deleteEndpointRoute(
    apiRequest(`/api/v1/endpoints/${endpointId}`, key, { method: "DELETE" }),
    routeContext({ endpointId }),
  );
const list = async (key: string, projectId: string, query = "") => {
  const response = await listEndpointsRoute(
    apiRequest(`/api/v1/projects/${projectId}/endpoints${query}`, key),
    routeContext({ projectId }),
  );
  return ((await response.json()) as { endpoints: { id: string; archivedAt: string | null }[] }).endpoints.map(
    (e) => e.id,
  );
};
const test = async (key: string, endpointId: string) => {
  const response = await testEndpointRoute(
    apiRequest(`/api/v1/endpoints/${endpointId}/test`, key, { method: "POST", body: "{}" }),
    routeContext({ endpointId }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("editing an endpoint", () => {
  it("changes name, base URL and model, keeps the stored key when none is sent, and replaces it when one is", async () => {
    const { key, projectId } = await ownerWithProject();
    const id = await create(key, projectId, {
      name: "first",
      baseUrl: stub.baseURL,
      model: "m1",
      apiKey: "sk-original",
    });
    const before = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect((await patch(key, id, { name: "second", baseUrl: `${stub.url}/v1/`, model: "m2" })).status).toBe(200);
    const kept = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect(kept).toMatchObject({
      name: "second",
      baseUrl: `${stub.url}/v1/`,
      model: "m2",
      apiKeyEncrypted: before.apiKeyEncrypted,
    });
    expect((await patch(key, id, { apiKey: "sk-new" })).status).toBe(200);
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).apiKeyEncrypted).not.toBe(
      before.apiKeyEncrypted,
    );
  });
});

describe("archiving and deleting an endpoint", () => {
  it("deletes an unused endpoint; refuses (409) one a run uses, whose archive hides it from run forms and new runs until restored", async () => {
    const { owner, key, projectId } = await ownerWithProject();
    const unused = await create(key, projectId, { name: "unused", baseUrl: stub.baseURL, model: "m" });
    const used = await create(key, projectId, { name: "used", baseUrl: stub.baseURL, model: "m" });
    const judge = await create(key, projectId, { name: "qa judge", baseUrl: stub.baseURL, model: "m" });
    await prisma.judgeRun.create({
      data: { projectId, pipeline: "hallucination", endpointId: used, createdById: owner.userId, status: "done" },
    });
    // A QA run names its judge in its settings, not in endpointId.
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "qa",
        endpointId: used,
        settings: { judgeEndpointId: judge },
        createdById: owner.userId,
        status: "done",
      },
    });

    expect((await remove(key, unused)).status).toBe(204);
    expect(await prisma.judgeEndpoint.findUnique({ where: { id: unused } })).toBeNull();

    const refused = await remove(key, used);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /cannot be deleted: 2 runs use it.*Archive it instead/,
    );
    const refusedJudge = await remove(key, judge);
    expect(refusedJudge.status).toBe(409);
    expect(((await refusedJudge.json()) as { error: { message: string } }).error.message).toMatch(/1 run uses it/);
    expect(await prisma.judgeEndpoint.count({ where: { id: { in: [used, judge] } } })).toBe(2);

    expect((await patch(key, used, { archived: true })).status).toBe(200);
    expect(await list(key, projectId)).toEqual([judge]);
    expect(await list(key, projectId, "?archived=1")).toEqual([used, judge]);
    const { POST: startRun } = await import("../projects/[projectId]/runs/route");
    const run = await startRun(
      apiRequest(`/api/v1/projects/${projectId}/runs`, key, {
        method: "POST",
        body: JSON.stringify({ pipeline: "hallucination", endpointId: used }),
      }),
      routeContext({ projectId }),
    );
    expect(run.status).toBe(400);
    expect(((await run.json()) as { error: { message: string } }).error.message).toMatch(/archived: restore it/);
    // Its runs keep it.
    expect(await prisma.judgeRun.count({ where: { endpointId: used } })).toBe(2);

    expect((await patch(key, used, { archived: false })).status).toBe(200);
    expect(await list(key, projectId)).toEqual([used, judge]);
  });

  it("is for owners: a reviewer gets 403, a stranger 404", async () => {
    const { owner, key, projectId } = await ownerWithProject();
    const id = await create(key, projectId, { name: "mine", baseUrl: stub.baseURL, model: "m" });
    const reviewer = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: reviewer.email,
      role: "reviewer",
    });
    const reviewerKey = (await createApiKey(prisma, reviewer.userId, "r")).key;
    const strangerKey = (await createApiKey(prisma, (await makeUser()).userId, "s")).key;
    expect((await remove(reviewerKey, id)).status).toBe(403);
    expect((await test(reviewerKey, id)).status).toBe(403);
    expect((await remove(strangerKey, id)).status).toBe(404);
    expect((await test(strangerKey, id)).status).toBe(404);
    expect(await prisma.judgeEndpoint.count({ where: { id } })).toBe(1);
  });
});

describe("testing an endpoint", () => {
  it("sends one small image through the judge's client and reports the answer, the latency and that the model took the image", async () => {
    const { key, projectId } = await ownerWithProject();
    const id = await create(key, projectId, {
      name: "stub",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      apiKey: "sk-test-key",
    });
    const { status, body } = await test(key, id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ answered: true, tookImage: "yes", colourNamed: true, error: null, status: null });
    expect(body.latencyMs).toEqual(expect.any(Number));
    expect(body.latencyMs as number).toBeGreaterThanOrEqual(0);
    expect(String(body.answer).toLowerCase()).toContain(String(body.colour));
    expect(JSON.stringify(body)).not.toContain("sk-test-key");
    // What the stub received first: the short prompt and exactly one image; the probe's requests follow it.
    expect(stub.requests[0]).toMatchObject({
      rule: "endpoint-test",
      imageCount: 1,
      text: "What colour is this image? Answer in one word.",
    });
    expect(stub.requests.filter((r) => r.rule === "endpoint-test")).toHaveLength(1);
    expect(body.capabilities).toMatchObject({ images: "yes", jsonMode: "json_schema" });
  });

  it("says whether logprobs come back in one place, the probe's stored capabilities.topLogprobs, whatever the endpoint requests", async () => {
    const { key, projectId } = await ownerWithProject();
    const plain = await create(key, projectId, { name: "plain", baseUrl: stub.baseURL, model: "stub-vision" });
    const plainTest = await test(key, plain);
    expect(plainTest.body).toMatchObject({ answered: true, capabilities: { topLogprobs: true } });
    expect(plainTest.body).not.toHaveProperty("logprobs");
    // A server that never returns them: the finding is stored on the endpoint, where runs read it.
    const withLogprobs = await create(key, projectId, {
      name: "logprobs",
      baseUrl: stub.baseURL,
      model: "stub-vision-no-logprobs",
      requestLogprobs: true,
      topLogprobs: 5,
    });
    expect((await test(key, withLogprobs)).body).toMatchObject({
      answered: true,
      capabilities: { topLogprobs: false },
    });
    expect(await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: withLogprobs } })).toMatchObject({
      requestLogprobs: true,
      topLogprobs: 5,
      capabilities: { topLogprobs: false },
    });
  });

  it("says in plain words when the model refuses images, the key is refused, the model is missing or nothing listens", async () => {
    const { key, projectId } = await ownerWithProject();
    const textOnly = await create(key, projectId, { name: "text", baseUrl: stub.baseURL, model: "stub-text-only" });
    const noImage = await test(key, textOnly);
    expect(noImage.body).toMatchObject({ answered: false, tookImage: "no", status: 400 });
    expect(noImage.body.error).toMatch(
      /^The model does not take images \(400\)\. The endpoint said: “.*image_url is only supported by certain models/,
    );

    const vision = await create(key, projectId, { name: "vision", baseUrl: stub.baseURL, model: "stub-vision" });
    stub.addFault({ fault: { kind: "status", status: 401, message: "Incorrect API key provided" } });
    const unauthorised = await test(key, vision);
    expect(unauthorised.body).toMatchObject({ answered: false, tookImage: "unknown", status: 401 });
    expect(unauthorised.body.error).toMatch(
      /^The API key was refused \(401\)\. The endpoint said: “Incorrect API key provided”/,
    );

    const wrongPath = await create(key, projectId, {
      name: "wrong path",
      baseUrl: `${stub.url}/nothing-here`,
      model: "stub-vision",
    });
    expect((await test(key, wrongPath)).body.error).toMatch(/^The model or URL was not found \(404\)/);

    const port = await closedPort();
    const nobody = await create(key, projectId, { name: "nobody", baseUrl: `http://127.0.0.1:${port}/v1`, model: "m" });
    const refused = await test(key, nobody);
    expect(refused.body).toMatchObject({ answered: false, tookImage: "unknown" });
    expect(refused.body.error).toBe("The connection was refused: nothing is listening at that address and port.");

    stub.addFault({ fault: { kind: "hang" } });
    await prisma.judgeEndpoint.update({ where: { id: vision }, data: { timeoutSeconds: 1 } });
    const slow = await test(key, vision);
    expect(slow.body).toMatchObject({ answered: false });
    expect(slow.body.error).toBe("No answer within 1 s (the endpoint's timeout).");

    // The URL policy holds for tests as for runs: a private address is refused before any request.
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    stub.reset();
    const privateAddress = await test(key, vision);
    expect(privateAddress.body).toMatchObject({ answered: false, latencyMs: 0 });
    expect(privateAddress.body.error).toMatch(/ALLOW_PRIVATE_ENDPOINTS=1/);
    expect(stub.requests).toHaveLength(0);
  });
});

describe("the test image", () => {
  it("is a valid 64×64 PNG whose colour the stub reads back", () => {
    for (const colour of Object.keys(TEST_COLOURS) as TestColour[]) {
      const png = solidColourPng(colour);
      expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([64, 64]);
      expect(png.length).toBeLessThan(1000);
      expect(testColourOfDataUrl(solidColourDataUrl(colour))).toBe(colour);
    }
    expect(testColourOfDataUrl("data:image/jpeg;base64,/9j/4AAQ")).toBeNull();
  });
});

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
