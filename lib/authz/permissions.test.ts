import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ForbiddenError, NotFoundError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../testing/fixtures";
import { PROJECT_ACTIONS, requireProjectAccess, roleCan } from "./permissions";

describe("roleCan", () => {
  it("gives owners everything, reviewers review, viewers only read", () => {
    for (const action of PROJECT_ACTIONS) expect(roleCan("owner", action)).toBe(true);
    expect(roleCan("reviewer", "scores.review")).toBe(true);
    expect(roleCan("reviewer", "members.manage")).toBe(false);
    expect(roleCan("reviewer", "runs.manage")).toBe(false);
    expect(roleCan("viewer", "project.view")).toBe(true);
    expect(roleCan("viewer", "scores.review")).toBe(false);
    expect(roleCan("viewer", "endpoints.manage")).toBe(false);
  });
});

describe("requireProjectAccess", () => {
  it("answers non-members exactly as for a project that does not exist", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const project = await createProject(prisma, owner, { name: "Private" });
    const forMissing = await requireProjectAccess(prisma, stranger, "does-not-exist", "project.view").catch((e: Error) => e);
    const forStranger = await requireProjectAccess(prisma, stranger, project.id, "project.view").catch((e: Error) => e);
    expect(forStranger).toBeInstanceOf(NotFoundError);
    expect(forMissing).toBeInstanceOf(NotFoundError);
    expect((forStranger as Error).message).toBe((forMissing as Error).message);
  });

  it("forbids members what their role does not allow, and treats site admins as owners", async () => {
    const owner = await makeUser();
    const viewer = await makeUser();
    const admin = await makeUser({ isAdmin: true });
    const project = await createProject(prisma, owner, { name: "Roles" });
    await prisma.projectMember.create({ data: { projectId: project.id, userId: viewer.userId, role: "viewer" } });
    expect(await requireProjectAccess(prisma, viewer, project.id, "project.view")).toBe("viewer");
    await expect(requireProjectAccess(prisma, viewer, project.id, "project.rename")).rejects.toBeInstanceOf(ForbiddenError);
    expect(await requireProjectAccess(prisma, owner, project.id, "members.manage")).toBe("owner");
    expect(await requireProjectAccess(prisma, admin, project.id, "members.manage")).toBe("owner");
  });
});
