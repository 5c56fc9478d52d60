import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { makeUser } from "../../testkit/testing/fixtures";
import { createFirstAdmin, createUser, listUsers } from "./users";
import { verifyPassword } from "./password";

describe("createUser", () => {
  it("stores an argon2id hash in a better-auth credential account, never the password", async () => {
    const email = `Mixed.Case-${Date.now()}@Example.TEST`;
    const user = await createUser(prisma, { email, password: "s3cret-password" });
    expect(user.email).toBe(email.toLowerCase());
    const account = await prisma.account.findFirstOrThrow({ where: { userId: user.id } });
    expect(account.providerId).toBe("credential");
    expect(account.accountId).toBe(user.id);
    expect(account.password).toMatch(/^\$argon2id\$/);
    expect(account.password).not.toContain("s3cret-password");
    expect(await verifyPassword({ hash: account.password!, password: "s3cret-password" })).toBe(true);
    expect(await verifyPassword({ hash: account.password!, password: "wrong" })).toBe(false);
  });

  it("refuses a second account with the same email, whatever its case", async () => {
    const email = `dup-${Date.now()}@example.test`;
    await createUser(prisma, { email, password: "password-1" });
    await expect(createUser(prisma, { email: email.toUpperCase(), password: "password-2" })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it("rejects short passwords and malformed emails with a readable message", async () => {
    await expect(createUser(prisma, { email: "x@example.test", password: "short" })).rejects.toThrow(/at least 8/);
    await expect(createUser(prisma, { email: "not-an-email", password: "long enough" })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe("createFirstAdmin", () => {
  it("is refused once any user exists", async () => {
    await createUser(prisma, { email: `someone-${Date.now()}@example.test`, password: "password-1" });
    await expect(createFirstAdmin(prisma, { email: "late@example.test", password: "password-1" })).rejects.toThrow(
      /already has users/,
    );
  });
});

describe("listUsers", () => {
  it("lists every account with its project count, for the site admin only", async () => {
    const admin = await makeUser({ isAdmin: true });
    const someone = await makeUser();
    const users = await listUsers(prisma, admin);
    expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([admin.userId, someone.userId]));
    expect(users.find((u) => u.id === someone.userId)).toMatchObject({
      email: someone.email,
      isAdmin: false,
      _count: { memberships: 0 },
    });
    await expect(listUsers(prisma, someone)).rejects.toBeInstanceOf(NotFoundError);
  });
});
