import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { projectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import { videoRuns } from "../judge/runs/video-runs";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { compareSamples, promptSampleCount } from "./compare-samples";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { insertJudgment } from "../../testkit/testing/judgments";
import { accessOfVideo } from "../../testkit/testing/record-access";

let owner: Actor;
let viewer: Actor;
let stranger: Actor;
let projectId: string;
const ids: Record<string, string> = {};
let oldRun: string;
let newRun: string;

async function video(key: string, prompt: string | null, model: string | null, sampleIndex: number | null) {
  const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
  const created = await prisma.video.create({
    data: {
      projectId,
      sha256: sha,
      sizeBytes: BigInt(1),
      fileName: `${key}.mp4`,
      relativePath: `${model}/${key}.mp4`,
      storageKey: `k/${sha}`,
      contentType: "video/mp4",
      status: "ready",
      prompt,
      model,
      sampleIndex,
      dimensions: ["Diversity"],
      createdById: owner.userId,
    },
  });
  ids[key] = created.id;
  return created.id;
}

beforeAll(async () => {
  [owner, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: "Compare" })).id;
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  const prompt = "A dog catches a frisbee";
  await video("a2", prompt, "modelA", 2);
  await video("a0", prompt, "modelA", 0);
  await video("a1", prompt, "modelA", 1);
  await video("b0", prompt, "modelB", 0);
  await video("b1", prompt, "modelB", 1);
  await video("other", "A cat sleeps", "modelA", 0);
  await video("loose", null, "modelA", null);
  // A frame set for a0: its first key frame is the poster.
  const frameSet = await prisma.frameSet.create({
    data: {
      videoId: ids.a0!,
      identity: randomUUID(),
      parameters: {},
      mode: "uniform",
      frameCount: 3,
      keyFrameCount: 2,
      createdById: owner.userId,
    },
  });
  for (const [index, isKeyFrame] of [
    [0, false],
    [1, true],
    [2, true],
  ] as const) {
    await prisma.frame.create({
      data: {
        id: `poster-${frameSet.id}-${index}`,
        frameSetId: frameSet.id,
        index,
        timestampS: index,
        isKeyFrame,
        cluster: 1,
        storageKey: "x",
        sha256: "x",
        sizeBytes: 1,
        width: 1,
        height: 1,
      },
    });
  }
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "judge", baseUrl: "http://127.0.0.1:1/v1", model: "gpt-x", createdById: owner.userId },
  });
  oldRun = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
        createdAt: new Date("2024-01-01"),
        endpointSnapshot: { name: "judge", model: "gpt-old" },
      },
    })
  ).id;
  newRun = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
        createdAt: new Date("2024-02-01"),
        endpointSnapshot: { name: "judge", model: "gpt-new" },
      },
    })
  ).id;
  await createRunVideo(prisma, {
    runId: oldRun,
    videoId: ids.a0!,
    frameSetId: frameSet.id,
    status: "done",
    metrics: { overall: 20, verdict: true },
  });
  await createRunVideo(prisma, {
    runId: newRun,
    videoId: ids.a0!,
    frameSetId: frameSet.id,
    status: "done",
    metrics: { overall: 80, verdict: false },
  });
  // Reviewers' verdicts: two "yes" seen in the latest run, one "no" seen in the older run. Judgments
  // belong to the video's verdict, not to a run: all three count (majority yes).
  for (const [runId, value, reviewer] of [
    [newRun, 1, "r1"],
    [newRun, 1, "r2"],
    [oldRun, 0, "r3"],
  ] as const) {
    await insertJudgment(prisma, {
      projectId,
      targetType: "verdict",
      runId,
      videoId: ids.a0!,
      reviewerId: `${reviewer}-${randomUUID()}`,
      value,
    });
  }
});

