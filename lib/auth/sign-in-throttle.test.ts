import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { makeUser } from "../../testkit/testing/fixtures";
import { getAuth } from "./auth";
import { changeOwnPassword } from "./change-password";
import { verifyPassword } from "./password";
import {
  clientAddress,
  forgetEndedSignInWindows,
  PASSWORD_CHANGE_THROTTLED,
  recordSignInSuccess,
  reserveSignInAttempt,
  SIGN_IN_LIMITS,
} from "./sign-in-throttle";

const someEmail = () => `throttle-${randomBytes(5).toString("hex")}@example.test`;
const someIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomBytes(3).toString("hex")}`;

async function reserve(email: string, ip: string | null = null) {
  return (await reserveSignInAttempt(prisma, { email, ip })).allowed;
}

describe("reserveSignInAttempt", () => {
  it("allows 5 attempts per account in 15 minutes, whatever the case of the email, then refuses", async () => {
    const email = someEmail();
    const results = [];
    for (let i = 0; i < SIGN_IN_LIMITS.account.attempts + 2; i++)
      results.push(await reserve(i % 2 ? email.toUpperCase() : email));
    expect(results).toEqual([true, true, true, true, true, false, false]);
  });

  it("lets exactly the limit through when attempts arrive at once", async () => {
    const email = someEmail();
    const results = await Promise.all(Array.from({ length: 12 }, () => reserve(email)));
    expect(results.filter(Boolean)).toHaveLength(SIGN_IN_LIMITS.account.attempts);
    const row = await prisma.signInThrottle.findUniqueOrThrow({ where: { kind_key: { kind: "account", key: email } } });
    expect(row.attempts).toBe(12);
  });

  it("starts a new window once the old one has ended", async () => {
    const email = someEmail();
    for (let i = 0; i < SIGN_IN_LIMITS.account.attempts; i++) await reserve(email);
    expect(await reserve(email)).toBe(false);
    await prisma.signInThrottle.update({
      where: { kind_key: { kind: "account", key: email } },
      data: { windowStart: new Date(Date.now() - (SIGN_IN_LIMITS.account.windowSeconds + 5) * 1000) },
    });
    expect(await reserve(email)).toBe(true);
    expect(
      (await prisma.signInThrottle.findUniqueOrThrow({ where: { kind_key: { kind: "account", key: email } } }))
        .attempts,
    ).toBe(1);
  });

  it("forgets rows whose window has ended, and only those", async () => {
    const [ended, current] = [someEmail(), someEmail()];
    await reserve(ended);
    await reserve(current);
    await prisma.signInThrottle.update({
      where: { kind_key: { kind: "account", key: ended } },
      data: { windowStart: new Date(Date.now() - (SIGN_IN_LIMITS.account.windowSeconds + 5) * 1000) },
    });
    expect(await forgetEndedSignInWindows(prisma)).toBeGreaterThanOrEqual(1);
    const left = await prisma.signInThrottle.findMany({ where: { key: { in: [ended, current] } } });
    expect(left.map((row) => row.key)).toEqual([current]);
  });

  it("allows 20 attempts per address across accounts, then refuses that address only", async () => {
    const ip = someIp();
    const results = [];
    for (let i = 0; i < SIGN_IN_LIMITS.ip.attempts + 1; i++) results.push(await reserve(someEmail(), ip));
    expect(results.slice(0, SIGN_IN_LIMITS.ip.attempts).every(Boolean)).toBe(true);
    expect(results[SIGN_IN_LIMITS.ip.attempts]).toBe(false);
    expect(await reserve(someEmail(), someIp())).toBe(true);
  });

  it("does not count a successful sign-in: the account starts again, the address gets its attempt back", async () => {
    const email = someEmail();
    const ip = someIp();
    for (let i = 0; i < 4; i++) await reserve(someEmail(), ip);
    for (let i = 0; i < 4; i++) await reserve(email, ip);
    await reserve(email, ip);
    await recordSignInSuccess(prisma, { email, ip });
    expect(await prisma.signInThrottle.findUnique({ where: { kind_key: { kind: "account", key: email } } })).toBeNull();
    expect(
      (await prisma.signInThrottle.findUniqueOrThrow({ where: { kind_key: { kind: "ip", key: ip } } })).attempts,
    ).toBe(8);
  });
});

describe("clientAddress", () => {
  const headers = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

  it("takes the rightmost X-Forwarded-For entry without a proxy, and the N-th from the right with TRUST_PROXY=N", () => {
    expect(clientAddress(headers("203.0.113.9"), undefined)).toBe("203.0.113.9");
    expect(clientAddress(headers("1.1.1.1, 203.0.113.9"), "")).toBe("203.0.113.9");
    expect(clientAddress(headers("forged, 203.0.113.9"), "1")).toBe("203.0.113.9");
    expect(clientAddress(headers("forged, 203.0.113.9, 10.0.0.2"), "2")).toBe("203.0.113.9");
    expect(clientAddress(headers("203.0.113.9"), "3")).toBe("203.0.113.9");
    expect(clientAddress(headers(), undefined)).toBeNull();
    expect(() => clientAddress(headers("1.1.1.1"), "yes")).toThrow(/TRUST_PROXY must be the number/);
  });
});

describe("sign-in through better-auth is throttled", () => {
  const httpSignIn = async (email: string, password: string, ip: string) => {
    const { POST } = await import("../../app/api/auth/[...all]/route");
    const response = await POST(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-forwarded-for": ip },
        body: JSON.stringify({ email, password }),
      }),
    );
    return { status: response.status, body: await response.json() };
  };
  // What the sign-in form's server action calls.
  const directSignIn = (email: string, password: string, ip: string) =>
    getAuth()
      .api.signInEmail({ body: { email, password }, headers: new Headers({ "x-forwarded-for": ip }) })
      .then(
        () => "signed in",
        (error: { status?: unknown; message?: string }) => `${String(error.status)} ${error.message}`,
      );

  it("refuses the right password after 5 failures over HTTP, with the wrong-password answer, and keeps counting only failures", async () => {
    const user = await makeUser();
    const ip = someIp();
    // Successes in between do not count.
    for (let i = 0; i < 3; i++) expect((await httpSignIn(user.email, user.password, ip)).status).toBe(200);
    const wrong = await httpSignIn(user.email, "not the password", ip);
    expect(wrong.status).toBe(401);
    for (let i = 0; i < 4; i++) await httpSignIn(user.email, "not the password", ip);
    const locked = await httpSignIn(user.email, user.password, ip);
    expect(locked).toEqual(wrong);
    // Another address does not unlock the account.
    expect(await httpSignIn(user.email, user.password, someIp())).toEqual(wrong);
  });

  it("throttles the server action's direct auth.api.signInEmail call too, with the same error", async () => {
    const user = await makeUser();
    const ip = someIp();
    const wrong = await directSignIn(user.email, "not the password", ip);
    expect(wrong).toMatch(/^UNAUTHORIZED Invalid email or password$/);
    for (let i = 0; i < 4; i++) await directSignIn(user.email, "not the password", ip);
    expect(await directSignIn(user.email, user.password, ip)).toBe(wrong);
    const other = await makeUser();
    expect(await directSignIn(other.email, other.password, ip)).toBe("signed in");
  });

  it("counts both of two simultaneous failures at the last free place, so the limit holds", async () => {
    const user = await makeUser();
    const ip = someIp();
    for (let i = 0; i < SIGN_IN_LIMITS.account.attempts - 1; i++)
      await directSignIn(user.email, "not the password", ip);
    const results = await Promise.all([
      directSignIn(user.email, "wrong twice", ip),
      directSignIn(user.email, "wrong again", ip),
    ]);
    expect(results).toEqual([results[0], results[0]]);
    const row = await prisma.signInThrottle.findUniqueOrThrow({
      where: { kind_key: { kind: "account", key: user.email } },
    });
    expect(row.attempts).toBe(SIGN_IN_LIMITS.account.attempts + 1);
    expect(await directSignIn(user.email, user.password, ip)).toBe(results[0]);
  });
});

describe("password changes count against the sign-in throttle", () => {
  const authRoute = async (path: string, body: unknown, headers: Record<string, string>) => {
    const { POST } = await import("../../app/api/auth/[...all]/route");
    const response = await POST(
      new Request(`http://localhost:3000/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers },
        body: JSON.stringify(body),
      }),
    );
    return {
      status: response.status,
      body: (await response.json()) as { code?: string; message?: string } | null,
      cookie: response.headers
        .getSetCookie()
        .map((line) => line.split(";")[0]!)
        .join("; "),
    };
  };
  const signedIn = async (ip: string) => {
    const user = await makeUser();
    const { status, cookie } = await authRoute(
      "/sign-in/email",
      { email: user.email, password: user.password },
      { "x-forwarded-for": ip },
    );
    expect(status).toBe(200);
    return { ...user, cookie };
  };
  /** What the settings form's server action calls, with the request's headers. */
  const formChange = (user: { cookie: string }, ip: string, currentPassword: string) =>
    changeOwnPassword(new Headers({ cookie: user.cookie, origin: "http://localhost:3000", "x-forwarded-for": ip }), {
      currentPassword,
      newPassword: "a new password",
      confirmPassword: "a new password",
    }).then(
      () => "changed",
      (error: Error & { status?: number }) => `${String(error.status)} ${error.message}`,
    );
  const passwordStillIs = async (userId: string, password: string) => {
    const account = await prisma.account.findFirstOrThrow({ where: { userId, providerId: "credential" } });
    return verifyPassword({ hash: account.password!, password });
  };

  it("refuses the form's change after 5 wrong current passwords, even with the right one, with the throttle's message; another account from another address is unaffected", async () => {
    const ip = someIp();
    const user = await signedIn(ip);
    for (let i = 0; i < SIGN_IN_LIMITS.account.attempts; i++)
      expect(await formChange(user, ip, "not the password")).toBe("400 The current password is wrong.");
    const refused = await formChange(user, ip, user.password);
    expect(refused).toBe(`429 ${PASSWORD_CHANGE_THROTTLED.message}`);
    expect(await passwordStillIs(user.userId, user.password)).toBe(true);
    // Per account: another address does not unlock it, and the account's sign-in is refused too (one count of guesses).
    expect(await formChange(user, someIp(), user.password)).toBe(refused);
    expect(
      (
        await authRoute(
          "/sign-in/email",
          { email: user.email, password: user.password },
          { "x-forwarded-for": someIp() },
        )
      ).status,
    ).toBe(401);

    const otherIp = someIp();
    const other = await signedIn(otherIp);
    expect(await formChange(other, otherIp, other.password)).toBe("changed");
    expect(await passwordStillIs(other.userId, "a new password")).toBe(true);
  });

  it("throttles POST /api/auth/change-password per address as well, answering 429 with its code", async () => {
    const ip = someIp();
    const users = await Promise.all(Array.from({ length: 5 }, () => signedIn(someIp())));
    const change = (user: { cookie: string }, currentPassword: string, from = ip) =>
      authRoute(
        "/change-password",
        { currentPassword, newPassword: "a new password" },
        { cookie: user.cookie, "x-forwarded-for": from },
      );
    // 20 failures from one address, 4 for each of 5 accounts: no account's next attempt is past its own limit of 5.
    for (let i = 0; i < SIGN_IN_LIMITS.ip.attempts; i++)
      expect((await change(users[i % 5]!, "not the password")).body?.code).toBe("INVALID_PASSWORD");
    const refused = await change(users[0]!, users[0]!.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject(PASSWORD_CHANGE_THROTTLED);
    expect(await passwordStillIs(users[0]!.userId, users[0]!.password)).toBe(true);
    // Another of those accounts, from another address, still may.
    const elsewhere = await change(users[1]!, users[1]!.password, someIp());
    expect(elsewhere.status).toBe(200);
    expect(await passwordStillIs(users[1]!.userId, "a new password")).toBe(true);
  });

  it("does not count a successful change, and a change without a session is refused before anything is counted", async () => {
    const ip = someIp();
    const user = await signedIn(ip);
    for (let i = 0; i < SIGN_IN_LIMITS.account.attempts - 1; i++) await formChange(user, ip, "not the password");
    expect(await formChange(user, ip, user.password)).toBe("changed");
    expect(
      await prisma.signInThrottle.findUnique({ where: { kind_key: { kind: "account", key: user.email } } }),
    ).toBeNull();
    const anonymous = await authRoute(
      "/change-password",
      { currentPassword: "x", newPassword: "a new password" },
      { "x-forwarded-for": ip },
    );
    expect(anonymous.status).toBe(401);
    expect(
      (await prisma.signInThrottle.findUniqueOrThrow({ where: { kind_key: { kind: "ip", key: ip } } })).attempts,
    ).toBe(SIGN_IN_LIMITS.account.attempts - 1);
  });
});
