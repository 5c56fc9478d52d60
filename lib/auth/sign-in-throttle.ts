import type { PrismaClient } from "../generated/prisma/client";

export type ThrottleKind = "account" | "ip";

export interface ThrottleLimit {
  /** Attempts allowed in one window; the next one is refused until the window ends. */
  attempts: number;
  windowSeconds: number;
}

/**
 * A person who mistypes a password does so a few times, not five times in fifteen minutes; a script
 * guessing passwords does it hundreds of times a minute. The per-address limit is higher because
 * colleagues behind one NAT share it.
 */
export const SIGN_IN_LIMITS: Record<ThrottleKind, ThrottleLimit> = {
  account: { attempts: 5, windowSeconds: 15 * 60 },
  ip: { attempts: 20, windowSeconds: 15 * 60 },
};

/**
 * What a throttled password change answers (HTTP `429`, code below). Unlike a refused sign-in it says so:
 * the caller is already signed in, so it tells nothing about which accounts exist, and someone who typed
 * the right password would otherwise go on believing it wrong.
 */
export const PASSWORD_CHANGE_THROTTLED = {
  code: "TOO_MANY_PASSWORD_ATTEMPTS",
  message: "Too many wrong passwords for this account or from this address: wait up to 15 minutes and try again.",
} as const;

export interface SignInAttempt {
  email: string;
  /** The client's address, or null when the request does not tell (then only the account is counted). */
  ip: string | null;
}

function keysOf(attempt: SignInAttempt): [ThrottleKind, string][] {
  const keys: [ThrottleKind, string][] = [["account", attempt.email.trim().toLowerCase()]];
  if (attempt.ip) keys.push(["ip", attempt.ip]);
  return keys;
}

/**
 * Counts one attempt against the account and the address before the password is checked, and says
 * whether it may go ahead. Counting first, in one upsert per key, is what makes the limit hold under
 * concurrency: of N simultaneous attempts only the first `attempts` find room, in every process. A
 * window that has ended starts again at this attempt. Unknown emails are counted like known ones, so
 * the throttle tells nothing about which accounts exist.
 */
export async function reserveSignInAttempt(
  prisma: PrismaClient,
  attempt: SignInAttempt,
  limits = SIGN_IN_LIMITS,
): Promise<{ allowed: boolean }> {
  // Random emails would otherwise leave a row each for ever; one attempt in a hundred sweeps.
  if (Math.random() < 0.01) await forgetEndedSignInWindows(prisma, limits);
  let allowed = true;
  for (const [kind, key] of keysOf(attempt)) {
    const limit = limits[kind];
    const [row] = await prisma.$queryRaw<{ attempts: number }[]>`
      INSERT INTO "sign_in_throttle" ("kind", "key", "windowStart", "attempts")
      VALUES (${kind}, ${key}, now(), 1)
      ON CONFLICT ("kind", "key") DO UPDATE SET
        "windowStart" = CASE WHEN "sign_in_throttle"."windowStart" <= now() - make_interval(secs => ${limit.windowSeconds})
                             THEN now() ELSE "sign_in_throttle"."windowStart" END,
        "attempts" = CASE WHEN "sign_in_throttle"."windowStart" <= now() - make_interval(secs => ${limit.windowSeconds})
                          THEN 1 ELSE "sign_in_throttle"."attempts" + 1 END
      RETURNING "attempts"`;
    if (row!.attempts > limit.attempts) allowed = false;
  }
  return { allowed };
}

/** Deletes the rows whose window has ended: they would start again from 1 anyway. */
export async function forgetEndedSignInWindows(prisma: PrismaClient, limits = SIGN_IN_LIMITS): Promise<number> {
  const longest = Math.max(...Object.values(limits).map((limit) => limit.windowSeconds));
  return prisma.$executeRaw`DELETE FROM "sign_in_throttle" WHERE "windowStart" <= now() - make_interval(secs => ${longest})`;
}

/**
 * A sign-in that succeeded does not count as a failure: the account's count starts again (whoever
 * knows the password has nothing to guess), and the address gets back the attempt it reserved, but
 * keeps its other failures, so signing in to one's own account cannot reset a guessing script's count.
 */
export async function recordSignInSuccess(prisma: PrismaClient, attempt: SignInAttempt): Promise<void> {
  const [account, ip] = keysOf(attempt);
  await prisma.$executeRaw`DELETE FROM "sign_in_throttle" WHERE "kind" = 'account' AND "key" = ${account![1]}`;
  if (ip) {
    await prisma.$executeRaw`
      UPDATE "sign_in_throttle" SET "attempts" = GREATEST("attempts" - 1, 0)
      WHERE "kind" = 'ip' AND "key" = ${ip[1]}`;
  }
}

/**
 * The client's address from the request headers. Next.js puts the TCP peer's address in
 * `X-Forwarded-For` when the request has no such header; reverse proxies append the address they saw.
 * `TRUST_PROXY=N` (N reverse proxies in front, each appending) takes the N-th entry from the right, the
 * address the outermost trusted proxy saw; entries further left were written by the client and are
 * ignored. Unset (or 0), the app faces clients directly and the rightmost entry is taken.
 */
export function clientAddress(headers: Headers, trustProxy = process.env.TRUST_PROXY): string | null {
  const hops = trustedHops(trustProxy);
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  return entries[Math.max(0, entries.length - Math.max(1, hops))]!;
}

function trustedHops(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 0;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0)
    throw new Error(
      `TRUST_PROXY must be the number of reverse proxies in front of the app (0, 1, 2…), not ${JSON.stringify(value)}.`,
    );
  return hops;
}
