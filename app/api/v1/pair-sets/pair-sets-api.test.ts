/**
 * Issue 66: the pair-set routes over HTTP (API keys): who may make, read, archive and delete a set, set gold, and
 * the 4xx answers of bad input.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { pairSetProject } from "@/testkit/testing/pair-set-fixtures";
import { GET as listRoute, POST as createRoute } from "../projects/[projectId]/pair-sets/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "./[pairSetId]/route";
import { GET as pairsRoute } from "./[pairSetId]/pairs/route";
import { PUT as goldRoute } from "./[pairSetId]/pairs/[pairId]/gold/route";
import { GET as disagreementsRoute } from "./[pairSetId]/disagreements/route";

let project: Awaited<ReturnType<typeof pairSetProject>>;
let keys: { owner: string; reviewer: string; viewer: string };

beforeAll(async () => {
  project = await pairSetProject();
  keys = {
    owner: (await createApiKey(prisma, project.owner.userId, "t")).key,
    reviewer: (await createApiKey(prisma, project.reviewer.userId, "t")).key,
    viewer: (await createApiKey(prisma, project.viewer.userId, "t")).key,
  };
});

const make = (key: string, body: unknown) =>
  createRoute(
    apiRequest(`/api/v1/projects/${project.projectId}/pair-sets`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ projectId: project.projectId }),
  );
const onSet = (pairSetId: string, path = "", key: string, init: RequestInit = {}) =>
  apiRequest(`/api/v1/pair-sets/${pairSetId}${path}`, key, init);

describe("pair-set routes", () => {
  it("an owner makes a set (201); a reviewer may not (403); a viewer lists and reads it", async () => {
    expect((await make(keys.reviewer, { name: "r" })).status).toBe(403);
    const made = await make(keys.owner, { name: "api", design: "round_robin" });
    expect(made.status).toBe(201);
    const body = (await made.json()) as { pairSet: { id: string }; pairs: number };
    expect(body.pairs).toBe(6);
    const listed = await listRoute(
      apiRequest(`/api/v1/projects/${project.projectId}/pair-sets`, keys.viewer),
      routeContext({ projectId: project.projectId }),
    );
    expect(((await listed.json()) as { pairSets: { id: string }[] }).pairSets.map((s) => s.id)).toEqual([
      body.pairSet.id,
    ]);
    const read = await getRoute(onSet(body.pairSet.id, "", keys.viewer), routeContext({ pairSetId: body.pairSet.id }));
    expect(await read.json()).toMatchObject({ name: "api", counts: { pairs: 6 } });
    const page = await pairsRoute(
      onSet(body.pairSet.id, "/pairs?limit=4", keys.viewer),
      routeContext({ pairSetId: body.pairSet.id }),
    );
    expect(await page.json()).toMatchObject({ nextAfter: 3 });
  });

  it("answers bad input with clear 4xx and writes nothing", async () => {
    const before = await prisma.pairSet.count({ where: { projectId: project.projectId } });
    const answers = await Promise.all([
      make(keys.owner, { name: "x", aspects: [{ id: "__proto__", label: "p" }] }),
      make(keys.owner, { name: "x", design: "k_per_prompt" }),
      make(keys.owner, { name: "x", prompts: { prompts: ["nothing here"] } }),
      make(keys.owner, {
        name: "x",
        design: "explicit",
        pairs: [{ videoAId: project.videoIds[0], videoBId: project.videoIds[0] }],
      }),
      make(keys.owner, { name: "x", surprise: true }),
      make(keys.owner, { name: "x", assigneeIds: [project.viewer.userId] }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([400, 400, 422, 400, 400, 400]);
    expect(await answers[2]!.json()).toMatchObject({
      error: { code: "no_pairs", message: expect.stringMatching(/^no pairs/) },
    });
    expect(await prisma.pairSet.count({ where: { projectId: project.projectId } })).toBe(before);
    expect((await make(keys.owner, { name: "api" })).status).toBe(409);
  });

  it("sets gold (adjudicators only), answers a stale version with 409, lists disagreements, archives and deletes", async () => {
    const made = (await (await make(keys.owner, { name: "gold api" })).json()) as { pairSet: { id: string } };
    const setId = made.pairSet.id;
    const pair = (await prisma.pair.findFirst({ where: { pairSetId: setId } }))!;
    const put = (key: string, body: unknown, pairId = pair.id) =>
      goldRoute(
        onSet(setId, `/pairs/${pairId}/gold`, key, { method: "PUT", body: JSON.stringify(body) }),
        routeContext({ pairSetId: setId, pairId }),
      );
    expect((await put(keys.reviewer, { aspect: "overall", verdict: "A" })).status).toBe(403);
    expect((await put(keys.owner, { aspect: "overall", verdict: "A>B" })).status).toBe(400);
    expect((await put(keys.owner, { aspect: "nope", verdict: "A" })).status).toBe(400);
    const first = await put(keys.owner, { aspect: "overall", verdict: "A" });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ version: 1, verdict: "A" });
    const stale = await put(keys.owner, { aspect: "overall", verdict: "B", version: 7 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: { details: { current: { version: 1, verdict: "A" } } } });
    const otherSet = (await (await make(keys.owner, { name: "other" })).json()) as { pairSet: { id: string } };
    const foreign = await goldRoute(
      onSet(otherSet.pairSet.id, `/pairs/${pair.id}/gold`, keys.owner, {
        method: "PUT",
        body: JSON.stringify({ aspect: "overall", verdict: "A" }),
      }),
      routeContext({ pairSetId: otherSet.pairSet.id, pairId: pair.id }),
    );
    expect(foreign.status).toBe(404);
    const disagreements = await disagreementsRoute(
      onSet(setId, "/disagreements?aspect=overall", keys.owner),
      routeContext({ pairSetId: setId }),
    );
    expect(await disagreements.json()).toEqual({ disagreements: [], nextAfter: null });
    const archive = (key: string, body: unknown) =>
      patchRoute(
        onSet(setId, "", key, { method: "PATCH", body: JSON.stringify(body) }),
        routeContext({ pairSetId: setId }),
      );
    expect((await archive(keys.viewer, { archived: true })).status).toBe(403);
    expect((await archive(keys.owner, { archived: "yes" })).status).toBe(400);
    expect(await (await archive(keys.owner, { archived: true })).json()).toMatchObject({
      archivedAt: expect.any(String),
    });
    expect(
      (await deleteRoute(onSet(setId, "", keys.reviewer, { method: "DELETE" }), routeContext({ pairSetId: setId })))
        .status,
    ).toBe(403);
    expect(
      (await deleteRoute(onSet(setId, "", keys.owner, { method: "DELETE" }), routeContext({ pairSetId: setId })))
        .status,
    ).toBe(204);
    expect((await getRoute(onSet(setId, "", keys.owner), routeContext({ pairSetId: setId }))).status).toBe(404);
  });
});
