/**
 * Spans in the video list and the project overview, on a worked example. Four videos: v1 has two reviewer spans and a
 * label set's span, plus a withdrawn one; v2 a judge run's span; v3 a gold span; v4 none. So v1 has 3 people's spans,
 * v2 1 judge span, v3 1 gold span; the project 3 + 1 + 1 = 5. The filter "has spans" lists v1, v2, v3 for any, v1 for
 * people, v2 for judge.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { insertEndpoint, insertFinishedRun } from "../../testkit/testing/raw-rows";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { browseVideos } from "./browse-videos";
import { videoListQuerySchema } from "./video-filter";
import { projectSpanCounts } from "./span-counts";

let owner: Actor;
let stranger: Actor;
let projectId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  [owner, stranger] = await Promise.all([makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: "spans in lists" })).id;
  for (const key of ["v1", "v2", "v3", "v4"]) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 10n,
        fileName: `${key}.mp4`,
        relativePath: `Sora/${key}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        prompt: "A ball",
        dimensions: [],
        model: "Sora",
        createdById: owner.userId,
      },
    });
    ids[key] = video.id;
  }
  const span = (
    key: string,
    authorKind: "reviewer" | "label_set" | "judge" | "gold",
    authorId: string,
    withdrawn = false,
  ) =>
    prisma.span.create({
      data: {
        projectId,
        videoId: ids[key]!,
        task: "project",
        label: "hand",
        startFrame: 0,
        endFrame: 4,
        startS: 0,
        endS: 0.2,
        authorKind,
        authorId,
        withdrawn,
      },
    });
  await span("v1", "reviewer", owner.userId);
  await span("v1", "reviewer", owner.userId);
  await span("v1", "label_set", "labelset:ls1:ann");
  await span("v1", "reviewer", owner.userId, true);
  await span("v2", "judge", "run:r1");
  await span("v3", "gold", "gold");
});

async function list(query: Record<string, string>) {
  const parsed = videoListQuerySchema(builtInCatalogue()).parse(query);
  const result = await browseVideos(prisma, await projectAccess(prisma, owner, projectId, "project.view"), parsed);
  return result.videos.map((v) => [v.fileName, v.spans]);
}

describe("spans in the video list", () => {
  it("counts each listed video's spans by people, judge runs and the gold (withdrawn ones not)", async () => {
    expect(await list({})).toEqual([
      ["v1.mp4", { people: 3, judge: 0, gold: 0 }],
      ["v2.mp4", { people: 0, judge: 1, gold: 0 }],
      ["v3.mp4", { people: 0, judge: 0, gold: 1 }],
      ["v4.mp4", { people: 0, judge: 0, gold: 0 }],
    ]);
  });

  it("filters videos that have spans: any, by people, by a judge run (without a run in the project)", async () => {
    const names = async (spans: string) => (await list({ spans })).map(([name]) => name);
    expect(await names("any")).toEqual(["v1.mp4", "v2.mp4", "v3.mp4"]);
    expect(await names("people")).toEqual(["v1.mp4"]);
    expect(await names("judge")).toEqual(["v2.mp4"]);
  });

  it("refuses a value the filter does not know, naming the field", () => {
    const parsed = videoListQuerySchema(builtInCatalogue()).safeParse({ spans: "robots" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["spans"]);
  });
});

describe("spans of a video reviewed blind", () => {
  it("withholds its counts and never matches it by spans, for the reviewer reviewing it blind", async () => {
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "e",
      baseUrl: "http://e",
      model: "m",
      createdById: owner.userId,
    });
    const runId = await insertFinishedRun(prisma, {
      projectId,
      pipeline: "hallucination",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: {},
    });
    const queue = await prisma.reviewQueue.create({
      data: { projectId, name: "blind", runId, scope: "verdict", blind: true, itemCount: 1, createdById: owner.userId },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: ids.v2!, position: 0 } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: reviewer.userId },
    });
    const catalogue = builtInCatalogue();
    const as = async (actor: Actor, query: Record<string, string>) =>
      (
        await browseVideos(
          prisma,
          await projectAccess(prisma, actor, projectId, "project.view"),
          videoListQuerySchema(catalogue).parse(query),
        )
      ).videos.map((v) => [v.fileName, v.spans]);
    expect((await as(reviewer, {})).find(([name]) => name === "v2.mp4")).toEqual(["v2.mp4", null]);
    expect((await as(reviewer, { spans: "judge" })).map(([name]) => name)).toEqual([]);
    expect((await as(reviewer, { spans: "any" })).map(([name]) => name)).toEqual(["v1.mp4", "v3.mp4"]);
    // The owner, who reviews nothing blind, sees the judge's span.
    expect((await as(owner, { spans: "judge" })).map(([name]) => name)).toEqual(["v2.mp4"]);
    await prisma.reviewQueue.delete({ where: { id: queue.id } });
  });
});

describe("spans on the project overview", () => {
  it("counts the project's spans by people, judge runs and the gold, for members only", async () => {
    expect(await projectSpanCounts(prisma, await projectAccess(prisma, owner, projectId, "project.view"))).toEqual({
      people: 3,
      judge: 1,
      gold: 1,
    });
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toMatchObject({ status: 404 });
  });
});
