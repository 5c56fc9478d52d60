import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { routeContext } from "@/testkit/testing/api-request";
import { POST as authPost } from "../auth/[...all]/route";
import { DELETE as deleteApiKey } from "./me/api-keys/[keyId]/route";
import { POST as addMemberRoute } from "./projects/[projectId]/members/route";
import { GET as listPromptLists, POST as postPromptList } from "./projects/[projectId]/prompt-lists/route";
import { GET as listProjects, POST as createProjectRoute } from "./projects/route";
import { POST as createUploadRoute } from "./projects/[projectId]/uploads/route";
import { PUT as putChunk } from "./uploads/[uploadId]/route";

const APP = "http://localhost:3000";
const OTHER_PORT = "http://localhost:4444";

async function sessionCookie(user: { email: string; password: string }): Promise<string> {
  const response = await authPost(
    new Request(`${APP}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: APP },
      body: JSON.stringify({ email: user.email, password: user.password }),
    }),
  );
  expect(response.status).toBe(200);
  return (response.headers.get("set-cookie") ?? "").split(";")[0]!;
}

function request(path: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit }) {
  return new Request(`${APP}${path}`, {
    method: init.method ?? "POST",
    headers: init.headers,
    body: init.body,
    duplex: "half",
  } as RequestInit);
}

// What an auto-submitted <form enctype="text/plain"> on another page sends: a name ending in `"ignore":"`
// and the value `"}` make the body JSON.
const textPlainJson = (object: Record<string, unknown>) =>
  `${JSON.stringify({ ...object, ignore: "" }).slice(0, -2)}=${'"}'}`;

function promptListForm(): FormData {
  const form = new FormData();
  form.set("file", new Blob(["a cat playing piano\n"], { type: "text/plain" }), "prompts.txt");
  return form;
}

async function projectNames(userId: string): Promise<string[]> {
  return (await prisma.project.findMany({ where: { members: { some: { userId } } }, select: { name: true } })).map(
    (p) => p.name,
  );
}

describe("cookie-session requests that change data", () => {
  it("refuses a text/plain form from another port of the same host, and creates nothing", async () => {
    const victim = await makeUser();
    const cookie = await sessionCookie(victim);
    const body = textPlainJson({ name: "Forged project" });
    expect(JSON.parse(body.replace("=", ""))).toMatchObject({ name: "Forged project" });
    const response = await createProjectRoute(
      request("/api/v1/projects", {
        headers: { cookie, origin: OTHER_PORT, "content-type": "text/plain", "sec-fetch-site": "same-site" },
        body,
      }),
      routeContext({}),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "cross_origin" } });
    expect(await projectNames(victim.userId)).toEqual([]);
  });

  it("refuses a forged member addition and a multipart upload from another origin, but not the same request from the app", async () => {
    const victim = await makeUser();
    const intruder = await makeUser();
    const cookie = await sessionCookie(victim);
    const project = await createProject(prisma, victim, { name: "Target" });
    const ctx = routeContext({ projectId: project.id });

    const member = await addMemberRoute(
      request(`/api/v1/projects/${project.id}/members`, {
        headers: { cookie, origin: OTHER_PORT, "content-type": "text/plain" },
        body: textPlainJson({ email: intruder.email, role: "owner" }),
      }),
      ctx,
    );
    expect(member.status).toBe(403);
    const upload = await postPromptList(
      request(`/api/v1/projects/${project.id}/prompt-lists`, {
        headers: { cookie, origin: OTHER_PORT },
        body: promptListForm(),
      }),
      ctx,
    );
    expect(upload.status).toBe(403);
    // Without any Origin, a browser that says the request is cross-site is refused too.
    const noOrigin = await postPromptList(
      request(`/api/v1/projects/${project.id}/prompt-lists`, {
        headers: { cookie, "sec-fetch-site": "same-site" },
        body: promptListForm(),
      }),
      ctx,
    );
    expect(noOrigin.status).toBe(403);
    expect(await prisma.projectMember.count({ where: { projectId: project.id, userId: intruder.userId } })).toBe(0);
    expect(await prisma.promptList.count({ where: { projectId: project.id } })).toBe(0);

    const fromApp = await postPromptList(
      request(`/api/v1/projects/${project.id}/prompt-lists`, {
        headers: { cookie, origin: APP },
        body: promptListForm(),
      }),
      ctx,
    );
    expect(fromApp.status).toBe(201);
    const sameOriginFetch = await addMemberRoute(
      request(`/api/v1/projects/${project.id}/members`, {
        headers: { cookie, "sec-fetch-site": "same-origin", "content-type": "application/json" },
        body: JSON.stringify({ email: intruder.email, role: "viewer" }),
      }),
      ctx,
    );
    expect(sameOriginFetch.status).toBe(201);
    // Reads are not checked: a GET from another origin still answers (CORS keeps its body from that page).
    expect(
      (
        await listPromptLists(
          request(`/api/v1/projects/${project.id}/prompt-lists`, {
            method: "GET",
            headers: { cookie, origin: OTHER_PORT },
          }),
          ctx,
        )
      ).status,
    ).toBe(200);
  });

  it("accepts the app's own origin, its loopback twin and the addressed host, but only with the content type the route reads", async () => {
    const user = await makeUser();
    const cookie = await sessionCookie(user);
    const create = (headers: Record<string, string>, body: BodyInit = JSON.stringify({ name: `P ${Math.random()}` })) =>
      createProjectRoute(request("/api/v1/projects", { headers: { cookie, ...headers }, body }), routeContext({}));

    expect((await create({ origin: APP, "content-type": "application/json" })).status).toBe(201);
    expect(
      (await create({ origin: "http://127.0.0.1:3000", "content-type": "application/json; charset=utf-8" })).status,
    ).toBe(201);
    expect(
      (
        await create({
          origin: "https://lab.example.test",
          host: "lab.example.test",
          "content-type": "application/json",
        })
      ).status,
    ).toBe(201);
    expect((await create({ origin: "null", "content-type": "application/json" })).status).toBe(403);
    expect(
      (await create({ origin: "http://localhost:3000.evil.test", "content-type": "application/json" })).status,
    ).toBe(403);

    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const response = await create({ origin: APP, "content-type": type });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({
        error: { code: "unsupported_media_type", message: expect.stringMatching(/application\/json/) },
      });
    }
    // JSON where a route reads multipart is refused as well.
    const project = await createProject(prisma, user, { name: "Lists" });
    const json = await postPromptList(
      request(`/api/v1/projects/${project.id}/prompt-lists`, {
        headers: { cookie, origin: APP, "content-type": "application/json" },
        body: "{}",
      }),
      routeContext({ projectId: project.id }),
    );
    expect(json.status).toBe(415);
    expect(await projectNames(user.userId)).toHaveLength(4);
  });

  it("takes raw bytes for upload chunks and no body at all for deletes", async () => {
    const user = await makeUser();
    const cookie = await sessionCookie(user);
    const project = await createProject(prisma, user, { name: "Uploads" });
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const started = await createUploadRoute(
      request(`/api/v1/projects/${project.id}/uploads`, {
        headers: { cookie, origin: APP, "content-type": "application/json" },
        body: JSON.stringify({ relativePath: "a.mp4", sizeBytes: 4, sha256 }),
      }),
      routeContext({ projectId: project.id }),
    );
    expect(started.status).toBe(201);
    const { uploadId } = (await started.json()) as { uploadId: string };
    const chunk = (headers: Record<string, string>) =>
      putChunk(
        request(`/api/v1/uploads/${uploadId}?offset=0`, {
          method: "PUT",
          headers: { cookie, ...headers },
          body: bytes,
        }),
        routeContext({ uploadId }),
      );
    expect((await chunk({ origin: OTHER_PORT, "content-type": "application/octet-stream" })).status).toBe(403);
    expect((await chunk({ origin: APP, "content-type": "text/plain" })).status).toBe(415);
    const accepted = await chunk({ origin: APP, "content-type": "application/octet-stream" });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ receivedBytes: 4 });

    const { id } = await createApiKey(prisma, user.userId, "to delete");
    const refused = await deleteApiKey(
      request(`/api/v1/me/api-keys/${id}`, { method: "DELETE", headers: { cookie, origin: OTHER_PORT } }),
      routeContext({ keyId: id }),
    );
    expect(refused.status).toBe(403);
    const deleted = await deleteApiKey(
      request(`/api/v1/me/api-keys/${id}`, { method: "DELETE", headers: { cookie, origin: APP } }),
      routeContext({ keyId: id }),
    );
    expect(deleted.status).toBe(204);
    expect(await prisma.apiKey.findUnique({ where: { id } })).toMatchObject({ revokedAt: expect.any(Date) });
  });
});

describe("API-key requests", () => {
  it("are not checked for origin or content type", async () => {
    const user = await makeUser();
    const { key } = await createApiKey(prisma, user.userId, "script");
    const response = await createProjectRoute(
      request("/api/v1/projects", {
        headers: { authorization: `Bearer ${key}`, origin: OTHER_PORT, "content-type": "text/plain" },
        body: JSON.stringify({ name: "By script" }),
      }),
      routeContext({}),
    );
    expect(response.status).toBe(201);
    const listed = await listProjects(
      request("/api/v1/projects", { method: "GET", headers: { authorization: `Bearer ${key}` } }),
      routeContext({}),
    );
    expect(((await listed.json()) as { projects: { name: string }[] }).projects.map((p) => p.name)).toEqual([
      "By script",
    ]);
  });
});
