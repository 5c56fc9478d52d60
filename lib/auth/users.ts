import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { requireSiteAdmin, type Actor } from "./actor";
import { ConflictError, ValidationError } from "../errors";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password";
import { isPrismaError, UNIQUE_VIOLATION } from "../db/prisma-errors";

export const newUserSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: "Enter a valid email address." })),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(PASSWORD_MAX_LENGTH, `The password may have at most ${PASSWORD_MAX_LENGTH} characters.`),
  name: z.string().trim().max(200).optional(),
  isAdmin: z.boolean().default(false),
});
export type NewUser = z.input<typeof newUserSchema>;

// Serialises first-run admin creation so two browsers can't both become "the first admin".
const FIRST_ADMIN_LOCK = 0x6a7572; // "jur"

/**
 * Creates a user with a password in the shape better-auth signs in against
 * (a `credential` account holding the password hash).
 */
export async function createUser(prisma: PrismaClient, input: NewUser) {
  const data = parseOrThrow(input);
  const passwordHash = await hashPassword(data.password);
  try {
    return await prisma.$transaction(async (tx) => insertUser(tx, data, passwordHash));
  } catch (error) {
    if (isPrismaError(error, UNIQUE_VIOLATION)) throw new ConflictError("A user with that email already exists.");
    throw error;
  }
}

/** First run only: creates the admin when there are no users yet; refuses otherwise. */
export async function createFirstAdmin(prisma: PrismaClient, input: Omit<NewUser, "isAdmin">) {
  const data = parseOrThrow({ ...input, isAdmin: true });
  const passwordHash = await hashPassword(data.password);
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`;
    if ((await tx.user.count()) > 0) throw new ConflictError("FrameJury already has users: sign in instead.");
    return insertUser(tx, data, passwordHash);
  });
}

export async function hasAnyUser(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.user.findFirst({ select: { id: true } })) !== null;
}

/** Every account, oldest first, with how many projects it belongs to (the site admin's Users page). */
export async function listUsers(prisma: PrismaClient, actor: Actor) {
  requireSiteAdmin(actor);
  return prisma.user.findMany({
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      email: true,
      name: true,
      isAdmin: true,
      deactivatedAt: true,
      approvalPendingSince: true,
      createdAt: true,
      _count: { select: { memberships: true } },
    },
  });
}

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

async function insertUser(tx: Tx, data: z.output<typeof newUserSchema>, passwordHash: string) {
  const id = randomBytes(16).toString("base64url");
  const user = await tx.user.create({
    data: {
      id,
      email: data.email,
      name: data.name || data.email.split("@")[0]!,
      isAdmin: data.isAdmin,
      emailVerified: false,
    },
    // Only what is returned: a database migrated up to an older release (the migration tests) lacks later columns.
    select: { id: true, email: true, name: true, isAdmin: true },
  });
  await tx.account.create({
    data: {
      id: randomBytes(16).toString("base64url"),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: passwordHash,
    },
  });
  return { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
}

function parseOrThrow(input: NewUser) {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join(" "));
  return parsed.data;
}
