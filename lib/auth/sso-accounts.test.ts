import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prisma } from "../db/prisma";
import type { PrismaClient } from "../generated/prisma/client";
import { createProject, setProjectSsoDefaultRole } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { actorForApiKey, createApiKey } from "./api-keys";
import { createAuth } from "./auth";
import { approveUser, setUpSsoAccount } from "./sso-accounts";
import { projectAccess } from "../authz/permissions";

// better-auth as the app configures it, for one set of SSO variables. Its internal adapter's `createUser` is
// the very call its OAuth callback makes for a person without an account, with the app's database hooks.
function authWith(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return createAuth(prisma);
}
const GITHUB = { GITHUB_CLIENT_ID: "gh-client", GITHUB_CLIENT_SECRET: "gh-secret" };
const someEmail = (domain = "lab.example.test") => `sso-${randomBytes(5).toString("hex")}@${domain}`;

async function ssoSignUp(auth: ReturnType<typeof createAuth>, email: string) {
  const context = await auth.$context;
  return context.internalAdapter.createUser(
    { email, name: "SSO person", emailVerified: true },
    { method: "oauth", oauth: { providerId: "github" } },
  );
}

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as { body?: { code?: string } }).body?.code;
  }
  return undefined;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("accounts created by single sign-on", () => {
  it("become members of every project that names a default role, with that role, and of no other", async () => {
    const owner = await makeUser();
    const [asReviewer, asViewer, closed] = await Promise.all(
      ["reviewer", "viewer", "closed"].map((name) => createProject(prisma, owner, { name: `SSO ${name}` })),
    );
    await setProjectSsoDefaultRole(prisma, await projectAccess(prisma, owner, asReviewer!.id, "members.manage"), {
      projectId: asReviewer!.id,
      ssoDefaultRole: "reviewer",
    });
    await setProjectSsoDefaultRole(prisma, await projectAccess(prisma, owner, asViewer!.id, "members.manage"), {
      projectId: asViewer!.id,
      ssoDefaultRole: "viewer",
    });
    await setProjectSsoDefaultRole(prisma, await projectAccess(prisma, owner, closed!.id, "members.manage"), {
      projectId: closed!.id,
      ssoDefaultRole: null,
    });

    const auth = authWith({ ...GITHUB, SSO_NEW_ACCOUNTS: "create" });
    const user = await ssoSignUp(auth, someEmail());
    const memberships = await prisma.projectMember.findMany({
      where: { userId: user.id, projectId: { in: [asReviewer!.id, asViewer!.id, closed!.id] } },
    });
    expect(Object.fromEntries(memberships.map((m) => [m.projectId, m.role]))).toEqual({
      [asReviewer!.id]: "reviewer",
      [asViewer!.id]: "viewer",
    });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).approvalPendingSince).toBeNull();
    // It signs in at once.
    expect((await (await auth.$context).internalAdapter.createSession(user.id)).userId).toBe(user.id);
  });

  it("only owners set the default role", async () => {
    const owner = await makeUser();
    const reviewer = await makeUser();
    const project = await createProject(prisma, owner, { name: "SSO owners only" });
    await prisma.projectMember.create({ data: { projectId: project.id, userId: reviewer.userId, role: "reviewer" } });
    await expect(projectAccess(prisma, reviewer, project.id, "members.manage")).rejects.toThrow();
    expect((await prisma.project.findUniqueOrThrow({ where: { id: project.id } })).ssoDefaultRole).toBeNull();
  });

  it("are not created for another domain, nor at all with SSO_NEW_ACCOUNTS=refuse", async () => {
    const lab = authWith({ ...GITHUB, SSO_NEW_ACCOUNTS: "create", SSO_ALLOWED_DOMAINS: "lab.example.test" });
    const outsider = someEmail("elsewhere.example.test");
    expect(await errorCode(ssoSignUp(lab, outsider))).toBe("ACCOUNT_NOT_ALLOWED");
    vi.unstubAllEnvs();
    const refusing = authWith({ ...GITHUB, SSO_NEW_ACCOUNTS: "refuse" });
    const refused = someEmail();
    expect(await errorCode(ssoSignUp(refusing, refused))).toBe("ACCOUNT_NOT_ALLOWED");
    expect(await prisma.user.count({ where: { email: { in: [outsider, refused] } } })).toBe(0);
  });

  it("with SSO_NEW_ACCOUNTS=approve wait for a site admin: no session until approved", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "SSO approve" });
    await setProjectSsoDefaultRole(prisma, await projectAccess(prisma, owner, project.id, "members.manage"), {
      projectId: project.id,
      ssoDefaultRole: "viewer",
    });
    const auth = authWith({ ...GITHUB, SSO_NEW_ACCOUNTS: "approve" });
    const context = await auth.$context;
    const user = await ssoSignUp(auth, someEmail());
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).approvalPendingSince).toBeInstanceOf(Date);
    // The memberships are there already; the session is not.
    expect(
      await prisma.projectMember.findUnique({
        where: { projectId_userId: { projectId: project.id, userId: user.id } },
      }),
    ).toMatchObject({ role: "viewer" });
    expect(await errorCode(context.internalAdapter.createSession(user.id))).toBe("ACCOUNT_PENDING");
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
    // Nor an API key.
    await expect(createApiKey(prisma, user.id, "while waiting")).rejects.toThrow(/waiting for approval/);

    await expect(approveUser(prisma, owner, user.id)).rejects.toThrow();
    const admin = await makeUser({ isAdmin: true });
    expect(await approveUser(prisma, admin, user.id)).toEqual({ email: user.email });
    await expect(approveUser(prisma, admin, user.id)).rejects.toThrow(/not waiting/);
    expect((await context.internalAdapter.createSession(user.id)).userId).toBe(user.id);
  });

  it("a key made before cannot act for an account while it waits", async () => {
    const user = await makeUser();
    const { key } = await createApiKey(prisma, user.userId, "before");
    expect(await actorForApiKey(prisma, key)).toMatchObject({ userId: user.userId });
    await prisma.user.update({ where: { id: user.userId }, data: { approvalPendingSince: new Date() } });
    expect(await actorForApiKey(prisma, key)).toBeNull();
  });

  it("the old SSO_CREATE_ACCOUNTS=1 still creates accounts, without waiting", async () => {
    const auth = authWith({ ...GITHUB, SSO_CREATE_ACCOUNTS: "1" });
    const user = await ssoSignUp(auth, someEmail());
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).approvalPendingSince).toBeNull();
  });

  it("are removed again when their memberships cannot be written, so nobody keeps an account without its promised access", async () => {
    const user = await makeUser();
    const failing = new Proxy(prisma, {
      get: (target, key, receiver) =>
        key === "$transaction"
          ? () => Promise.reject(new Error("database went away"))
          : Reflect.get(target, key, receiver),
    }) as PrismaClient;
    await expect(setUpSsoAccount(failing, user.userId)).rejects.toThrow(/went away/);
    expect(await prisma.user.findUnique({ where: { id: user.userId } })).toBeNull();
  });
});

describe("PASSWORD_SIGN_IN=off", () => {
  it("refuses password sign-in on the server, through the HTTP route and the direct call; on, the same password works", async () => {
    const user = await makeUser();
    const off = authWith({ ...GITHUB, PASSWORD_SIGN_IN: "off" });
    expect(await errorCode(off.api.signInEmail({ body: { email: user.email, password: user.password } }))).toBe(
      "PASSWORD_SIGN_IN_OFF",
    );
    const response = await off.handler(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ email: user.email, password: user.password }),
      }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie") ?? "").not.toMatch(/session_token/);
    expect(await prisma.session.count({ where: { userId: user.userId } })).toBe(0);

    vi.unstubAllEnvs();
    const on = authWith(GITHUB);
    expect((await on.api.signInEmail({ body: { email: user.email, password: user.password } })).user.id).toBe(
      user.userId,
    );
  });
});
