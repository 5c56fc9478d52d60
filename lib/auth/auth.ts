import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { prisma } from "../db/prisma";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "./password";

function appUrl(): string {
  return process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
}

function createAuth() {
  const url = new URL(appUrl());
  const loopbackTwin =
    url.hostname === "localhost" ? "127.0.0.1" : url.hostname === "127.0.0.1" ? "localhost" : null;
  return betterAuth({
    appName: "FrameJury",
    baseURL: url.origin,
    secret: process.env.APP_SECRET,
    trustedOrigins: loopbackTwin ? [`${url.protocol}//${loopbackTwin}${url.port ? `:${url.port}` : ""}`] : [],
    database: prismaAdapter(prisma, { provider: "postgresql" }),
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
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    advanced: {
      // Secure cookies whenever the app is served over https; plain http on localhost still works.
      useSecureCookies: url.protocol === "https:",
    },
    telemetry: { enabled: false },
    plugins: [nextCookies()],
  });
}

type Auth = ReturnType<typeof createAuth>;
const globalForAuth = globalThis as unknown as { auth?: Auth };

/** better-auth, created on first use so that `next build` needs neither a database nor a secret. */
export function getAuth(): Auth {
  globalForAuth.auth ??= createAuth();
  return globalForAuth.auth;
}
