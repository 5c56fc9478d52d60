import { prisma } from "../db/prisma";
import type { Actor } from "./actor";
import { actorForApiKey } from "./api-keys";
import { getAuth } from "./auth";

/**
 * The actor behind a request: `Authorization: Bearer <api key>` when present (a bad key is
 * not silently ignored in favour of a cookie), otherwise the better-auth session cookie.
 */
export async function actorFromHeaders(headers: Headers): Promise<Actor | null> {
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    return match ? actorForApiKey(prisma, match[1]!) : null;
  }
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const user = session.user as typeof session.user & { isAdmin?: boolean };
  return { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin === true };
}
