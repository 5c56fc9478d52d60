/**
 * Single sign-on, configured by environment variables (docs/configuration.md, docs/guide/sso.md):
 * - one OpenID Connect provider through better-auth's generic OAuth plugin, found by its issuer's discovery
 *   document (Keycloak, Google Workspace, Microsoft Entra ID, Okta, Authentik, …): OIDC_ISSUER, OIDC_CLIENT_ID,
 *   OIDC_CLIENT_SECRET, optional OIDC_NAME and OIDC_SCOPES;
 * - GitHub (OAuth 2, not OIDC) through better-auth's built-in provider: GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET.
 *
 * Who gets in: an account that already exists (an admin created it) signs in by SSO when the provider gives its
 * email; the provider is trusted to have checked that email, so the SSO identity is linked to the account.
 * A person without an account is refused unless SSO_NEW_ACCOUNTS=create (or the older SSO_CREATE_ACCOUNTS=1), which
 * creates one (no admin; the memberships of the projects that set a default role for them, lib/auth/sso-accounts.ts),
 * or SSO_NEW_ACCOUNTS=approve, which creates it waiting for a site admin's approval; both optionally only for the
 * email domains in SSO_ALLOWED_DOMAINS. PASSWORD_SIGN_IN=off leaves single sign-on as the only way in.
 */
import { z } from "zod";

export const OIDC_PROVIDER_ID = "oidc";
export const GITHUB_PROVIDER_ID = "github";

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const ssoEnvSchema = z
  .object({
    OIDC_ISSUER: optional.pipe(
      z
        .url({
          message:
            "OIDC_ISSUER must be the provider's issuer URL (its discovery document is <issuer>/.well-known/openid-configuration).",
        })
        .optional(),
    ),
    OIDC_CLIENT_ID: optional,
    OIDC_CLIENT_SECRET: optional,
    OIDC_NAME: optional,
    OIDC_SCOPES: optional,
    GITHUB_CLIENT_ID: optional,
    GITHUB_CLIENT_SECRET: optional,
    SSO_CREATE_ACCOUNTS: optional,
    SSO_NEW_ACCOUNTS: optional,
    SSO_ALLOWED_DOMAINS: optional,
    PASSWORD_SIGN_IN: optional,
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID)
      ctx.addIssue({ code: "custom", message: "OIDC_ISSUER is set without OIDC_CLIENT_ID." });
    if (!env.OIDC_ISSUER && env.OIDC_CLIENT_ID)
      ctx.addIssue({ code: "custom", message: "OIDC_CLIENT_ID is set without OIDC_ISSUER." });
    if (Boolean(env.GITHUB_CLIENT_ID) !== Boolean(env.GITHUB_CLIENT_SECRET))
      ctx.addIssue({ code: "custom", message: "GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET go together." });
    if (env.SSO_CREATE_ACCOUNTS && env.SSO_CREATE_ACCOUNTS !== "1" && env.SSO_CREATE_ACCOUNTS !== "0")
      ctx.addIssue({ code: "custom", message: "SSO_CREATE_ACCOUNTS is 1 or 0." });
    if (env.SSO_NEW_ACCOUNTS && !(NEW_ACCOUNT_MODES as readonly string[]).includes(env.SSO_NEW_ACCOUNTS))
      ctx.addIssue({ code: "custom", message: "SSO_NEW_ACCOUNTS is create, approve or refuse." });
    if (
      env.SSO_NEW_ACCOUNTS &&
      env.SSO_CREATE_ACCOUNTS &&
      (env.SSO_NEW_ACCOUNTS === "refuse") !== (env.SSO_CREATE_ACCOUNTS === "0")
    )
      ctx.addIssue({
        code: "custom",
        message: "SSO_NEW_ACCOUNTS and SSO_CREATE_ACCOUNTS disagree; set only SSO_NEW_ACCOUNTS.",
      });
    if (env.PASSWORD_SIGN_IN && env.PASSWORD_SIGN_IN !== "on" && env.PASSWORD_SIGN_IN !== "off")
      ctx.addIssue({ code: "custom", message: "PASSWORD_SIGN_IN is on or off." });
    if (env.PASSWORD_SIGN_IN === "off" && !env.OIDC_ISSUER && !env.GITHUB_CLIENT_ID)
      ctx.addIssue({
        code: "custom",
        message:
          "PASSWORD_SIGN_IN=off needs a single sign-on provider (OIDC_ISSUER or GITHUB_CLIENT_ID): nobody could sign in.",
      });
  });

