import { prisma } from "../db/prisma";
import type { Actor } from "./actor";
import { actorForApiKey } from "./api-keys";
import { getAuth } from "./auth";

/**
 * The actor behind a request: `Authorization: Bearer <api key>` when present (a bad key is
 * not silently ignored in favour of a cookie), otherwise the better-auth session cookie.
 */
export async function actorFromHeaders(headers: Headers): Promise<Actor | null> {
  return (await actorFromRequest(headers)).actor;
}

/**
 * The actor and how they were identified: a session cookie is sent by the browser on its own, so
 * callers must check such requests for cross-site forgery; an API key is never sent unasked.
 */
export async function actorFromRequest(headers: Headers): Promise<{ actor: Actor | null; via: "api_key" | "session" }> {
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    return { actor: match ? await actorForApiKey(prisma, match[1]!) : null, via: "api_key" };
  }
  const session = await getAuth().api.getSession({ headers });
  if (!session) return { actor: null, via: "session" };
  const user = session.user as typeof session.user & {
    isAdmin?: boolean;
    deactivatedAt?: Date | null;
    approvalPendingSince?: Date | null;
  };
  // Neither gets a session (lib/auth/deactivated-accounts.ts); this covers one that slipped in meanwhile.
  if (user.deactivatedAt || user.approvalPendingSince) return { actor: null, via: "session" };
  return {
    actor: { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin === true },
    via: "session",
  };
}
