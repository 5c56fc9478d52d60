import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { seedReviewPairs } from "@/testkit/pairwise/review-pairs";
import { POST as nextRoute } from "./next/route";
import { POST as verdictsRoute } from "./verdicts/route";
import { POST as releaseRoute } from "./release/route";
import { GET as pairRoute } from "./pairs/[pairId]/route";

let owner: Actor;
let projectId: string;
let keys: { reviewer: string; viewer: string; stranger: string };

beforeAll(async () => {
  const [o, reviewer, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  owner = o;
  projectId = (await createProject(prisma, owner, { name: `Pair review API ${Date.now()}` })).id;
  await prisma.projectMember.createMany({
    data: [
      { projectId, userId: reviewer.userId, role: "reviewer" },
      { projectId, userId: viewer.userId, role: "viewer" },
    ],
  });
  keys = {
    reviewer: (await createApiKey(prisma, reviewer.userId, "t")).key,
    viewer: (await createApiKey(prisma, viewer.userId, "t")).key,
    stranger: (await createApiKey(prisma, stranger.userId, "t")).key,
  };
});

const post = (path: string, key: string, body?: unknown) =>
  apiRequest(path, key, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });

describe("/api/v1/pair-sets/{pairSetId}/review", () => {
  it("hands a reviewer a blind pair, refuses viewers (403) and strangers (404), and takes verdicts", async () => {
    const { set, pairs } = await seedReviewPairs(prisma, owner, projectId, { pairs: 2 });
    const base = `/api/v1/pair-sets/${set.id}/review`;
    const ctx = routeContext({ pairSetId: set.id });
    expect((await nextRoute(post(`${base}/next`, keys.viewer), ctx)).status).toBe(403);
    expect((await nextRoute(post(`${base}/next`, keys.stranger), ctx)).status).toBe(404);
    const next = await nextRoute(post(`${base}/next`, keys.reviewer), ctx);
    expect(next.status).toBe(200);
    const text = await next.text();
    expect(text).not.toMatch(/GenAlpha|GenBeta/);
    const { pair } = JSON.parse(text) as { pair: { pairId: string } };

    const bad = await verdictsRoute(
      post(`${base}/verdicts`, keys.reviewer, { pairId: pair.pairId, verdicts: [{ aspect: "overall", verdict: "C" }] }),
      ctx,
    );
    expect(bad.status).toBe(400);
    const unknown = await verdictsRoute(
      post(`${base}/verdicts`, keys.reviewer, { pairId: pair.pairId, verdicts: [{ aspect: "smell", verdict: "A" }] }),
      ctx,
    );
    expect(unknown.status).toBe(400);
    const other = pairs.find((p) => p.id !== pair.pairId)!;
    const notHeld = await verdictsRoute(
      post(`${base}/verdicts`, keys.reviewer, { pairId: other.id, verdicts: [{ aspect: "overall", verdict: "A" }] }),
      ctx,
    );
    expect(notHeld.status).toBe(409);
    const saved = await verdictsRoute(
      post(`${base}/verdicts`, keys.reviewer, { pairId: pair.pairId, verdicts: [{ aspect: "overall", verdict: "A" }] }),
      ctx,
    );
    expect(saved.status).toBe(200);
    const shown = await pairRoute(
      apiRequest(`${base}/pairs/${pair.pairId}`, keys.reviewer),
      routeContext({ pairSetId: set.id, pairId: pair.pairId }),
    );
    expect(((await shown.json()) as { verdicts: unknown[] }).verdicts).toHaveLength(1);
    const released = await releaseRoute(post(`${base}/release`, keys.reviewer, { pairId: pair.pairId }), ctx);
    expect(await released.json()).toEqual({ released: true });
    expect(await prisma.pairVerdict.count({ where: { pairId: pair.pairId } })).toBe(1);
  });
});
