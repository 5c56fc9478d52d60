import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { GET as listVideos } from "../projects/[projectId]/videos/route";
import { createRunVideo } from "@/testkit/testing/run-video-fixture";

let projectId: string;
let runId: string;
let ownerKey: string;
let viewerKey: string;
let strangerKey: string;
const ids: string[] = [];

const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
async function list(key: string, query: string, project = projectId) {
  const response = await listVideos(
    new Request(`http://x/api/v1/projects/${project}/videos?${query}`, { headers: { authorization: `Bearer ${key}` } }),
    ctx({ projectId: project }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  const [owner, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: "list api" })).id;
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  const keys = await Promise.all(
    [owner, viewer, stranger].map(async (user) => (await createApiKey(prisma, user.userId, "t")).key),
  );
  [ownerKey, viewerKey, strangerKey] = [keys[0]!, keys[1]!, keys[2]!];
  for (let i = 0; i < 3; i++) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 5n,
        fileName: `v${i}.mp4`,
        relativePath: `Mechanics/v${i}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        prompt: `Prompt ${i}`,
        dimensions: ["Mechanics"],
        model: "Sora",
        createdById: owner.userId,
      },
    });
    ids.push(video.id);
  }
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  runId = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
      },
    })
  ).id;
  for (const [i, overall] of [30, 90, 60].entries()) {
    await createRunVideo(prisma, {
      runId,
      videoId: ids[i]!,
      frameSetId: "fs",
      metrics: { S: 1, D: 1, I: 1, overall: overall, verdict: overall < 50 },
    });
  }
});

describe("GET /api/v1/projects/:id/videos", () => {
  it("lists with the old fields plus the run, scores and review state", async () => {
    const { status, body } = await list(viewerKey, "");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      page: 1,
      pageSize: 50,
      total: 3,
      run: { id: runId, pipeline: "hallucination", status: "done" },
    });
    expect(body.videos[0]).toMatchObject({
      id: ids[0],
      fileName: "v0.mp4",
      sizeBytes: 5,
      keyFrameCount: 0,
      thumbnailUrl: null,
      scores: { overall: 30, verdict: true },
      review: { reviewers: 0, byMe: false, disagreement: false },
    });
  });

  it("filters and sorts on score columns, and pages", async () => {
    const sorted = await list(ownerKey, "sort=overall&dir=desc&overallMin=50");
    expect(sorted.status).toBe(200);
    expect(sorted.body.total).toBe(2);
    expect(sorted.body.videos.map((v: { id: string }) => v.id)).toEqual([ids[1], ids[2]]);
    const paged = await list(ownerKey, "pageSize=1&page=2");
    expect(paged.body).toMatchObject({ total: 3, page: 2, pageSize: 1 });
    expect(paged.body.videos.map((v: { id: string }) => v.id)).toEqual([ids[1]]);
  });

  it("answers a malformed filter with 400 and the reason, never an unfiltered list", async () => {
    for (const [query, field] of [
      ["category=s99", "category"],
      ["overallMax=abc", "overallMax"],
      ["sort=storageKey", "sort"],
      ["verdict=maybe", "verdict"],
      ["pageSize=501", "pageSize"],
    ] as const) {
      const { status, body } = await list(ownerKey, query);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toContain(field);
      expect(body).not.toHaveProperty("videos");
    }
  });

  it("pages by cursor: nextCursor and prevCursor, each video once", async () => {
    const first = await list(viewerKey, "sort=overall&dir=desc&pageSize=1");
    expect(first.body).toMatchObject({ page: 1, total: 3, prevCursor: null });
    expect(typeof first.body.nextCursor).toBe("string");
    const second = await list(viewerKey, `sort=overall&dir=desc&pageSize=1&cursor=${first.body.nextCursor}`);
    const third = await list(viewerKey, `sort=overall&dir=desc&pageSize=1&cursor=${second.body.nextCursor}`);
    expect([second.status, third.status]).toEqual([200, 200]);
    expect([first, second, third].map((r) => r.body.videos.map((v: { id: string }) => v.id)).flat()).toEqual([
      ids[1],
      ids[2],
      ids[0],
    ]);
    expect([second.body.page, third.body.page, third.body.nextCursor]).toEqual([2, 3, null]);
    const back = await list(viewerKey, `sort=overall&dir=desc&pageSize=1&cursor=${third.body.prevCursor}`);
    expect(back.body).toMatchObject({ page: 2, videos: [{ id: ids[2] }] });
  });

  it("answers a tampered, truncated or foreign cursor with 400 naming it, never with a page", async () => {
    const { body } = await list(ownerKey, "sort=overall&dir=desc&pageSize=1");
    const cursor: string = body.nextCursor;
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
    const reencoded = (patch: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...decoded, ...patch })).toString("base64url");
    const bad = [
      `sort=overall&dir=desc&cursor=${cursor.slice(0, -4)}`, // truncated
      `sort=overall&dir=desc&cursor=${cursor}%27`, // a character that no cursor has
      `sort=overall&dir=desc&cursor=bm90IGpzb24`, // base64url of "not json"
      `sort=overall&dir=desc&cursor=${reencoded({ k: "30" })}`, // text where the sort's value is a number
      `sort=overall&dir=desc&cursor=${reencoded({ i: "x'; drop table video; --" })}`, // an id that is no id
      `sort=overall&dir=desc&cursor=${reencoded({ extra: 1 })}`, // a field no cursor has
      `sort=overall&dir=desc&cursor=${reencoded({ p: 0 })}`, // no page 0
      `sort=overall&dir=asc&cursor=${cursor}`, // made for the other direction
      `sort=path&cursor=${cursor}`, // made for another sort
    ];
    for (const query of bad) {
      const response = await list(ownerKey, query);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe("invalid_request");
      expect(response.body.error.message, query).toContain("cursor");
      expect(response.body, query).not.toHaveProperty("videos");
    }
  });

  it("gives a non-member 404, also for a run of the project", async () => {
    expect((await list(strangerKey, "")).status).toBe(404);
    expect((await list(strangerKey, `runId=${runId}`)).status).toBe(404);
    expect((await list(ownerKey, "runId=not-a-run-of-this-project")).status).toBe(404);
  });
});
