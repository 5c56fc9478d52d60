import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { GET as getHealth } from "../health/route";
import { GET as listProjects, POST as createProjectRoute } from "./projects/route";
import { GET as getProject, PATCH as patchProject } from "./projects/[projectId]/route";
import { POST as addMemberRoute } from "./projects/[projectId]/members/route";
import { POST as authPost } from "../auth/[...all]/route";

const noParams = { params: Promise.resolve({}) } as { params: Promise<Record<string, never>> };
const withProject = (projectId: string) => ({ params: Promise.resolve({ projectId }) });

function request(path: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  if (init.body) headers.set("content-type", "application/json");
  return new Request(`http://localhost:3000${path}`, { ...init, headers });
}

async function userWithKey() {
  const user = await makeUser();
  const { key } = await createApiKey(prisma, user.userId, "test");
  return { user, key };
}

describe("/api/v1 with API keys", () => {
  it("lists the caller's projects and creates one", async () => {
    const { user, key } = await userWithKey();
    await createProject(prisma, user, { name: "Listed" });
    const created = await createProjectRoute(
      request("/api/v1/projects", { method: "POST", key, body: JSON.stringify({ name: "From API" }) }),
      noParams,
    );
    expect(created.status).toBe(201);
    const response = await listProjects(request("/api/v1/projects", { key }), noParams);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { projects: { name: string; role: string }[] };
    expect(body.projects.map((p) => p.name).sort()).toEqual(["From API", "Listed"]);
    expect(body.projects.every((p) => p.role === "owner")).toBe(true);
  });

  it("answers 401 in the JSON error shape without credentials or with a bad key", async () => {
    for (const key of [undefined, "fj_wrong"]) {
      const response = await listProjects(request("/api/v1/projects", { key }), noParams);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    }
  });

  it("gives a non-member the same 404 as for a missing project, and a viewer 403 on changes", async () => {
    const { user: owner } = await userWithKey();
    const { key: strangerKey } = await userWithKey();
    const { user: viewer, key: viewerKey } = await userWithKey();
    const project = await createProject(prisma, owner, { name: "Hidden" });
    await prisma.projectMember.create({ data: { projectId: project.id, userId: viewer.userId, role: "viewer" } });

    const stranger = await getProject(
      request(`/api/v1/projects/${project.id}`, { key: strangerKey }),
      withProject(project.id),
    );
    const missing = await getProject(request(`/api/v1/projects/nope`, { key: strangerKey }), withProject("nope"));
    expect(stranger.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await stranger.json()).toEqual(await missing.json());

    const seen = await getProject(
      request(`/api/v1/projects/${project.id}`, { key: viewerKey }),
      withProject(project.id),
    );
    expect(await seen.json()).toMatchObject({ id: project.id, name: "Hidden", role: "viewer" });
    const rename = await patchProject(
      request(`/api/v1/projects/${project.id}`, {
        method: "PATCH",
        key: viewerKey,
        body: JSON.stringify({ name: "x" }),
      }),
      withProject(project.id),
    );
    expect(rename.status).toBe(403);
    const add = await addMemberRoute(
      request(`/api/v1/projects/${project.id}/members`, {
        method: "POST",
        key: strangerKey,
        body: JSON.stringify({ email: "someone@example.test", role: "owner" }),
      }),
      withProject(project.id),
    );
    expect(add.status).toBe(404);
  });

  it("lets owners set the default role of accounts made by single sign-on, and refuses a role that is not one", async () => {
    const { user: owner, key } = await userWithKey();
    const project = await createProject(prisma, owner, { name: "SSO default" });
    const patch = (body: unknown) =>
      patchProject(
        request(`/api/v1/projects/${project.id}`, { method: "PATCH", key, body: JSON.stringify(body) }),
        withProject(project.id),
      );
    const set = await patch({ ssoDefaultRole: "reviewer" });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ ssoDefaultRole: "reviewer" });
    expect(
      await (await getProject(request(`/api/v1/projects/${project.id}`, { key }), withProject(project.id))).json(),
    ).toMatchObject({ ssoDefaultRole: "reviewer" });
    expect((await patch({ ssoDefaultRole: "admin" })).status).toBe(400);
    expect(await (await patch({ ssoDefaultRole: null })).json()).toMatchObject({ ssoDefaultRole: null });
    expect((await prisma.project.findUniqueOrThrow({ where: { id: project.id } })).ssoDefaultRole).toBeNull();
  });

  it("rejects invalid bodies with 400 and a reason", async () => {
    const { key } = await userWithKey();
    const notJson = await createProjectRoute(request("/api/v1/projects", { method: "POST", key, body: "{" }), noParams);
    expect(notJson.status).toBe(400);
    const empty = await createProjectRoute(
      request("/api/v1/projects", { method: "POST", key, body: JSON.stringify({ name: "  " }) }),
      noParams,
    );
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toMatch(/name/);
  });
});

describe("sign-in through better-auth", () => {
  const signIn = (email: string, password: string) =>
    authPost(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ email, password }),
      }),
    );

  it("sets an HTTP-only session cookie for the right password", async () => {
    const user = await makeUser();
    const response = await signIn(user.email, user.password);
    expect(response.status).toBe(200);
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    const projects = await listProjects(
      request("/api/v1/projects", { headers: { cookie: cookie.split(";")[0]! } }),
      noParams,
    );
    expect(projects.status).toBe(200);
  });

  it("answers a wrong password and an unknown email identically", async () => {
    const user = await makeUser();
    const wrong = await signIn(user.email, "not the password");
    const unknown = await signIn(`nobody-${Date.now()}@example.test`, "not the password");
    expect(wrong.status).toBe(unknown.status);
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("refuses self sign-up", async () => {
    const response = await authPost(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ email: `self-${Date.now()}@example.test`, password: "password-123", name: "x" }),
      }),
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
  });
});

describe("/api/health", () => {
  it("reports the database up, and down with 503 when it is unreachable", async () => {
    const up = await getHealth(new Request("http://localhost:3000/api/health"));
    expect(up.status).toBe(200);
    const upBody = (await up.json()) as { status: string; db: string; latencyMs: unknown };
    expect(upBody).toEqual({ status: "ok", db: "ok", latencyMs: expect.any(Number) });

    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgresql://nobody:nothing@127.0.0.1:1/none";
    try {
      const down = await getHealth(new Request("http://localhost:3000/api/health"));
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ db: "down" });
    } finally {
      process.env.DATABASE_URL = saved;
    }
  });
});
