import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { makeUser } from "../../testkit/testing/fixtures";
import { actorForApiKey, createApiKey, listApiKeys, revokeApiKey } from "./api-keys";

describe("API keys", () => {
  it("shows the key once, stores only its hash, and authenticates as its user until revoked", async () => {
    const user = await makeUser();
    const created = await createApiKey(prisma, user.userId, "script");
    expect(created.key).toMatch(/^fj_[A-Za-z0-9_-]{43}$/);

    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.keyHash).toBe(createHash("sha256").update(created.key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(JSON.stringify(await listApiKeys(prisma, user.userId))).not.toContain(created.key);

    const actor = await actorForApiKey(prisma, created.key);
    expect(actor).toMatchObject({ userId: user.userId, email: user.email, isAdmin: false });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt).toBeInstanceOf(Date);

    await revokeApiKey(prisma, user.userId, created.id);
    expect(await actorForApiKey(prisma, created.key)).toBeNull();
    expect(await listApiKeys(prisma, user.userId)).toEqual([]);
  });

  it("rejects unknown keys and keeps users from revoking each other's keys", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const created = await createApiKey(prisma, owner.userId, "mine");
    expect(await actorForApiKey(prisma, `${created.key}x`)).toBeNull();
    expect(await actorForApiKey(prisma, "not-a-key")).toBeNull();
    await expect(revokeApiKey(prisma, other.userId, created.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await actorForApiKey(prisma, created.key)).not.toBeNull();
  });
});
