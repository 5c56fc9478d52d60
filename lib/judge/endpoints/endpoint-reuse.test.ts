import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "../../auth/actor";
import { decryptSecret, encryptSecret } from "../../crypto/secret-box";
import { prisma } from "../../db/prisma";
import { ForbiddenError, NotFoundError, ValidationError } from "../../errors";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { EndpointNotAllowedError } from "./endpoint-url-policy";
import { copyEndpointFromProject, listReusableEndpoints, UndecryptableKeyError } from "./endpoint-reuse";
import { testEndpoint } from "./endpoint-test";
import { endpointConfigOf } from "./endpoints";
import { accessOfEndpoint } from "../../../testkit/testing/record-access";
import { projectAccess } from "../../authz/permissions";
import { endpointLookup } from "../../api/project-lookups";
import { accessOfRecord } from "../../api/record-access";

/**
 * Endpoints reused across a user's projects (lib/judge/endpoints/endpoint-reuse.ts): which endpoints a project's owner is
 * offered, and that a copy is a working endpoint of the new project with the same key, made only for someone who
 * manages endpoints in both projects.
 */

let stub: StubServer;
beforeAll(async () => {
  stub = await startStubLlm();
});
afterAll(() => stub.close());
afterEach(() => vi.unstubAllEnvs());

const appSecret = () => process.env.APP_SECRET!;

/** An owner with a first project holding a stub endpoint with a key, and a second, empty project. */
async function ownerWithTwoProjects(apiKey = "sk-reuse-secret-1234") {
  const owner = await makeUser();
  const first = await createProject(prisma, owner, { name: "First" });
  const second = await createProject(prisma, owner, { name: "Second" });
  const endpoint = await createStubEndpoint(prisma, owner, first.id, stub.baseURL, "stub-vision", {
    name: "Stub judge",
    apiKey,
    maxConcurrency: 7,
    requestsPerMinute: 90,
    pricePer1kInput: 0.25,
  });
  return { owner, first, second, endpoint };
}

async function addMember(projectId: string, user: Actor, role: "owner" | "reviewer" | "viewer") {
  await prisma.projectMember.create({ data: { projectId, userId: user.userId, role } });
}

