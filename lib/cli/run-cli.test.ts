import { describe, expect, it } from "vitest";
import { actorForApiKey } from "../auth/api-keys";
import { prisma } from "../db/prisma";
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
    const membership = await prisma.projectMember.findUniqueOrThrow({ where: { projectId_userId: { projectId, userId: reviewerUser.id } } });
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
});
