import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import type { Actor } from "./actor";

const KEY_PREFIX = "fj_";

export const apiKeyNameSchema = z.string().trim().min(1, "Give the key a name.").max(100);
/** The body of `POST /api/v1/me/api-keys`. */
export const createApiKeySchema = z.object({ name: apiKeyNameSchema });

function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Creates a key for `userId`. The returned `key` is shown once; only its hash is stored. */
export async function createApiKey(prisma: PrismaClient, userId: string, name: string) {
  const parsed = apiKeyNameSchema.safeParse(name);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]!.message);
  const owner = await prisma.user.findUnique({
    where: { id: userId },
    select: { deactivatedAt: true, approvalPendingSince: true },
  });
  if (!owner) throw new NotFoundError("No such user.");
  if (owner.deactivatedAt) throw new ConflictError("The account is deactivated: reactivate it first.");
  if (owner.approvalPendingSince) throw new ConflictError("The account is waiting for approval: approve it first.");
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const row = await prisma.apiKey.create({
    data: { userId, name: parsed.data, prefix: key.slice(0, KEY_PREFIX.length + 6), keyHash: hashKey(key) },
  });
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt, key };
}

export async function listApiKeys(prisma: PrismaClient, userId: string) {
  return prisma.apiKey.findMany({
    where: { userId, revokedAt: null },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true },
  });
}

export async function revokeApiKey(prisma: PrismaClient, userId: string, keyId: string): Promise<void> {
  const result = await prisma.apiKey.updateMany({
    where: { id: keyId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (result.count === 0) throw new NotFoundError("No such API key.");
}

/** The actor behind a presented key, or null for an unknown or revoked one, or one of a deactivated account. */
export async function actorForApiKey(prisma: PrismaClient, key: string): Promise<Actor | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const row = await prisma.apiKey.findUnique({
    where: { keyHash: hashKey(key) },
    include: {
      user: {
        select: { id: true, email: true, name: true, isAdmin: true, deactivatedAt: true, approvalPendingSince: true },
      },
    },
  });
  // Deactivation revokes the keys too; the check here holds even for a key made while it was under way.
  // An account waiting for approval (lib/auth/sso-accounts.ts) has no way in, a key included.
  if (!row || row.revokedAt || row.user.deactivatedAt || row.user.approvalPendingSince) return null;
  // Record use at most once a minute per key, so busy clients don't write on every request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { userId: row.user.id, email: row.user.email, name: row.user.name, isAdmin: row.user.isAdmin };
}
