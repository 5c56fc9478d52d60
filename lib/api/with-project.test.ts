import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApiKey } from "../auth/api-keys";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { recordIdSchema } from "../validation/ids";
import { projectLookup, type FoundRecord } from "./project-lookups";
import { type ProjectRequest, type LookedUpRequest, withProject, withProjectOf } from "./with-project";

/** What these routes say of themselves (the OpenAPI document reads it; they declare nothing to parse). */
const api = { summary: "A thing", responses: [] };
const context = (projectId: string) => ({ params: Promise.resolve({ projectId }) });
const request = (key: string, method = "GET") =>
  new Request("http://localhost:3000/api/v1/projects/x/thing", { method, headers: { authorization: `Bearer ${key}` } });

async function memberWithKey(projectId: string | null, role: "owner" | "reviewer" | "viewer" = "viewer") {
  const user = await makeUser();
  if (projectId) await prisma.projectMember.create({ data: { projectId, userId: user.userId, role } });
  return { user, key: (await createApiKey(prisma, user.userId, "test")).key };
}

describe("withProject", () => {
  it("hands the handler the authorized actor, project and role once the caller may do the action, and answers as the permission check says otherwise", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Wrapped" });
    const seen: ProjectRequest[] = [];
    const route = withProject("queues.manage", api, async (authorized) => {
      seen.push(authorized);
      return Response.json({ ok: true });
    });

    const ownerKey = (await createApiKey(prisma, owner.userId, "test")).key;
    const allowed = await route(request(ownerKey), context(project.id));
    expect(allowed.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      actor: { userId: owner.userId },
      project: { id: project.id, name: "Wrapped" },
      role: "owner",
      params: { projectId: project.id },
    });
    expect(seen[0]!.request.url).toBe("http://localhost:3000/api/v1/projects/x/thing");

    // A reviewer lacks queues.manage: 403, and the handler never runs.
    const reviewer = await memberWithKey(project.id, "reviewer");
    const forbidden = await route(request(reviewer.key), context(project.id));
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { code: string; message: string } }).error.message).toBe(
      "Your role (reviewer) may not do that in this project.",
    );
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
    expect(
      (await route(new Request("http://localhost:3000/api/v1/projects/x/thing"), context(project.id))).status,
    ).toBe(401);
    expect(seen).toHaveLength(1);
  });
});

describe("what a route's description declares", () => {
  it("is parsed by the wrapper once the caller may do the action, and handed to the handler typed", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Parsed" });
    const seen: { name: string; limit: number }[] = [];
    const route = withProject(
      "queues.manage",
      {
        summary: "A thing",
        query: z.object({ limit: z.coerce.number().int().max(10) }),
        body: { kind: "json", schema: z.object({ name: z.string().min(1) }) },
        responses: [],
      },
      async ({ body, query }) => {
        seen.push({ name: body.name, limit: query.limit });
        return Response.json({ ok: true });
      },
    );
    const post = (key: string, body: string, query = "?limit=3") =>
      route(
        new Request(`http://localhost:3000/api/v1/projects/x/thing${query}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body,
        }),
        context(project.id),
      );
    const ownerKey = (await createApiKey(prisma, owner.userId, "test")).key;

    expect((await post(ownerKey, JSON.stringify({ name: "x" }))).status).toBe(200);
    expect(seen).toEqual([{ name: "x", limit: 3 }]);
    // Bad input is a 400 naming the field, as parseJsonBody and the query's schema answer it; the handler never runs.
    const badBody = await post(ownerKey, JSON.stringify({ name: "" }));
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { error: { message: string } }).error.message).toMatch(/^name: /);
    expect(((await (await post(ownerKey, "not json")).json()) as { error: { message: string } }).error.message).toBe(
      "The request body must be JSON.",
    );
    expect(
      (
        (await (await post(ownerKey, JSON.stringify({ name: "x" }), "?limit=11")).json()) as {
          error: { message: string };
        }
      ).error.message,
    ).toMatch(/^limit: /);
    // A caller without the right hears 403 before any of it is read.
    const reviewer = await memberWithKey(project.id, "reviewer");
    expect((await post(reviewer.key, "not json", "?limit=x")).status).toBe(403);
    expect(seen).toHaveLength(1);
  });
});

describe("withProjectOf", () => {
  it("authorizes a route keyed by another record against that record's project, once, and answers an unknown record and a non-member alike", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Scoped" });
    const lookups: string[] = [];
    const scope = projectLookup("thingId", recordIdSchema, "No such thing.", async (id) => {
      lookups.push(id);
      return id === "known-thing" ? project.id : null;
    });
    const seen: LookedUpRequest<FoundRecord>[] = [];
    const route = withProjectOf(scope, "queues.manage", api, async (authorized) => {
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
    expect(((await forbidden.json()) as { error: { message: string } }).error.message).toBe(
      "Your role (reviewer) may not do that in this project.",
    );

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