/** What an SSO sign-in does for a person without an account: create it, create it pending an admin's approval, or refuse. */
export const NEW_ACCOUNT_MODES = ["create", "approve", "refuse"] as const;
export type NewAccountMode = (typeof NEW_ACCOUNT_MODES)[number];

export interface SsoConfig {
  oidc: {
    issuer: string;
    discoveryUrl: string;
    clientId: string;
    clientSecret: string | undefined;
    name: string;
    scopes: string[];
  } | null;
  github: { clientId: string; clientSecret: string } | null;
  /** SSO_NEW_ACCOUNTS, or the older SSO_CREATE_ACCOUNTS (1: create, 0 or unset: refuse). */
  newAccounts: NewAccountMode;
  /** PASSWORD_SIGN_IN (default on): off refuses password sign-in on the server and hides its form. */
  passwordSignIn: boolean;
  /** Lower-case email domains an SSO sign-in may create an account for; empty: any. */
  allowedDomains: string[];
}

/** The SSO settings from the environment; throws a plain-words error naming the variable when they do not hold. */
export function ssoConfig(env: Readonly<Record<string, string | undefined>> = process.env): SsoConfig {
  const parsed = ssoEnvSchema.safeParse(env);
  if (!parsed.success)
    throw new Error(`Single sign-on settings: ${parsed.error.issues.map((issue) => issue.message).join(" ")}`);
  const e = parsed.data;
  const issuer = e.OIDC_ISSUER?.replace(/\/+$/, "");
  return {
    oidc:
      issuer && e.OIDC_CLIENT_ID
        ? {
            issuer,
            discoveryUrl: `${issuer}/.well-known/openid-configuration`,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME ?? "single sign-on",
            scopes: (e.OIDC_SCOPES ?? "openid email profile").split(/[\s,]+/).filter(Boolean),
          }
        : null,
    github:
      e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET
        ? { clientId: e.GITHUB_CLIENT_ID, clientSecret: e.GITHUB_CLIENT_SECRET }
        : null,
    newAccounts:
      (e.SSO_NEW_ACCOUNTS as NewAccountMode | undefined) ?? (e.SSO_CREATE_ACCOUNTS === "1" ? "create" : "refuse"),
    passwordSignIn: e.PASSWORD_SIGN_IN !== "off",
    allowedDomains: (e.SSO_ALLOWED_DOMAINS ?? "")
      .split(",")
      .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
      .filter(Boolean),
  };
}

/** The sign-in page's SSO buttons: provider id and label. */
export function ssoButtons(config: SsoConfig = ssoConfig()): { providerId: string; label: string }[] {
  return [
    ...(config.oidc ? [{ providerId: OIDC_PROVIDER_ID, label: `Sign in with ${config.oidc.name}` }] : []),
    ...(config.github ? [{ providerId: GITHUB_PROVIDER_ID, label: "Sign in with GitHub" }] : []),
  ];
}

/** Whether an SSO sign-in may create an account for this email (SSO_NEW_ACCOUNTS and SSO_ALLOWED_DOMAINS). */
export function mayCreateAccount(config: SsoConfig, email: string): boolean {
  if (config.newAccounts === "refuse") return false;
  if (config.allowedDomains.length === 0) return true;
  const domain = email.toLowerCase().split("@").at(-1) ?? "";
  return config.allowedDomains.includes(domain);
}

/** What the sign-in page says for better-auth's `?error=` after a failed SSO sign-in. */
export function ssoErrorMessage(code: string): string {
  const known: Record<string, string> = {
    signup_disabled: "Single sign-on worked, but no FrameJury account has that email. Ask an admin to create one.",
    account_not_allowed:
      "Single sign-on worked, but accounts for that email domain are not created here. Ask an admin.",
    email_not_found:
      "The identity provider did not give an email address; FrameJury needs one (ask for the email scope).",
    access_denied: "The identity provider refused the sign-in.",
    state_mismatch: "The sign-in took too long or was started in another tab; try again.",
    account_setup_failed:
      "Single sign-on worked, but your new account could not be set up. Try again, or ask an admin.",
  };
  return known[code.toLowerCase()] ?? `Single sign-on failed (${code}).`;
}
