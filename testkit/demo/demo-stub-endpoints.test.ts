import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../../lib/db/prisma";
import { testEndpoint } from "../../lib/judge/endpoints/endpoint-test";
import { copyEndpointFromProject, listReusableEndpoints } from "../../lib/judge/endpoints/endpoint-reuse";
import { startStubLlm, type StubServer } from "../llm-stub/stub-server";
import { createProject } from "../../lib/projects/projects";
import { makeUser } from "../testing/fixtures";
import { createStubEndpoint } from "../testing/stub-endpoint";
import { DEMO_STUB_ENDPOINT, moveDemoStubEndpoints } from "./demo-stub-endpoints";
import { accessOfEndpoint } from "../testing/record-access";
import { projectAccess } from "@/lib/authz/permissions";

/**
 * The demo's stub endpoint is one a new project of the demo user can pick (lib/judge/endpoints/endpoint-reuse.ts), and a
 * later `npm run demo`, whose stub listens on another port, moves the copies with it.
 */

let firstStub: StubServer;
let laterStub: StubServer;
beforeAll(async () => {
  [firstStub, laterStub] = await Promise.all([startStubLlm(), startStubLlm()]);
});
afterAll(async () => {
  await Promise.all([firstStub.close(), laterStub.close()]);
});

describe("the demo's stub endpoint in the demo user's new projects", () => {
  it("is offered to a new project, copied as a working endpoint, and moved with the stub's port on the next start", async () => {
    // As the demo seeds it: the demo user (a site admin) owns the demo project with the stub endpoint.
    const demoUser = await makeUser({ isAdmin: true });
    const demoProject = await createProject(prisma, demoUser, { name: "Demo — simulated judgments" });
    const stubEndpoint = await createStubEndpoint(prisma, demoUser, demoProject.id, firstStub.baseURL, "stub-vision", {
      name: DEMO_STUB_ENDPOINT,
      maxConcurrency: 8,
    });

    const mine = await createProject(prisma, demoUser, { name: "My own project" });
    const offered = await listReusableEndpoints(
      prisma,
      await projectAccess(prisma, demoUser, mine.id, "endpoints.manage"),
    );
    expect(offered.find((endpoint) => endpoint.id === stubEndpoint.id)).toMatchObject({
      name: DEMO_STUB_ENDPOINT,
      baseUrl: firstStub.baseURL,
      model: "stub-vision",
      project: { id: demoProject.id },
    });
    const copy = await copyEndpointFromProject(
      prisma,
      await projectAccess(prisma, demoUser, mine.id, "endpoints.manage"),
      await projectAccess(prisma, demoUser, demoProject.id, "endpoints.manage"),
      stubEndpoint.id,
    );
    expect(
      (await testEndpoint(prisma, await accessOfEndpoint(prisma, demoUser, copy.id), copy.id, { probeBudgetMs: 1 }))
        .answered,
    ).toBe(true);

    // Someone else's endpoint at the same address is none of the demo's business.
    const other = await makeUser();
    const otherProject = await createProject(prisma, other, { name: "Someone else's" });
    const unrelated = await createStubEndpoint(prisma, other, otherProject.id, firstStub.baseURL);

    // The next start: the stub listens elsewhere.
    const moved = await moveDemoStubEndpoints(prisma, {
      userId: demoUser.userId,
      demoProjectId: demoProject.id,
      stubBaseUrl: laterStub.baseURL,
    });
    expect(moved).toBe(2);
    const baseUrlOf = async (id: string) => (await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).baseUrl;
    expect(await baseUrlOf(stubEndpoint.id)).toBe(laterStub.baseURL);
    expect(await baseUrlOf(copy.id)).toBe(laterStub.baseURL);
    expect(await baseUrlOf(unrelated.id)).toBe(firstStub.baseURL);
    laterStub.reset();
    expect(
      (await testEndpoint(prisma, await accessOfEndpoint(prisma, demoUser, copy.id), copy.id, { probeBudgetMs: 1 }))
        .answered,
    ).toBe(true);
    expect(laterStub.requests.length).toBeGreaterThan(0);

    // Started again on the same port: nothing to move.
    expect(
      await moveDemoStubEndpoints(prisma, {
        userId: demoUser.userId,
        demoProjectId: demoProject.id,
        stubBaseUrl: laterStub.baseURL,
      }),
    ).toBe(0);
  });
});
