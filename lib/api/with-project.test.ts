import { describe, expect, it } from "vitest";
import { createApiKey } from "../auth/api-keys";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../testing/fixtures";
import { recordIdSchema } from "../validation/ids";
import { projectScope, type ScopedRecord } from "./project-scopes";
import { type ProjectRequest, type ScopedRequest, withProject, withProjectOf } from "./with-project";

type Params = { projectId: string };
const context = (projectId: string) => ({ params: Promise.resolve({ projectId }) });
const request = (key: string, method = "GET") => new Request("http://localhost:3000/api/v1/projects/x/thing", { method, headers: { authorization: `Bearer ${key}` } });

async function memberWithKey(projectId: string | null, role: "owner" | "reviewer" | "viewer" = "viewer") {
  const user = await makeUser();
  if (projectId) await prisma.projectMember.create({ data: { projectId, userId: user.userId, role } });
  return { user, key: (await createApiKey(prisma, user.userId, "test")).key };
}

describe("withProject", () => {
  it("hands the handler the authorized actor, project and role once the caller may do the action, and answers as the permission check says otherwise", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Wrapped" });
    const seen: ProjectRequest<Params>[] = [];
    const route = withProject<Params>("queues.manage", async (authorized) => {
      seen.push(authorized);
      return Response.json({ ok: true });
    });

    const ownerKey = (await createApiKey(prisma, owner.userId, "test")).key;
    const allowed = await route(request(ownerKey), context(project.id));
    expect(allowed.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ actor: { userId: owner.userId }, project: { id: project.id, name: "Wrapped" }, role: "owner", params: { projectId: project.id } });
    expect(seen[0]!.request.url).toBe("http://localhost:3000/api/v1/projects/x/thing");

    // A reviewer lacks queues.manage: 403, and the handler never runs.
    const reviewer = await memberWithKey(project.id, "reviewer");
    const forbidden = await route(request(reviewer.key), context(project.id));
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { code: string; message: string } }).error.message).toBe("Your role (reviewer) may not do that in this project.");
    // A non-member and a missing project read alike: 404 "No such project.".
    const stranger = await memberWithKey(null);
    for (const [key, id] of [
      [stranger.key, project.id],
      [ownerKey, "no-such-project"],
    ] as const) {
      const missing = await route(request(key), context(id));
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { message: string } }).error.message).toBe("No such project.");
    }
    // A malformed id is bad input; no key is a 401.
    expect((await route(request(ownerKey), context("bad id!"))).status).toBe(400);
    expect((await route(new Request("http://localhost:3000/api/v1/projects/x/thing"), context(project.id))).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});

describe("withProjectOf", () => {
  it("authorizes a route keyed by another record against that record's project, once, and answers an unknown record and a non-member alike", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Scoped" });
    const lookups: string[] = [];
    const scope = projectScope("thingId", recordIdSchema, "No such thing.", async (id) => {
      lookups.push(id);
      return id === "known-thing" ? project.id : null;
    });
    const seen: ScopedRequest<{ thingId: string; extra: string }, ScopedRecord>[] = [];
    const route = withProjectOf<{ thingId: string; extra: string }, ScopedRecord>(scope, "queues.manage", async (authorized) => {
      seen.push(authorized);
      return Response.json({ ok: true });
    });
    const at = (thingId: string) => ({ params: Promise.resolve({ thingId, extra: "x" }) });

    const ownerKey = (await createApiKey(prisma, owner.userId, "test")).key;
    expect((await route(request(ownerKey), at("known-thing"))).status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      actor: { userId: owner.userId },
      project: { id: project.id, name: "Scoped" },
      role: "owner",
      record: { id: "known-thing", projectId: project.id },
      params: { thingId: "known-thing", extra: "x" },
    });

    const reviewer = await memberWithKey(project.id, "reviewer");
    const forbidden = await route(request(reviewer.key), at("known-thing"));
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { message: string } }).error.message).toBe("Your role (reviewer) may not do that in this project.");

    const stranger = await memberWithKey(null);
    for (const [key, id] of [
      [stranger.key, "known-thing"],
      [ownerKey, "unknown-thing"],
    ] as const) {
      const missing = await route(request(key), at(id));
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { message: string } }).error.message).toBe("No such thing.");
    }
    // A malformed id is a 400 before any lookup; no key is a 401.
    const before = lookups.length;
    expect((await route(request(ownerKey), at("x".repeat(65)))).status).toBe(400);
    expect(lookups).toHaveLength(before);
    expect((await route(new Request("http://localhost:3000/api/v1/things/x"), at("known-thing"))).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});
