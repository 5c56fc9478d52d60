import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { appOrigins, appUrl } from "../config/app-url";
import { prisma } from "../db/prisma";
import type { PrismaClient } from "../generated/prisma/client";
import { deactivatedAccounts } from "./deactivated-accounts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "./password";
import {
  clientAddress,
  PASSWORD_CHANGE_THROTTLED,
  recordSignInSuccess,
  reserveSignInAttempt,
  type SignInAttempt,
} from "./sign-in-throttle";
import { GITHUB_PROVIDER_ID, mayCreateAccount, OIDC_PROVIDER_ID, ssoConfig, type SsoConfig } from "./sso";
import { setUpSsoAccount } from "./sso-accounts";
import { processOnce } from "../config/process-slot";

/** better-auth on `db` (the app's database unless given: a restore check signs in against another). */
export function createAuth(db: PrismaClient = prisma) {
  const url = new URL(appUrl());
  const sso = ssoConfig();
  // With SSO_NEW_ACCOUNTS=refuse (the default) an SSO sign-in only reaches accounts an admin created.
  const createsAccounts = sso.newAccounts !== "refuse";
  const signUp = { disableSignUp: !createsAccounts, disableImplicitSignUp: !createsAccounts };
  return betterAuth({
    appName: "FrameJury",
    baseURL: url.origin,
    secret: process.env.APP_SECRET,
    trustedOrigins: appOrigins().filter((origin) => origin !== url.origin),
    database: prismaAdapter(db, { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      // Accounts are created by an admin (UI or CLI) or by the first-run setup, never by self sign-up.
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    user: {
      additionalFields: { isAdmin: { type: "boolean", defaultValue: false, input: false } },
    },
    socialProviders: sso.github
      ? { github: { clientId: sso.github.clientId, clientSecret: sso.github.clientSecret, ...signUp } }
      : {},
    // The configured providers vouch for the emails they give (the lab's IdP, GitHub's verified primary email):
    // an SSO identity with an account's email is linked to that account. The local side needs no verified flag:
    // accounts are made by an admin, who vouches for the email (no self sign-up, no verification mail).
    account: {
      accountLinking: {
        enabled: true,
        requireLocalEmailVerified: false,
        trustedProviders: [...(sso.oidc ? [OIDC_PROVIDER_ID] : []), ...(sso.github ? [GITHUB_PROVIDER_ID] : [])],
      },
    },
    // Accounts are otherwise made with Prisma (lib/auth/users.ts), so a user better-auth creates is an SSO sign-up.
    databaseHooks: ssoSignUpHooks(db, sso),
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    advanced: {
      // Secure cookies whenever the app is served over https; plain http on localhost still works.
      useSecureCookies: url.protocol === "https:",
    },
    telemetry: { enabled: false },
    // better-auth's own limiter (production only, per process) would answer a 4th sign-in within 10 s
    // from one address with its own "429 Too many requests", unlike every other refused sign-in. The
    // sign-in throttle below limits password sign-in instead; its other routes keep their limits.
    rateLimit: { customRules: { "/sign-in/email": false } },
    // Password sign-in is throttled here, in hooks, because hooks run for both entries to it (passwordThrottleHooks).
    hooks: passwordThrottleHooks(db, sso),
    plugins: [
      nextCookies(),
      deactivatedAccounts(db),
      ...(sso.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: sso.oidc.discoveryUrl,
                  requireIdTokenVerification: true,
                  clientId: sso.oidc.clientId,
                  clientSecret: sso.oidc.clientSecret,
                  scopes: sso.oidc.scopes,
                  pkce: true,
                  ...signUp,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

/**
 * The hooks on a user better-auth creates (an SSO sign-up): refused unless SSO may create that email's account,
 * born waiting for approval under SSO_NEW_ACCOUNTS=approve, and set up with the projects' default roles.
 */
function ssoSignUpHooks(db: PrismaClient, sso: SsoConfig) {
  return {
    user: {
      create: {
        async before(user: { email: string }) {
          if (!mayCreateAccount(sso, user.email))
            throw new APIError("FORBIDDEN", {
              code: "ACCOUNT_NOT_ALLOWED",
              message: "Accounts for that email are not created by single sign-on.",
            });
          // SSO_NEW_ACCOUNTS=approve: the account is born waiting for a site admin (lib/auth/sso-accounts.ts).
          if (sso.newAccounts === "approve") return { data: { approvalPendingSince: new Date() } };
        },
        // The projects' default roles (lib/auth/sso-accounts.ts); on failure the account is removed and the sign-in refused.
        async after(user: { id: string }) {
          try {
            await setUpSsoAccount(db, user.id);
          } catch {
            throw new APIError("INTERNAL_SERVER_ERROR", {
              code: "ACCOUNT_SETUP_FAILED",
              message: "The new account could not be set up.",
            });
          }
        },
      },
    },
  };
}

/**
 * Password sign-in is throttled in hooks because hooks run for both entries to it: the HTTP
 * route /api/auth/sign-in/email and the sign-in form's direct `auth.api.signInEmail` call, which
 * better-auth's own rate limiter (HTTP only, per process) never sees. A password change checks the
 * current password, so it is a guess too: it counts against the same account and address, through
 * /api/auth/change-password and the settings form's `auth.api.changePassword` call alike.
 */
function passwordThrottleHooks(db: PrismaClient, sso: SsoConfig) {
  return {
    before: createAuthMiddleware(async (ctx) => {
      // PASSWORD_SIGN_IN=off: refused here, on the server, for the HTTP route and the form's direct call alike.
      if (!sso.passwordSignIn && ctx.path === "/sign-in/email") throw passwordSignInOff();
      const attempt = await passwordAttemptOf(ctx);
      if (!attempt) return;
      const { allowed } = await reserveSignInAttempt(db, attempt);
      if (allowed) return;
      if (ctx.path === "/change-password") throw new APIError("TOO_MANY_REQUESTS", { ...PASSWORD_CHANGE_THROTTLED });
      // better-auth's own wrong-password answer (its BASE_ERROR_CODES, which it does not re-export), so
      // that a locked account tells nothing more than a wrong guess; a test holds the two equal.
      throw new APIError("UNAUTHORIZED", { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    }),
    after: createAuthMiddleware(async (ctx) => {
      const attempt = await passwordAttemptOf(ctx);
      if (attempt && ctx.context.returned !== undefined && !isAPIError(ctx.context.returned))
        await recordSignInSuccess(db, attempt);
    }),
  };
}

/** The answer to a password sign-in while PASSWORD_SIGN_IN=off. */
function passwordSignInOff(): APIError {
  return new APIError("FORBIDDEN", {
    code: "PASSWORD_SIGN_IN_OFF",
    message: "Password sign-in is turned off here; sign in with single sign-on.",
  });
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * The password guess a request makes, counted by the sign-in throttle: a sign-in, for the email it names;
 * a password change, for the signed-in account's email (none without a session: better-auth answers 401).
 */
async function passwordAttemptOf(ctx: HookContext): Promise<SignInAttempt | null> {
  const ip = ctx.headers ? clientAddress(ctx.headers) : null;
  if (ctx.path === "/sign-in/email") {
    const email = (ctx.body as { email?: unknown } | undefined)?.email;
    return typeof email === "string" ? { email, ip } : null;
  }
  if (ctx.path === "/change-password") {
    const session = await getSessionFromCtx(ctx);
    return session ? { email: session.user.email, ip } : null;
  }
  return null;
}

type Auth = ReturnType<typeof createAuth>;

/**
 * better-auth, one per process (lib/config/process-slot.ts), created on first use so that `next build` needs neither a
 * database nor a secret.
 */
export function getAuth(): Auth {
  return processOnce("auth", () => createAuth());
}
