import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { browseOptions, browseVideos } from "./browse-videos";
import { videoListQuerySchema } from "./video-filter";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { insertJudgment } from "../../testkit/testing/judgments";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

let owner: Actor;
let reviewer: Actor;
let stranger: Actor;
let projectId: string;
let olderRunId: string;
let latestRunId: string;
const ids: Record<string, string> = {};
const thumbs: Record<string, string> = {};

// Five videos a–e. The latest run judged a, b, c (c without a summary); the older run judged a and d
// with other values. a has two frame sets; its thumbnail is the later one's first key frame.
beforeAll(async () => {
  [owner, reviewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: "browse" })).id;
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  const specs = [
    { key: "a", model: "Sora", dims: ["Mechanics"], prompt: "A ball falls" },
    { key: "b", model: "Sora", dims: ["Material"], prompt: "Ice melts" },
    { key: "c", model: "Kling", dims: ["Material"], prompt: "Glass shatters" },
    { key: "d", model: "Kling", dims: ["Thermotics"], prompt: "Water boils" },
    { key: "e", model: "Kling", dims: ["Thermotics"], prompt: "Steam rises" },
  ] as const;
  for (const spec of specs) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 10n,
        fileName: `${spec.key}.mp4`,
        relativePath: `${spec.model}/${spec.key}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        prompt: spec.prompt,
        dimensions: [...spec.dims],
        model: spec.model,
        createdById: owner.userId,
      },
    });
    ids[spec.key] = video.id;
  }
  // Frame sets: a has an older one (1 key frame) and a newer one (2 key frames: indexes 1 and 4); b has one; c, d, e none.
  const frameSet = async (key: string, createdAt: Date, keyIndexes: number[]) => {
    const set = await prisma.frameSet.create({
      data: {
        videoId: ids[key]!,
        identity: randomUUID(),
        parameters: {},
        mode: "density-peaks",
        frameCount: 6,
        keyFrameCount: keyIndexes.length,
        createdById: owner.userId,
        createdAt,
      },
    });
    const frames = [];
    for (let index = 0; index < 6; index++) {
      frames.push(
        await prisma.frame.create({
          data: {
            frameSetId: set.id,
            index,
            timestampS: index / 4,
            isKeyFrame: keyIndexes.includes(index),
            cluster: null,
            storageKey: `f/${set.id}/${index}`,
            sha256: "0".repeat(64),
            sizeBytes: 1,
            width: 8,
            height: 8,
          },
        }),
      );
    }
    return frames;
  };
  await frameSet("a", new Date(Date.now() - 60_000), [0]);
  thumbs.a = (await frameSet("a", new Date(), [4, 1]))[1]!.id;
  thumbs.b = (await frameSet("b", new Date(), [2]))[2]!.id;

  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  const older = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline: "hallucination",
      endpointId: endpoint.id,
      createdById: owner.userId,
      status: "done",
      createdAt: new Date(Date.now() - 3_600_000),
    },
  });
  olderRunId = older.id;
  await createRunVideo(prisma, {
    runId: older.id,
    videoId: ids.a!,
    frameSetId: "fs",
    metrics: { S: 9, D: 9, I: 9, overall: 10, verdict: true },
  });
  await createRunVideo(prisma, {
    runId: older.id,
    videoId: ids.d!,
    frameSetId: "fs",
    metrics: { S: 0, D: 0, I: 0, overall: 100, verdict: false },
  });
  const latest = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline: "hallucination",
      endpointId: endpoint.id,
      createdById: owner.userId,
      status: "done",
      simulated: true,
    },
  });
  latestRunId = latest.id;
  await createRunVideo(prisma, {
    runId: latest.id,
    videoId: ids.a!,
    frameSetId: "fs",
    metrics: { S: 2, D: 3, I: 1, overall: 74, verdict: false },
  });
  await createRunVideo(prisma, {
    runId: latest.id,
    videoId: ids.b!,
    frameSetId: "fs",
    metrics: { S: 5, D: 6, I: 4, overall: 48, verdict: true },
  });
  await prisma.runVideo.create({ data: { runId: latest.id, videoId: ids.c!, frameSetId: "fs" } });

  // Judgments in the latest run: the reviewer and the owner on a (the reviewer disagrees), the reviewer on b.
  // In the older run the owner judged d, which must not show in the latest run's review columns.
  const judge = (runId: string, key: string, by: Actor, disagrees: boolean, targetType = "verdict") =>
    insertJudgment(prisma, {
      projectId,
      targetType,
      videoId: ids[key]!,
      reviewerId: by.userId,
      value: 1,
      runId,
      judgeValue: disagrees ? 0 : 1,
      disagrees,
    });
  await judge(latestRunId, "a", reviewer, true);
  await judge(latestRunId, "a", reviewer, false, "overall");
  await judge(latestRunId, "a", owner, false);
  await judge(latestRunId, "b", reviewer, false);
  await judge(olderRunId, "d", owner, true);
});

const browse = async (query: Record<string, string>, as: Actor = owner) =>
  browseVideos(
    prisma,
    await projectAccess(prisma, as, projectId, "project.view"),
    videoListQuerySchema(builtInCatalogue()).parse(query),
  );
const keysOf = (videos: { id: string }[]) =>
  videos.map((video) => Object.entries(ids).find(([, id]) => id === video.id)![0]);

describe("browseVideos", () => {
  it("shows the latest run's score columns by default, and a named run's when asked", async () => {
    const result = await browse({});
    expect(result.run).toMatchObject({ id: latestRunId, pipeline: "hallucination", simulated: true, status: "done" });
    expect(result.total).toBe(5);
    const byKey = Object.fromEntries(result.videos.map((video) => [keysOf([video])[0], video]));
    expect(byKey.a!.scores).toEqual({ S: 2, D: 3, I: 1, overall: 74, verdict: false });
    expect(byKey.b!.scores).toEqual({ S: 5, D: 6, I: 4, overall: 48, verdict: true });
    expect(byKey.c!.scores).toEqual({ S: null, D: null, I: null, overall: null, verdict: null });
    expect(byKey.d!.scores).toBeNull();

    const older = await browse({ runId: olderRunId });
    expect(older.run?.id).toBe(olderRunId);
    expect(keysOf(older.videos).sort()).toEqual(["a", "d"]);
    expect(older.videos.find((video) => video.id === ids.a)!.scores).toEqual({
      S: 9,
      D: 9,
      I: 9,
      overall: 10,
      verdict: true,
    });
  });

  it("keeps the old per-video fields and adds thumbnails and key frame counts from the latest frame set", async () => {
    const { videos } = await browse({ sort: "path" });
    const a = videos.find((video) => video.id === ids.a)!;
    expect(a).toMatchObject({
      fileName: "a.mp4",
      relativePath: "Sora/a.mp4",
      sizeBytes: 10,
      status: "ready",
      dimensions: ["Mechanics"],
      model: "Sora",
      url: `/api/v1/videos/${ids.a}/file`,
    });
    expect(a.createdAt).toBeInstanceOf(Date);
    expect(a).toMatchObject({ frameSetCount: 2, keyFrameCount: 2, thumbnailUrl: `/api/v1/frames/${thumbs.a}/image` });
    expect(videos.find((video) => video.id === ids.b)).toMatchObject({
      frameSetCount: 1,
      keyFrameCount: 1,
      thumbnailUrl: `/api/v1/frames/${thumbs.b}/image`,
    });
    expect(videos.find((video) => video.id === ids.e)).toMatchObject({
      frameSetCount: 0,
      keyFrameCount: 0,
      thumbnailUrl: null,
    });
    expect(a).not.toHaveProperty("storageKey");
  });

  it("computes the review flags for the caller, in the shown run only", async () => {
    const asOwner = await browse({});
    const review = (result: Awaited<ReturnType<typeof browse>>, key: string) =>
      result.videos.find((video) => video.id === ids[key])!.review;
    expect(review(asOwner, "a")).toEqual({ reviewers: 2, byMe: true, disagreement: true });
    expect(review(asOwner, "b")).toEqual({ reviewers: 1, byMe: false, disagreement: false });
    expect(review(asOwner, "d")).toEqual({ reviewers: 0, byMe: false, disagreement: false });
    const asReviewer = await browse({}, reviewer);
    expect(review(asReviewer, "a").byMe).toBe(true);
    expect(review(asReviewer, "b").byMe).toBe(true);
    const older = await browse({ runId: olderRunId });
    expect(review(older, "d")).toEqual({ reviewers: 1, byMe: true, disagreement: true });
    // Judgments belong to the video's targets, not to a run: a's, seen in the latest run, show in the
    // older run that judged a too, and disagreement is against the older run's own values.
    expect(review(older, "a")).toEqual({ reviewers: 2, byMe: true, disagreement: false });

    expect(keysOf((await browse({ review: "reviewed_by_me" }, reviewer)).videos).sort()).toEqual(["a", "b"]);
    expect(keysOf((await browse({ review: "reviewed_by_me" })).videos)).toEqual(["a"]);
    expect(keysOf((await browse({ review: "disagreement" })).videos)).toEqual(["a"]);
  });

  it("sorts by overall in either direction with unscored videos last", async () => {
    expect(keysOf((await browse({ sort: "overall", dir: "desc" })).videos).slice(0, 2)).toEqual(["a", "b"]);
    expect(keysOf((await browse({ sort: "overall", dir: "asc" })).videos).slice(0, 2)).toEqual(["b", "a"]);
    const desc = await browse({ sort: "overall", dir: "desc" });
    expect(desc.videos.slice(2).every((video) => video.scores?.overall == null)).toBe(true);
    expect(keysOf((await browse({ sort: "path", dir: "desc" })).videos)).toEqual(["b", "a", "e", "d", "c"]);
  });

  it("paginates with the total of the whole filter", async () => {
    const first = await browse({ pageSize: "2", page: "1" });
    const second = await browse({ pageSize: "2", page: "2" });
    const third = await browse({ pageSize: "2", page: "3" });
    expect([first.total, second.total, third.total]).toEqual([5, 5, 5]);
    expect([first.videos.length, second.videos.length, third.videos.length]).toEqual([2, 2, 1]);
    const all = [...keysOf(first.videos), ...keysOf(second.videos), ...keysOf(third.videos)];
    expect(new Set(all).size).toBe(5);
    const beyond = await browse({ pageSize: "2", page: "9" });
    expect(beyond).toMatchObject({ total: 5, page: 9, videos: [] });
    const filtered = await browse({ model: "Kling", overallMax: "50", pageSize: "1" });
    expect(filtered.total).toBe(0);
    expect((await browse({ overallMax: "50" })).total).toBe(1);
  });

  it("searches prompt text case-insensitively, with other filters, sorts and pages", async () => {
    expect(keysOf((await browse({ prompt: "ICE MELTS" })).videos)).toEqual(["b"]);
    const s = await browse({ prompt: "T", sort: "overall", dir: "desc", pageSize: "2" });
    expect(s.total).toBe(4); // Ice melts, Glass shatters, Water boils, Steam rises
    expect(keysOf(s.videos)).toEqual(["b", "c"]);
    expect(keysOf((await browse({ prompt: "t", model: "Kling", verdict: "yes" })).videos)).toEqual([]);
    expect(keysOf((await browse({ prompt: "%" })).videos)).toEqual([]);
    expect((await browse({ prompt: "zzz" })).total).toBe(0);
  });

  it("lists the filter options: dimensions, models and runs newest first", async () => {
    const options = await browseOptions(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"));
    expect(options.dimensions).toEqual(["Material", "Mechanics", "Thermotics"]);
    expect(options.models).toEqual(["Kling", "Sora"]);
    expect(options.runs.map((run) => run.id)).toEqual([latestRunId, olderRunId]);
  });

  it("answers a non-member as if the project did not exist", async () => {
    await expect(browse({}, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
    await expect(browse({ runId: "no-such-run" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses malformed filters in the schema instead of ignoring them", () => {
    for (const bad of [
      { category: "s99" },
      { overallMax: "abc" },
      { sMin: "11" },
      { sort: "storageKey" },
      { review: "mine" },
      { page: "0" },
      { runId: "x'; drop" },
    ]) {
      expect(videoListQuerySchema(builtInCatalogue()).safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(videoListQuerySchema(builtInCatalogue()).parse({ overallMax: "", dimension: "Mechanics" })).toMatchObject({
      overallMax: undefined,
      dimension: "Mechanics",
      page: 1,
      pageSize: 50,
      sort: "path",
      dir: "asc",
    });
  });
  it("flags a presence judgment that disagrees with the shown run's presence, whichever run it was saved against", async () => {
    // The latest run scores s1 on c at 8 and 1 (present at the threshold 5); the reviewer, who saw the older run,
    // says s1 is absent. The judgment's own `disagrees` is the older run's; against the latest it disagrees.
    for (const [scopeIndex, value] of [
      [0, 8],
      [1, 1],
    ] as const) {
      const step = await prisma.stepResult.create({
        data: {
          runId: latestRunId,
          videoId: ids.c!,
          stepId: "static_hallucination",
          scopeIndex,
          status: "done",
          templateId: "t",
          output: {},
        },
      });
      await prisma.score.create({
        data: {
          runId: latestRunId,
          videoId: ids.c!,
          stepResultId: step.id,
          stepId: "static_hallucination",
          scopeIndex,
          category: "s1",
          value,
        },
      });
    }
    await insertJudgment(prisma, {
      projectId,
      targetType: "presence",
      target: "s1",
      videoId: ids.c!,
      reviewerId: reviewer.userId,
      value: 0,
      runId: olderRunId,
      judgeValue: null,
      disagrees: false,
    });
    const latest = await browse({});
    expect(latest.videos.find((video) => video.id === ids.c)!.review).toEqual({
      reviewers: 1,
      byMe: false,
      disagreement: true,
    });
    expect(keysOf((await browse({ review: "disagreement" })).videos).sort()).toEqual(["a", "c"]);
  });
});

describe("browseVideos for a reviewer in a blind queue", () => {
  it("withholds the open video's judge values and never lets a filter or sort give them away", async () => {
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "blind",
        runId: latestRunId,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: ids.b!, position: 0 } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: reviewer.userId },
    });

    const all = await browse({}, reviewer);
    const b = all.videos.find((video) => video.id === ids.b)!;
    expect(b).toMatchObject({ blind: true, scores: null });
    expect(b.review.disagreement).toBe(false);
    // b's judge verdict is yes: with it hidden, neither verdict filter lists it.
    expect(keysOf((await browse({ verdict: "yes" }, reviewer)).videos)).toEqual([]);
    expect(keysOf((await browse({ verdict: "no" }, reviewer)).videos)).toEqual(["a"]);
    expect(keysOf((await browse({ overallMin: "0", overallMax: "100" }, reviewer)).videos)).toEqual(["a"]);
    // Sorted by overall, b (48) would come before a (74) ascending; hidden, it sorts as unscored.
    expect(keysOf((await browse({ runId: latestRunId, sort: "overall", dir: "asc" }, reviewer)).videos)).toEqual(
      ["a", "b", "c"].sort((x, y) => (x === "a" ? -1 : y === "a" ? 1 : ids[x]! < ids[y]! ? -1 : 1)),
    );
    // Others see b as before.
    expect((await browse({ verdict: "yes" })).videos.map((video) => video.id)).toEqual([ids.b]);

    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: item.id, reviewerId: reviewer.userId } },
      data: { status: "done", doneAt: new Date() },
    });
    const after = (await browse({ verdict: "yes" }, reviewer)).videos;
    expect(after.map((video) => [video.id, video.blind, video.scores?.overall])).toEqual([[ids.b, false, 48]]);
  });
});
