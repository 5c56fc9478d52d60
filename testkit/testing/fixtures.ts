import { randomBytes } from "node:crypto";
import type { Actor } from "../../lib/auth/actor";
import { createUser } from "../../lib/auth/users";
import { prisma } from "../../lib/db/prisma";

/** A user with a unique email, as an Actor; tests share one database, so names never collide. */
export async function makeUser(
  options: { isAdmin?: boolean; password?: string } = {},
): Promise<Actor & { password: string }> {
  const password = options.password ?? "correct horse battery";
  const email = `user-${randomBytes(5).toString("hex")}@example.test`;
  const user = await createUser(prisma, { email, password, isAdmin: options.isAdmin ?? false });
  return { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin, password };
}
