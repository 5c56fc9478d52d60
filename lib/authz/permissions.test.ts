import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ForbiddenError, NotFoundError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import {
  accessFor,
  authorizeInProject,
  memberAccess,
  PROJECT_ACTIONS,
  projectAccess,
  requireProjectAccess,
  roleCan,
} from "./permissions";

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
    const forMissing = await requireProjectAccess(prisma, stranger, "does-not-exist", "project.view").catch(
      (e: Error) => e,
    );
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
    await expect(requireProjectAccess(prisma, viewer, project.id, "project.rename")).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await requireProjectAccess(prisma, owner, project.id, "members.manage")).toBe("owner");
    expect(await requireProjectAccess(prisma, admin, project.id, "members.manage")).toBe("owner");
  });
});

describe("authorizeInProject", () => {
  it("hands back an actor whose later checks in that project use the role it read, with no second membership read, and no wider rights", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Granted" });
    const other = await createProject(prisma, owner, { name: "Other" });
    const reviewer = await makeUser();
    await prisma.projectMember.createMany({
      data: [
        { projectId: project.id, userId: reviewer.userId, role: "reviewer" },
        { projectId: other.id, userId: reviewer.userId, role: "reviewer" },
      ],
    });

    const authorized = await authorizeInProject(prisma, reviewer, project.id, "project.view");
    expect(authorized).toMatchObject({
      role: "reviewer",
      project: { id: project.id, name: "Granted" },
      actor: { userId: reviewer.userId },
    });
    // The grant is invisible: the actor serializes as before.
    expect(JSON.parse(JSON.stringify(authorized.actor))).toEqual(JSON.parse(JSON.stringify(reviewer)));

    // The membership goes away after the check: the granted actor's checks in this project do not read it again
    // (had they, this would be a 404), while the same user without the grant, or in another project, is read afresh.
    await prisma.projectMember.deleteMany({ where: { userId: reviewer.userId } });
    await expect(requireProjectAccess(prisma, authorized.actor, project.id, "scores.review")).resolves.toBe("reviewer");
    await expect(requireProjectAccess(prisma, reviewer, project.id, "scores.review")).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(requireProjectAccess(prisma, authorized.actor, other.id, "project.view")).rejects.toBeInstanceOf(
      NotFoundError,
    );
    // A copy of the actor does not carry the grant; the grant never widens the role's rights.
    await expect(
      requireProjectAccess(prisma, { ...authorized.actor }, project.id, "project.view"),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(requireProjectAccess(prisma, authorized.actor, project.id, "queues.manage")).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    // Without the right for the action asked, nothing is granted.
    const viewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId: project.id, userId: viewer.userId, role: "viewer" } });
    await expect(authorizeInProject(prisma, viewer, project.id, "scores.review")).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});

describe("projectAccess", () => {
  it("is made only for a member whose role may do the action, names it, and widens only as far as the role goes", async () => {
    const owner = await makeUser();
    const viewer = await makeUser();
    const stranger = await makeUser();
    const project = await createProject(prisma, owner, { name: "Access" });
    await prisma.projectMember.create({ data: { projectId: project.id, userId: viewer.userId, role: "viewer" } });

    const edit = await projectAccess(prisma, owner, project.id, "videos.edit");
    expect(edit).toMatchObject({ projectId: project.id, role: "owner", action: "videos.edit" });
    expect(Object.isFrozen(edit)).toBe(true);
    await expect(projectAccess(prisma, viewer, project.id, "videos.edit")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(projectAccess(prisma, stranger, project.id, "project.view")).rejects.toBeInstanceOf(NotFoundError);

    const viewing = await memberAccess(prisma, viewer, project.id);
    expect(viewing).toMatchObject({ role: "viewer", action: "project.view" });
    expect(await memberAccess(prisma, stranger, project.id)).toBeNull();
    expect(accessFor(viewing!, "export.read").action).toBe("export.read");
    expect(() => accessFor(viewing!, "runs.manage")).toThrow(ForbiddenError);
    expect(accessFor(edit, "runs.manage")).toMatchObject({ role: "owner", action: "runs.manage" });

    const authorized = await authorizeInProject(prisma, owner, project.id, "scores.review");
    expect(authorized.access).toMatchObject({ projectId: project.id, role: "owner", action: "scores.review" });
  });
});
