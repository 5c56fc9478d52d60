import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { addMember, createProject } from "../projects/projects";
import { videoReviews } from "../reviews/reviews";
import { makeUser } from "../../testkit/testing/fixtures";
import { insertJudgment } from "../../testkit/testing/judgments";
import {
  accountRecords,
  deactivateUser,
  deleteUser,
  reactivateUser,
  resetPassword,
  USER_REFERENCE_COLUMNS,
} from "./account-lifecycle";
import { actorForApiKey, createApiKey } from "./api-keys";
import { changeOwnPassword } from "./change-password";
import { actorFromHeaders } from "./request-actor";
import { projectAccess } from "../authz/permissions";

const someIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomBytes(3).toString("hex")}`;

/** Signs in over better-auth's HTTP route, as the browser does: the status, the body and the session cookie. */
async function signIn(email: string, password: string) {
  const { POST } = await import("../../app/api/auth/[...all]/route");
  const response = await POST(
    new Request("http://localhost:3000/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-forwarded-for": someIp() },
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ");
  return { status: response.status, body: (await response.json()) as unknown, cookie };
}

const withCookie = (cookie: string) => new Headers({ cookie, origin: "http://localhost:3000" });

async function videoOf(projectId: string, ownerId: string) {
  const sha = randomBytes(32).toString("hex");
  return prisma.video.create({
    data: {
      projectId,
      sha256: sha,
      sizeBytes: BigInt(10),
      fileName: "a.mp4",
      relativePath: `a-${sha}.mp4`,
      storageKey: `k/${sha}`,
      contentType: "video/mp4",
      status: "ready",
      createdById: ownerId,
    },
  });
}

describe("deactivating an account", () => {
  it("ends its sessions and API keys at once, refuses sign-in with the wrong-password answer, and keeps its judgments under its name", async () => {
    const admin = await makeUser({ isAdmin: true });
    const owner = await makeUser();
    const reviewer = await makeUser();
    const project = await createProject(prisma, owner, { name: "Lifecycle" });
    await addMember(prisma, await projectAccess(prisma, owner, project.id, "members.manage"), {
      projectId: project.id,
      email: reviewer.email,
      role: "reviewer",
    });
    const video = await videoOf(project.id, owner.userId);
    await insertJudgment(prisma, {
      projectId: project.id,
      videoId: video.id,
      targetType: "verdict",
      reviewerId: reviewer.userId,
      value: 1,
    });

    const session = await signIn(reviewer.email, reviewer.password);
    expect(session.status).toBe(200);
    expect((await actorFromHeaders(withCookie(session.cookie)))?.userId).toBe(reviewer.userId);
    const { key } = await createApiKey(prisma, reviewer.userId, "script");
    expect(await actorForApiKey(prisma, key)).not.toBeNull();

    // One item the reviewer submitted, one they hold unsubmitted.
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId: project.id,
        name: "q",
        runId: "none",
        scope: "verdict",
        categories: [],
        createdById: owner.userId,
      },
    });
    const [done, claimed] = await Promise.all(
      [0, 1].map((position) =>
        prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: `${video.id}-${position}`, position } }),
      ),
    );
    await prisma.reviewQueueAssignment.create({
      data: { itemId: done!.id, queueId: queue.id, reviewerId: reviewer.userId, status: "done", doneAt: new Date() },
    });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: claimed!.id, queueId: queue.id, reviewerId: reviewer.userId, status: "claimed" },
    });

    const result = await deactivateUser(prisma, admin, reviewer.userId);
    expect(result).toMatchObject({ sessionsEnded: 1, apiKeysRevoked: 1, claimsReleased: 1 });
    expect(
      await prisma.reviewQueueAssignment.findMany({ where: { reviewerId: reviewer.userId }, select: { itemId: true } }),
    ).toEqual([{ itemId: done!.id }]);
    // The very next request with the old cookie or key is anonymous.
    expect(await actorFromHeaders(withCookie(session.cookie))).toBeNull();
    expect(await actorForApiKey(prisma, key)).toBeNull();
    expect(await actorFromHeaders(new Headers({ authorization: `Bearer ${key}` }))).toBeNull();
    await expect(createApiKey(prisma, reviewer.userId, "another")).rejects.toBeInstanceOf(ConflictError);

    // The right password gets exactly the answer a wrong one gets.
    const wrong = await signIn(reviewer.email, "not the password");
    const refused = await signIn(reviewer.email, reviewer.password);
    expect(refused.status).toBe(401);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: wrong.status, body: wrong.body });
    expect(await prisma.session.count({ where: { userId: reviewer.userId } })).toBe(0);

    // The judgment stays, and is shown with its reviewer's name and email.
    const reviews = await videoReviews(
      prisma,
      await projectAccess(prisma, owner, project.id, "project.view"),
      video.id,
    );
    expect(reviews.judgments).toHaveLength(1);
    expect(reviews.judgments[0]!.reviewer).toMatchObject({
      id: reviewer.userId,
      email: reviewer.email,
      name: reviewer.name,
    });

    // Reactivated, the account signs in again; its old key stays revoked.
    await reactivateUser(prisma, admin, reviewer.userId);
    const again = await signIn(reviewer.email, reviewer.password);
    expect(again.status).toBe(200);
    expect((await actorFromHeaders(withCookie(again.cookie)))?.userId).toBe(reviewer.userId);
    expect(await actorForApiKey(prisma, key)).toBeNull();
  });

  it("is for site admins only, never of oneself, and never of the last active admin", async () => {
    const admin = await makeUser({ isAdmin: true });
    const someone = await makeUser();
    await expect(deactivateUser(prisma, someone, admin.userId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(deactivateUser(prisma, admin, admin.userId)).rejects.toThrow(/your own account/);
    // The CLI acts as an admin that is no account: it may not remove the last active admin.
    const cli = { userId: "cli", email: "cli", name: "cli", isAdmin: true };
    await prisma.user.updateMany({
      where: { isAdmin: true, id: { not: admin.userId } },
      data: { deactivatedAt: new Date() },
    });
    try {
      await expect(deactivateUser(prisma, cli, admin.userId)).rejects.toThrow(/last active site admin/);
      await expect(deleteUser(prisma, cli, admin.userId)).rejects.toThrow(/last active site admin/);
    } finally {
      await prisma.user.updateMany({
        where: { isAdmin: true, id: { not: admin.userId } },
        data: { deactivatedAt: null },
      });
    }
  });
});

describe("resetting a password", () => {
  it("sets a generated password shown once, ends the sessions, and the old password stops working", async () => {
    const admin = await makeUser({ isAdmin: true });
    const user = await makeUser();
    const session = await signIn(user.email, user.password);
    const { password } = await resetPassword(prisma, admin, user.userId);
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await actorFromHeaders(withCookie(session.cookie))).toBeNull();
    expect((await signIn(user.email, user.password)).status).toBe(401);
    expect((await signIn(user.email, password)).status).toBe(200);
    const stored = await prisma.account.findFirstOrThrow({ where: { userId: user.userId, providerId: "credential" } });
    expect(stored.password).toMatch(/^\$argon2id\$/);
    expect(stored.password).not.toContain(password);
    await expect(resetPassword(prisma, user, admin.userId)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("changing one's own password", () => {
  it("checks the current password, then signs in with the new one only and ends the other sessions", async () => {
    const user = await makeUser();
    const current = await signIn(user.email, user.password);
    const other = await signIn(user.email, user.password);
    const input = {
      currentPassword: "wrong-password",
      newPassword: "brand new password",
      confirmPassword: "brand new password",
    };
    await expect(changeOwnPassword(withCookie(current.cookie), input)).rejects.toThrow(/current password is wrong/);
    await expect(
      changeOwnPassword(withCookie(current.cookie), {
        ...input,
        currentPassword: user.password,
        confirmPassword: "typo",
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      changeOwnPassword(withCookie(current.cookie), {
        currentPassword: user.password,
        newPassword: "short",
        confirmPassword: "short",
      }),
    ).rejects.toThrow(/at least 8/);

    await changeOwnPassword(withCookie(current.cookie), { ...input, currentPassword: user.password });
    expect(await actorFromHeaders(withCookie(other.cookie))).toBeNull();
    expect((await actorFromHeaders(withCookie(current.cookie)))?.userId).toBe(user.userId);
    expect((await signIn(user.email, user.password)).status).toBe(401);
    expect((await signIn(user.email, "brand new password")).status).toBe(200);
  });
});

describe("deleting an account", () => {
  it("removes an account nothing names, and refuses one with judgments (deactivate instead) or that solely owns a project", async () => {
    const admin = await makeUser({ isAdmin: true });
    const unused = await makeUser();
    const { key } = await createApiKey(prisma, unused.userId, "k");
    await deleteUser(prisma, admin, unused.userId);
    expect(await prisma.user.findUnique({ where: { id: unused.userId } })).toBeNull();
    expect(await prisma.apiKey.count({ where: { userId: unused.userId } })).toBe(0);
    expect(await actorForApiKey(prisma, key)).toBeNull();

    const owner = await makeUser();
    const reviewer = await makeUser();
    const project = await createProject(prisma, owner, { name: "Named" });
    const video = await videoOf(project.id, owner.userId);
    await insertJudgment(prisma, {
      projectId: project.id,
      videoId: video.id,
      targetType: "verdict",
      reviewerId: reviewer.userId,
      value: 0,
    });
    expect(await accountRecords(prisma, reviewer.userId)).toEqual({ judgments: 1 });
    await expect(deleteUser(prisma, admin, reviewer.userId)).rejects.toThrow(/1 judgments\. Deactivate it instead/);
    await expect(deleteUser(prisma, admin, owner.userId)).rejects.toThrow(/1 videos/);
    expect(await prisma.user.count({ where: { id: { in: [reviewer.userId, owner.userId] } } })).toBe(2);

    const soleOwner = await makeUser();
    await createProject(prisma, soleOwner, { name: "Mine alone" });
    await expect(deleteUser(prisma, admin, soleOwner.userId)).rejects.toThrow(/only owner of “Mine alone”/);
  });

  it("checks every column of the schema that names a user", () => {
    // Columns holding a user's id: *ById, reviewerId, adjudicatorId, curatorId, assigneeIds (the auth tables' userId have foreign keys).
    const schema = fs.readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");
    const found: string[] = [];
    let model = "";
    for (const line of schema.split("\n")) {
      const header = /^model (\w+) \{/.exec(line);
      if (header) model = header[1]!;
      const column = /^\s+(\w*(?:ById|reviewerId|adjudicatorId|curatorId|assigneeIds))\s+String/.exec(line);
      if (column) found.push(`${model[0]!.toLowerCase()}${model.slice(1)}.${column[1]}`);
    }
    expect(found.length).toBeGreaterThan(15);
    expect(USER_REFERENCE_COLUMNS.map(({ model: m, field }) => `${m}.${field}`).sort()).toEqual(found.sort());
  });
});