describe("listReusableEndpoints", () => {
  it("offers a second project of the same owner the first's endpoint: name, base URL and model, never the key", async () => {
    const { owner, first, second, endpoint } = await ownerWithTwoProjects();
    const offered = await listReusableEndpoints(
      prisma,
      await projectAccess(prisma, owner, second.id, "endpoints.manage"),
    );
    expect(offered).toEqual([
      {
        id: endpoint.id,
        name: "Stub judge",
        baseUrl: stub.baseURL,
        model: "stub-vision",
        hasApiKey: true,
        project: { id: first.id, name: "First" },
        alreadyHere: false,
      },
    ]);
    const stored = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(JSON.stringify(offered)).not.toContain("sk-reuse-secret-1234");
    expect(JSON.stringify(offered)).not.toContain(stored.apiKeyEncrypted!);
    // The first project is not offered its own endpoint.
    expect(
      await listReusableEndpoints(prisma, await projectAccess(prisma, owner, first.id, "endpoints.manage")),
    ).toEqual([]);
  });

  it("does not list another user's endpoints, those of projects where the owner only reviews or views, or archived ones", async () => {
    const { owner, second } = await ownerWithTwoProjects();
    const other = await ownerWithTwoProjects();
    const reviewed = await createProject(prisma, other.owner, { name: "Reviewed" });
    await createStubEndpoint(prisma, other.owner, reviewed.id, stub.baseURL, "stub-reviewed", {
      name: "Reviewed stub",
    });
    await addMember(reviewed.id, owner, "reviewer");
    const viewed = await createProject(prisma, other.owner, { name: "Viewed" });
    await createStubEndpoint(prisma, other.owner, viewed.id, stub.baseURL, "stub-viewed", { name: "Viewed stub" });
    await addMember(viewed.id, owner, "viewer");
    const archivedProject = await createProject(prisma, owner, { name: "Has an archived endpoint" });
    const archived = await createStubEndpoint(prisma, owner, archivedProject.id, stub.baseURL, "stub-archived", {
      name: "Archived stub",
    });
    await prisma.judgeEndpoint.update({ where: { id: archived.id }, data: { archivedAt: new Date() } });

    const names = (
      await listReusableEndpoints(prisma, await projectAccess(prisma, owner, second.id, "endpoints.manage"))
    ).map((endpoint) => endpoint.name);
    expect(names).toEqual(["Stub judge"]);
    // The other user is offered their own, and none of the first owner's.
    expect(
      (
        await listReusableEndpoints(
          prisma,
          await projectAccess(prisma, other.owner, other.second.id, "endpoints.manage"),
        )
      )
        .map((endpoint) => endpoint.name)
        .sort(),
    ).toEqual(["Reviewed stub", "Stub judge", "Viewed stub"]);
    expect(
      (
        await listReusableEndpoints(
          prisma,
          await projectAccess(prisma, other.owner, other.second.id, "endpoints.manage"),
        )
      ).map((endpoint) => endpoint.project.id),
    ).not.toContain(second.id);
  });

  it("also offers the endpoints of a project the owner was made an owner of, and a site admin every project's", async () => {
    const { owner, second } = await ownerWithTwoProjects();
    const colleague = await ownerWithTwoProjects();
    await addMember(colleague.first.id, owner, "owner");
    expect(
      (await listReusableEndpoints(prisma, await projectAccess(prisma, owner, second.id, "endpoints.manage"))).map(
        (endpoint) => endpoint.id,
      ),
    ).toContain(colleague.endpoint.id);
    const admin = await makeUser({ isAdmin: true });
    const adminProject = await createProject(prisma, admin, { name: "Admin's" });
    const offered = (
      await listReusableEndpoints(prisma, await projectAccess(prisma, admin, adminProject.id, "endpoints.manage"))
    ).map((endpoint) => endpoint.id);
    expect(offered).toContain(colleague.endpoint.id);
  });

  it("is for those who manage endpoints in the target: a reviewer gets 403, a non-member 404", async () => {
    const { first, second } = await ownerWithTwoProjects();
    const reviewer = await makeUser();
    await addMember(second.id, reviewer, "reviewer");
    await addMember(first.id, reviewer, "owner");
    await expect(projectAccess(prisma, reviewer, second.id, "endpoints.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(projectAccess(prisma, await makeUser(), second.id, "endpoints.manage")).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

/**
 * What POST /projects/:id/endpoints/reusable does: the target's access (its wrapper), then the endpoint's own
 * project's (lib/api/record-access.ts), then the copy.
 */
async function copyAsTheRouteDoes(actor: Actor, input: { fromEndpointId: string; toProjectId: string }) {
  const to = await projectAccess(prisma, actor, input.toProjectId, "endpoints.manage");
  const from = await accessOfRecord(actor, endpointLookup, { endpointId: input.fromEndpointId }, "endpoints.manage");
  return copyEndpointFromProject(prisma, to, from.access, input.fromEndpointId);
}

describe("copyEndpointFromProject", () => {
  it("copies the endpoint into the second project: every setting, and the key encrypted again to the same value; the copy works", async () => {
    const { owner, second, endpoint } = await ownerWithTwoProjects();
    const copy = await copyAsTheRouteDoes(owner, { fromEndpointId: endpoint.id, toProjectId: second.id });
    expect(copy).not.toHaveProperty("apiKeyEncrypted");
    expect(copy.hasApiKey).toBe(true);

    const source = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: copy.id } });
    expect(row).toMatchObject({
      projectId: second.id,
      name: "Stub judge",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      maxConcurrency: 7,
      requestsPerMinute: 90,
      pricePer1kInput: 0.25,
      archivedAt: null,
    });
    expect(row.id).not.toBe(source.id);
    // Encrypted again (a new IV), to the same key.
    expect(row.apiKeyEncrypted).not.toBe(source.apiKeyEncrypted);
    expect(decryptSecret(row.apiKeyEncrypted!, appSecret())).toBe(decryptSecret(source.apiKeyEncrypted!, appSecret()));
    expect(endpointConfigOf(row).apiKey).toBe("sk-reuse-secret-1234");
    // The source is untouched.
    expect(await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toEqual(source);

    // A working endpoint of the second project: the Test answers through it.
    stub.reset();
    const tested = await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, copy.id), copy.id, {
      probeBudgetMs: 1,
    });
    expect(tested.answered).toBe(true);
    expect(tested.tookImage).toBe("yes");
    expect(stub.requests[0]).toMatchObject({ model: "stub-vision", headers: { authorization: true } });

    // The second project now lists it as its own, and the offer says it is already here.
    expect((await prisma.judgeEndpoint.findMany({ where: { projectId: second.id } })).map((e) => e.id)).toEqual([
      copy.id,
    ]);
    expect(
      (await listReusableEndpoints(prisma, await projectAccess(prisma, owner, second.id, "endpoints.manage"))).find(
        (e) => e.id === endpoint.id,
      )?.alreadyHere,
    ).toBe(true);
  });

  it("copies an endpoint without a key as one without a key, with what its probe found", async () => {
    const owner = await makeUser();
    const first = await createProject(prisma, owner, { name: "Keyless" });
    const second = await createProject(prisma, owner, { name: "Keyless too" });
    const endpoint = await createStubEndpoint(prisma, owner, first.id, stub.baseURL);
    await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, endpoint.id), endpoint.id);
    const probed = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(probed.capabilities).not.toBeNull();
    const copy = await copyAsTheRouteDoes(owner, { fromEndpointId: endpoint.id, toProjectId: second.id });
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: copy.id } });
    expect(row.apiKeyEncrypted).toBeNull();
    expect(row.capabilities).toEqual(probed.capabilities);
    expect(row.probedAt).toEqual(probed.probedAt);
  });

  it("needs the right to manage endpoints in both projects; nothing is copied otherwise", async () => {
    const { owner, first, second, endpoint } = await ownerWithTwoProjects();
    const stranger = await makeUser();
    const strangerProject = await createProject(prisma, stranger, { name: "Stranger's" });
    // A non-member of the source: as for an endpoint that does not exist.
    const notMember = await copyAsTheRouteDoes(stranger, {
      fromEndpointId: endpoint.id,
      toProjectId: strangerProject.id,
    }).catch((e: unknown) => e);
    expect(notMember).toBeInstanceOf(NotFoundError);
    expect((notMember as Error).message).toBe("No such endpoint.");
    const missing = await copyAsTheRouteDoes(stranger, {
      fromEndpointId: "no-such-endpoint",
      toProjectId: strangerProject.id,
    }).catch((e: unknown) => e);
    expect((missing as Error).message).toBe((notMember as Error).message);

    // A reviewer of the source, who owns the target: forbidden.
    await addMember(first.id, stranger, "reviewer");
    await expect(
      copyAsTheRouteDoes(stranger, { fromEndpointId: endpoint.id, toProjectId: strangerProject.id }),
    ).rejects.toBeInstanceOf(ForbiddenError);

    // An owner of the source who only reviews the target: forbidden; a non-member of the target: no such project.
    const colleague = await makeUser();
    await addMember(first.id, colleague, "owner");
    await addMember(second.id, colleague, "reviewer");
    await expect(
      copyAsTheRouteDoes(colleague, { fromEndpointId: endpoint.id, toProjectId: second.id }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const noTarget = await copyAsTheRouteDoes(colleague, {
      fromEndpointId: endpoint.id,
      toProjectId: strangerProject.id,
    }).catch((e: unknown) => e);
    expect(noTarget).toBeInstanceOf(NotFoundError);
    expect((noTarget as Error).message).toBe("No such project.");

    // Into its own project: refused.
    await expect(
      copyAsTheRouteDoes(owner, { fromEndpointId: endpoint.id, toProjectId: first.id }),
    ).rejects.toBeInstanceOf(ValidationError);

    expect(await prisma.judgeEndpoint.count({ where: { projectId: { in: [second.id, strangerProject.id] } } })).toBe(0);
    expect(await prisma.judgeEndpoint.count({ where: { projectId: first.id } })).toBe(1);
  });

  it("refuses a base URL the endpoint policy refuses now, and a key APP_SECRET no longer opens", async () => {
    const { owner, second, endpoint } = await ownerWithTwoProjects();
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    await expect(
      copyAsTheRouteDoes(owner, { fromEndpointId: endpoint.id, toProjectId: second.id }),
    ).rejects.toBeInstanceOf(EndpointNotAllowedError);
    vi.unstubAllEnvs();

    await prisma.judgeEndpoint.update({
      where: { id: endpoint.id },
      data: { apiKeyEncrypted: encryptSecret("sk-under-an-old-secret", "an-older-app-secret-an-older-app-secret") },
    });
    const refused = await copyAsTheRouteDoes(owner, {
      fromEndpointId: endpoint.id,
      toProjectId: second.id,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UndecryptableKeyError);
    expect((refused as UndecryptableKeyError).status).toBe(409);
    expect(await prisma.judgeEndpoint.count({ where: { projectId: second.id } })).toBe(0);
  });
});