describe("side by side samples of a prompt", () => {
  it("groups every sample of the prompt by model and sample index, with the latest run and the reviewers' consensus", async () => {
    const result = await compareSamples(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), {
      videoId: ids.a1,
    });
    expect(result.prompt).toBe("A dog catches a frisbee");
    expect(result.totalSamples).toBe(5);
    expect(result.models).toEqual(["modelA", "modelB"]);
    expect(result.sampleIndexes).toEqual([0, 1, 2]);
    expect(result.rows.map((row) => [row.model, row.cells.map((cell) => cell.map((s) => s.fileName))])).toEqual([
      ["modelA", [["a0.mp4"], ["a1.mp4"], ["a2.mp4"]]],
      ["modelB", [["b0.mp4"], ["b1.mp4"], []]],
    ]);
    const a0 = result.samples.find((s) => s.id === ids.a0)!;
    expect(a0.judge).toMatchObject({ runId: newRun, overall: 80, verdict: false });
    // The page labels the verdict in the run's task's words: its verdict metric's positive label, not a name it knows.
    expect(a0.judge!.verdictLabel).toBe("hallucination");
    expect(a0.reviewers).toEqual({ verdict: 1, count: 3 });
    expect(a0.posterUrl).toBe(
      `/api/v1/frames/poster-${(await prisma.frameSet.findFirstOrThrow({ where: { videoId: ids.a0 } })).id}-1/image`,
    );
    const b0 = result.samples.find((s) => s.id === ids.b0)!;
    expect(b0).toMatchObject({ judge: null, posterUrl: null, reviewers: { verdict: null, count: 0 } });
  });

  it("restricts to one model, and finds the samples by the prompt too", async () => {
    const onlyB = await compareSamples(prisma, await projectAccess(prisma, owner, projectId, "project.view"), {
      videoId: ids.a1,
      model: "modelB",
    });
    expect(onlyB.samples.map((s) => s.fileName)).toEqual(["b0.mp4", "b1.mp4"]);
    expect(onlyB.models).toEqual(["modelA", "modelB"]);
    expect(onlyB.totalSamples).toBe(5);
    const byPrompt = await compareSamples(prisma, await projectAccess(prisma, owner, projectId, "project.view"), {
      prompt: "A cat sleeps",
    });
    expect(byPrompt.samples.map((s) => s.fileName)).toEqual(["other.mp4"]);
    const noPrompt = await compareSamples(prisma, await projectAccess(prisma, owner, projectId, "project.view"), {
      videoId: ids.loose,
    });
    expect(noPrompt.samples.map((s) => s.fileName)).toEqual(["loose.mp4"]);
  });

  it("answers non-members and unknown videos or prompts with not found", async () => {
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      compareSamples(prisma, await projectAccess(prisma, owner, projectId, "project.view"), { videoId: "nope" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      compareSamples(prisma, await projectAccess(prisma, owner, projectId, "project.view"), { prompt: "never used" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const otherProject = (await createProject(prisma, stranger, { name: "Other" })).id;
    const otherAccess = await projectAccess(prisma, stranger, otherProject, "project.view");
    await expect(compareSamples(prisma, otherAccess, { videoId: ids.a1 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("counts the samples of a video's prompt for members only", async () => {
    const viewed = await projectAccess(prisma, viewer, projectId, "project.view");
    expect(await promptSampleCount(prisma, viewed, ids.a2!)).toBe(5);
    expect(await promptSampleCount(prisma, viewed, ids.loose!)).toBe(1);
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
    // A video of this project, asked through an access to another one, is not found.
    const elsewhere = (await createProject(prisma, stranger, { name: "Elsewhere" })).id;
    const strangers = await projectAccess(prisma, stranger, elsewhere, "project.view");
    await expect(promptSampleCount(prisma, strangers, ids.a2!)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("runs that judged a video", () => {
  it("lists them newest first with the endpoint snapshot, for members only", async () => {
    const runs = await videoRuns(prisma, await accessOfVideo(prisma, viewer, ids.a0!), ids.a0!);
    expect(runs.map((r) => [r.id, r.endpoint.model, r.overall])).toEqual([
      [newRun, "gpt-new", 80],
      [oldRun, "gpt-old", 20],
    ]);
    expect(await videoRuns(prisma, await accessOfVideo(prisma, viewer, ids.b0!), ids.b0!)).toEqual([]);
    await expect(accessOfVideo(prisma, stranger, ids.a0!)).rejects.toBeInstanceOf(NotFoundError);
  });
});
