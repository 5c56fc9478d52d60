import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectAccess } from "../authz/permissions";
import {
  addMember,
  changeMemberRole,
  createProject,
  listMembers,
  listProjects,
  removeMember,
  renameProject,
  setProjectArchived,
} from "./projects";

describe("projects", () => {
  it("lists only the projects a user belongs to, with their role", async () => {
    const alice = await makeUser();
    const bob = await makeUser();
    const mine = await createProject(prisma, alice, { name: "Alice's" });
    await createProject(prisma, bob, { name: "Bob's" });
    const list = await listProjects(prisma, alice);
    expect(list.map((p) => p.id)).toEqual([mine.id]);
    expect(list[0]).toMatchObject({ name: "Alice's", role: "owner", archived: false, memberCount: 1 });
  });

  it("lets owners add members by email, change roles and remove them", async () => {
    const owner = await makeUser();
    const reviewer = await makeUser();
    const project = await createProject(prisma, owner, { name: "Team" });
    const managed = await projectAccess(prisma, owner, project.id, "members.manage");
    await addMember(prisma, managed, {
      projectId: project.id,
      email: reviewer.email.toUpperCase().toLowerCase(),
      role: "reviewer",
    });
    expect((await listProjects(prisma, reviewer)).map((p) => [p.id, p.role])).toEqual([[project.id, "reviewer"]]);

    await expect(projectAccess(prisma, reviewer, project.id, "members.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      addMember(prisma, managed, { projectId: project.id, email: "nobody@example.test", role: "viewer" }),
    ).rejects.toThrow(/No account uses/);

    await changeMemberRole(prisma, managed, { projectId: project.id, userId: reviewer.userId, role: "viewer" });
    expect((await listMembers(prisma, managed)).find((m) => m.userId === reviewer.userId)?.role).toBe("viewer");
    await removeMember(prisma, managed, { projectId: project.id, userId: reviewer.userId });
    expect(await listProjects(prisma, reviewer)).toEqual([]);
    await expect(projectAccess(prisma, reviewer, project.id, "project.view")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("always keeps at least one owner", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Solo" });
    const managed = await projectAccess(prisma, owner, project.id, "members.manage");
    await expect(removeMember(prisma, managed, { projectId: project.id, userId: owner.userId })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(
      changeMemberRole(prisma, managed, { projectId: project.id, userId: owner.userId, role: "viewer" }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it("two owners demoting each other at once leave one owner", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const project = await createProject(prisma, a, { name: "Race" });
    await addMember(prisma, await projectAccess(prisma, a, project.id, "members.manage"), {
      projectId: project.id,
      email: b.email,
      role: "owner",
    });
    const byA = await projectAccess(prisma, a, project.id, "members.manage");
    const byB = await projectAccess(prisma, b, project.id, "members.manage");
    const results = await Promise.allSettled([
      changeMemberRole(prisma, byA, { projectId: project.id, userId: b.userId, role: "viewer" }),
      changeMemberRole(prisma, byB, { projectId: project.id, userId: a.userId, role: "viewer" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await prisma.projectMember.count({ where: { projectId: project.id, role: "owner" } })).toBe(1);
  });

  it("renames and archives for owners only", async () => {
    const owner = await makeUser();
    const viewer = await makeUser();
    const project = await createProject(prisma, owner, { name: "Old" });
    await addMember(prisma, await projectAccess(prisma, owner, project.id, "members.manage"), {
      projectId: project.id,
      email: viewer.email,
      role: "viewer",
    });
    await expect(projectAccess(prisma, viewer, project.id, "project.rename")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(projectAccess(prisma, viewer, project.id, "project.archive")).rejects.toBeInstanceOf(ForbiddenError);
    await renameProject(prisma, await projectAccess(prisma, owner, project.id, "project.rename"), {
      projectId: project.id,
      name: "New",
    });
    await setProjectArchived(prisma, await projectAccess(prisma, owner, project.id, "project.archive"), {
      projectId: project.id,
      archived: true,
    });
    const [listed] = await listProjects(prisma, viewer);
    expect(listed).toMatchObject({ name: "New", archived: true });
  });
});
