import { describe, expect, it } from "vitest";
import { actorForApiKey } from "../auth/api-keys";
import { prisma } from "../db/prisma";
import { verifyPassword } from "../auth/password";
import { runCli } from "./run-cli";

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
  return { code, out, err: err.join("\n") };
}

describe("admin CLI", () => {
  it("creates users, a key (alone on stdout), a project (its id alone on stdout) and members", async () => {
    const stamp = Date.now();
    const admin = `cli-admin-${stamp}@example.test`;
    const reviewer = `cli-reviewer-${stamp}@example.test`;
    expect((await cli("create-user", "--email", admin, "--password", "password-1", "--admin")).code).toBe(0);
    expect((await cli("create-user", "--email", reviewer, "--password", "password-2")).code).toBe(0);
    expect((await prisma.user.findUniqueOrThrow({ where: { email: admin } })).isAdmin).toBe(true);

    const key = await cli("create-api-key", "--email", admin, "--name", "ci");
    expect(key.code).toBe(0);
    expect(key.out).toHaveLength(1);
    expect((await actorForApiKey(prisma, key.out[0]!))?.email).toBe(admin);

    const project = await cli("create-project", "--name", "From CLI", "--owner", admin);
    expect(project.code).toBe(0);
    expect(project.out).toHaveLength(1);
    const projectId = project.out[0]!;
    expect((await prisma.project.findUniqueOrThrow({ where: { id: projectId } })).name).toBe("From CLI");

    expect((await cli("add-member", "--project", projectId, "--email", reviewer, "--role", "reviewer")).code).toBe(0);
    const reviewerUser = await prisma.user.findUniqueOrThrow({ where: { email: reviewer } });
    const membership = await prisma.projectMember.findUniqueOrThrow({
      where: { projectId_userId: { projectId, userId: reviewerUser.id } },
    });
    expect(membership.role).toBe("reviewer");
  });

  it("exits 2 on usage errors and 1 on refusals, with the reason on stderr", async () => {
    expect((await cli()).code).toBe(2);
    expect((await cli("frobnicate")).err).toMatch(/unknown command/);
    const missing = await cli("create-user", "--email", "x@example.test");
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--password is required/);
    const badRole = await cli("add-member", "--project", "p", "--email", "x@example.test", "--role", "king");
    expect(badRole.code).toBe(2);
    const noUser = await cli("create-api-key", "--email", "ghost@example.test");
    expect(noUser.code).toBe(1);
    expect(noUser.err).toMatch(/no user with email/);
    expect(noUser.out).toEqual([]);
  });

  it("resets a password (alone on stdout), deactivates, reactivates and deletes users", async () => {
    const stamp = Date.now();
    const email = `cli-life-${stamp}@example.test`;
    expect((await cli("create-user", "--email", email, "--password", "password-1")).code).toBe(0);
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const key = (await cli("create-api-key", "--email", email)).out[0]!;
    await prisma.session.create({
      data: { id: `s-${stamp}`, token: `t-${stamp}`, userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) },
    });

    const reset = await cli("reset-password", "--email", email);
    expect(reset.code).toBe(0);
    expect(reset.out).toHaveLength(1);
    expect(reset.out[0]).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const account = await prisma.account.findFirstOrThrow({ where: { userId: user.id, providerId: "credential" } });
    expect(await verifyPassword({ hash: account.password!, password: reset.out[0]! })).toBe(true);
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect((await cli("reset-password", "--email", email, "--password", "short")).code).toBe(1);

    await prisma.session.create({
      data: { id: `s2-${stamp}`, token: `t2-${stamp}`, userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const deactivated = await cli("deactivate-user", "--email", email);
    expect(deactivated.code).toBe(0);
    expect(deactivated.err).toMatch(/ended 1 session\(s\), revoked 1 API key\(s\)/);
    expect((await prisma.user.findUniqueOrThrow({ where: { email } })).deactivatedAt).toBeInstanceOf(Date);
    expect(await actorForApiKey(prisma, key)).toBeNull();
    expect((await cli("create-api-key", "--email", email)).code).toBe(1);

    expect((await cli("reactivate-user", "--email", email)).code).toBe(0);
    expect((await prisma.user.findUniqueOrThrow({ where: { email } })).deactivatedAt).toBeNull();

    expect((await cli("delete-user", "--email", email)).code).toBe(0);
    expect(await prisma.user.findUnique({ where: { email } })).toBeNull();
    const gone = await cli("delete-user", "--email", email);
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/no user with email/);
    expect((await cli("deactivate-user")).code).toBe(2);
  });

  it("approves an account single sign-on created waiting for approval, once", async () => {
    const email = `cli-pending-${Date.now()}@example.test`;
    expect((await cli("create-user", "--email", email, "--password", "password-1")).code).toBe(0);
    await prisma.user.update({ where: { email }, data: { approvalPendingSince: new Date() } });
    const approved = await cli("approve-user", "--email", email);
    expect(approved.code).toBe(0);
    expect(approved.err).toMatch(/approved/);
    expect((await prisma.user.findUniqueOrThrow({ where: { email } })).approvalPendingSince).toBeNull();
    const again = await cli("approve-user", "--email", email);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/not waiting for approval/);
    expect((await cli("approve-user")).code).toBe(2);
  });
});
