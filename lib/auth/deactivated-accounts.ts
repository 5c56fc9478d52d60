import type { BetterAuthPlugin } from "better-auth";
import { APIError } from "better-auth/api";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * A better-auth plugin that gives a deactivated account (lib/auth/account-lifecycle.ts) no session:
 * every way better-auth signs someone in ends in creating a session, and that is refused here, as
 * better-auth's own admin plugin refuses banned users. The refusal is better-auth's wrong-password
 * answer, so sign-in tells a deactivated account apart from a wrong guess no more than a locked one
 * (docs/guide/basics.md, "Sign-in throttling": one answer). Existing sessions are deleted when the account is deactivated.
 * An account waiting for a site admin's approval (lib/auth/sso-accounts.ts) gets no session either; its refusal says
 * so (ACCOUNT_PENDING), and the sign-in page then shows "waiting for an administrator".
 */
export function deactivatedAccounts(db: PrismaClient) {
  return {
    id: "framejury-deactivated-accounts",
    // Declared so that every session lookup returns it: request-actor.ts refuses a session whose user is
    // deactivated even if one slipped in while the account was being deactivated.
    // approvalPendingSince is declared so that the SSO sign-up hook (lib/auth/auth.ts) can create a user waiting for approval.
    schema: {
      user: {
        fields: {
          deactivatedAt: { type: "date", required: false, input: false },
          approvalPendingSince: { type: "date", required: false, input: false },
        },
      },
    },
    init() {
      return {
        options: {
          databaseHooks: {
            session: {
              create: {
                async before(session: { userId: string }) {
                  const user = await db.user.findUnique({
                    where: { id: session.userId },
                    select: { deactivatedAt: true, approvalPendingSince: true },
                  });
                  if (!user || user.deactivatedAt) throw wrongEmailOrPassword();
                  // Only SSO makes pending accounts (lib/auth/sso-accounts.ts), and the person just proved who they are.
                  if (user.approvalPendingSince) throw accountPending();
                },
              },
            },
          },
        },
      };
    },
  } satisfies BetterAuthPlugin;
}

/** better-auth's own answer to a wrong password (its BASE_ERROR_CODES, which it does not re-export). */
export function wrongEmailOrPassword(): APIError {
  return new APIError("UNAUTHORIZED", { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
}

/** The refusal of a session to an account an admin has not approved yet; better-auth's SSO callback passes the code on. */
function accountPending(): APIError {
  return new APIError("FORBIDDEN", {
    code: "ACCOUNT_PENDING",
    message: "This account is waiting for an administrator's approval.",
  });
}
