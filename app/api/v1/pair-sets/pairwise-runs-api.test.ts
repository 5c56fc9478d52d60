import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { DEFAULT_ASPECTS } from "@/lib/pairwise/aspects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { POST as startRoute } from "./[pairSetId]/runs/route";
import { GET as trustRoute } from "../runs/[runId]/pairwise-trust/route";

let projectId: string;
let pairSetId: string;
let endpointId: string;
let ownerId: string;
let keys: { owner: string; viewer: string; stranger: string };

beforeAll(async () => {
  const [owner, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  ownerId = owner.userId;
  const made = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1, name: "Pairwise API" });
  projectId = made.projectId;
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  endpointId = (
    await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    })
  ).id;
  const set = await prisma.pairSet.create({
    data: {
      projectId,
      name: "set",
      aspects: DEFAULT_ASPECTS,
      origin: { source: "project" },
      createdById: owner.userId,
    },
  });
  pairSetId = set.id;
  await prisma.pair.create({
    data: {
      pairSetId,
      projectId,
      pairKey: "a:b",
      position: 0,
      videoAId: made.videoIds[0]!,
      videoBId: made.videoIds[1]!,
      generatorA: "g1",
      generatorB: "g2",
      prompt: "A ball rolls down a ramp",
      nameA: "a",
      nameB: "b",
    },
  });
  keys = {
    owner: (await createApiKey(prisma, owner.userId, "t")).key,
    viewer: (await createApiKey(prisma, viewer.userId, "t")).key,
    stranger: (await createApiKey(prisma, stranger.userId, "t")).key,
  };
});

const start = (key: string, body: unknown, id = pairSetId) =>
  startRoute(
    apiRequest(`/api/v1/pair-sets/${id}/runs`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ pairSetId: id }),
  );

describe("POST /api/v1/pair-sets/{pairSetId}/runs", () => {
  it("answers a dry run's estimate of both orders, and refuses what it cannot start", async () => {
    const dry = await start(keys.owner, { endpointId, dryRun: true });
    expect(dry.status).toBe(200);
    // 1 pair × 4 aspects × 2 orders.
    expect(await dry.json()).toMatchObject({ id: null, pairs: 1, questions: 4, calls: 8, estimate: { calls: 8 } });
    expect((await start(keys.viewer, { endpointId, dryRun: true })).status).toBe(403);
    expect((await start(keys.stranger, { endpointId, dryRun: true })).status).toBe(404);
    expect((await start(keys.owner, { endpointId, dryRun: true }, "no-such-set")).status).toBe(404);
    const proto = await start(keys.owner, { endpointId, aspects: ["__proto__"] });
    expect(proto.status).toBe(400);
    const unknown = await start(keys.owner, { endpointId, aspects: ["smell"], dryRun: true });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain('Unknown aspect \\"smell\\"');
    const frameLists = await start(keys.owner, { endpointId, inputMode: "video-frames" });
    expect(frameLists.status).toBe(400);
    expect(JSON.stringify(await frameLists.json())).toContain("cannot send two videos as frame lists");
    expect((await start(keys.owner, { endpointId, inputMode: "video" })).status).toBe(400);
    expect(await prisma.judgeRun.count({ where: { pairSetId } })).toBe(0);
  });
});

describe("GET /api/v1/runs/{runId}/pairwise-trust", () => {
  it("reports a pairwise run's flips per aspect, and is a 404 for a run that is not pairwise", async () => {
    const run = await prisma.judgeRun.create({
      data: { projectId, pipeline: "pairwise", pairSetId, endpointId, createdById: ownerId, status: "done" },
    });
    const pair = await prisma.pair.findFirstOrThrow({ where: { pairSetId } });
    await prisma.pairJudgeAnswer.createMany({
      data: [
        { runId: run.id, pairId: pair.id, aspect: "overall", order: "AB", verdict: "A", answer: "[[A>B]]" },
        { runId: run.id, pairId: pair.id, aspect: "overall", order: "BA", verdict: "B", answer: "[[A>B]]" },
      ],
    });
    const trust = await trustRoute(
      apiRequest(`/api/v1/runs/${run.id}/pairwise-trust`, keys.viewer),
      routeContext({ runId: run.id }),
    );
    expect(trust.status).toBe(200);
    expect(await trust.json()).toMatchObject({
      runId: run.id,
      aspects: [{ aspect: "overall", positionFlips: 1, positionFlipRate: 1, firstPositionWinShare: 1 }],
    });
    const plain = await prisma.judgeRun.create({
      data: { projectId, pipeline: "hallucination", endpointId, createdById: ownerId },
    });
    const notPairwise = await trustRoute(
      apiRequest(`/api/v1/runs/${plain.id}/pairwise-trust`, keys.viewer),
      routeContext({ runId: plain.id }),
    );
    expect(notPairwise.status).toBe(404);
  });
});
