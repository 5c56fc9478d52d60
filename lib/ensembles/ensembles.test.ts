/**
 * Issue 26 items 1, 2 and their item-5 claims, on a real PostgreSQL through the stub's simulated judge
 * (testkit/llm-stub/sim-judge.ts): a rubric task whose one numeric criterion the test knows the truth of (each
 * video's prompt says `truth=<n>`), judged by noisy simulated judges.
 *  - self-consistency: the mean of 5 samples is closer to the truth than any single sample;
 *  - a panel of 3 independent noisy judges is closer to the truth than each of its judges;
 *  - the parent run's rows: combined scores, dispersion (n, SD, range, members' values and reasons), the unstable
 *    flag at the criterion's declared threshold, the pipeline's metrics of the combined scores;
 *  - members ask at the sample temperature under their own cache salts; parent and members cancel together.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { Prisma } from "../generated/prisma/client";
import { NotFoundError, ValidationError } from "../errors";
import { createRunSchema } from "../judge/runs/run-input.validation";
import { cancelRun, createRun, getRunStatus } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { createRubricTask } from "../rubrics/rubric-tasks";
import { rubricMetricId, rubricTargetId } from "../rubrics/rubric-declaration";
import { meanAbsoluteError } from "../stats/error-metrics";
import { spearman } from "../stats/correlation";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { insertJudgment } from "../../testkit/testing/judgments";
import { createQueue } from "../queues/create-queue";
import { itemTargets } from "../queues/item-targets";
import { browseVideos } from "../videos/browse-videos";
import { videoListQuerySchema, type VideoListQuery } from "../videos/video-filter";
import { combineEnsembleWhenDone, createEnsembleRun } from "./ensemble-runs";
import { ensembleRunReport, videoEnsembleValues } from "./ensemble-report";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { accessOfRun } from "../../testkit/testing/record-access";

const VIDEOS = 40;
const RUBRIC = JSON.stringify({
  name: "Simulated quality",
  description: "A criterion whose truth the test knows.",
  guidelines: "Judge the quality.",
  subject: { kind: "video" },
  frames: { mode: "key_frames" },
  criteria: [
    {
      id: "quality",
      name: "Quality",
      type: "numeric",
      min: 0,
      max: 10,
      step: 1,
      definition: "0 worst, 10 best.",
      unstableAt: 1.5,
    },
    { id: "sharp", name: "Sharp", type: "boolean", definition: "Is it sharp?" },
  ],
  prompt: 'Video prompt: "{{prompt}}"\n\nThe images are {{frames}}\n\n{{guidelines}}\n\n{{criteria}}',
  reasons: true,
});

let stub: StubServer;
let owner: Actor;
let projectId: string;
let videoIds: string[];
let pipeline: string;
let targetId: string;
const truth = new Map<string, number>();

/** A seeded sequence of truths on 1..9 (so noise rarely meets the scale's ends). */
function seededTruths(n: number, seed: number) {
  let state = seed;
  return Array.from({ length: n }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return 1 + (state % 9);
  });
}

async function simJudge(name: string, model: string) {
  return createStubEndpoint(prisma, owner, projectId, stub.baseURL, model, {
    name,
    maxConcurrency: 8,
    pricePer1kInput: 0.001,
    pricePer1kOutput: 0.002,
  });
}

const deps = () => ({
  prisma,
  queue: inlineJudgeQueue(testJudgeDeps()),
  pipelines: builtInCatalogue().pipelines,
  startEnsemble: createEnsembleRun,
});

async function scoresOf(runId: string) {
  const rows = await prisma.score.findMany({
    where: { runId, category: targetId },
    select: { videoId: true, value: true },
  });
  expect(rows).toHaveLength(VIDEOS);
  const byVideo = new Map(rows.map((r) => [r.videoId, r.value]));
  const predicted = Float64Array.from(videoIds.map((id) => byVideo.get(id)!));
  const actual = Float64Array.from(videoIds.map((id) => truth.get(id)!));
  return { byVideo, mae: meanAbsoluteError(predicted, actual)!, rho: spearman(predicted, actual)! };
}

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  const project = await projectWithFramedVideos(prisma, owner, { videoCount: VIDEOS, keyFrames: 1, name: "Ensembles" });
  projectId = project.projectId;
  videoIds = project.videoIds;
  const truths = seededTruths(VIDEOS, 26);
  for (const [i, videoId] of videoIds.entries()) {
    truth.set(videoId, truths[i]!);
    await prisma.video.update({
      where: { id: videoId },
      data: { prompt: `A ball rolls down ramp ${i}, truth=${truths[i]}` },
    });
  }
  const created = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    file: RUBRIC,
  });
  pipeline = created.pipeline;
  targetId = rubricTargetId(created.key, "quality");
}, 300_000);
afterAll(async () => stub?.close());

describe("self-consistency: samples N at temperature T", () => {
  let parentId: string;
  let memberIds: string[];

  beforeAll(async () => {
    const endpoint = await simJudge("sampler", "stub-sim-judge?noise=1.5&bias=0&seed=3");
    const run = await createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline,
      endpointId: endpoint.id,
      ensemble: { kind: "samples", samples: 5, temperature: 0.7 },
    });
    parentId = run.id;
    memberIds = (run as { members: string[] }).members;
  }, 300_000);

  it("the mean of 5 samples agrees with the truth better than any one sample (MAE and Spearman over 40 videos)", async () => {
    expect(memberIds).toHaveLength(5);
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, parentId), parentId)).status).toBe("done");
    const combined = await scoresOf(parentId);
    for (const memberId of memberIds) {
      const single = await scoresOf(memberId);
      expect(combined.mae).toBeLessThan(single.mae);
      expect(combined.rho).toBeGreaterThan(single.rho);
    }
    // Not a rounding accident: averaging 5 draws of SD 1.5 leaves well under the single sample's error.
    expect(combined.mae).toBeLessThan(0.8);
  });

  it("each sample asks at the sample temperature under its own cache key, and stores every sample", async () => {
    const calls = await prisma.llmCall.findMany({
      where: { runId: { in: memberIds } },
      select: { runId: true, request: true, cached: true },
    });
    expect(calls).toHaveLength(5 * VIDEOS);
    expect(calls.every((c) => !c.cached && (c.request as { temperature: number }).temperature === 0.7)).toBe(true);
    const members = await prisma.judgeRun.findMany({
      where: { parentRunId: parentId },
      orderBy: { memberIndex: "asc" },
      select: { memberIndex: true, sampling: true },
    });
    expect(members.map((m) => m.sampling)).toEqual(
      [0, 1, 2, 3, 4].map((i) => ({ temperature: 0.7, salt: `sample-${i}` })),
    );
    // No call was made for the parent: it only combines.
    expect(await prisma.llmCall.count({ where: { runId: parentId } })).toBe(0);
  });

  it("writes the combined score (the declared mean), its dispersion, the unstable flag at the criterion's threshold, and metrics of the combined scores", async () => {
    const dispersions = await prisma.scoreDispersion.findMany({ where: { runId: parentId, category: targetId } });
    expect(dispersions).toHaveLength(VIDEOS);
    const memberScores = await prisma.score.findMany({ where: { runId: { in: memberIds }, category: targetId } });
    const parentScores = await prisma.score.findMany({ where: { runId: parentId, category: targetId } });
    const metrics = await prisma.runMetric.findMany({ where: { runId: parentId } });
    const metricId = rubricMetricId(Number(targetId.slice(1, targetId.indexOf("_"))), "quality");
    let unstable = 0;
    for (const d of dispersions) {
      const values = memberIds.map((id) => memberScores.find((s) => s.runId === id && s.videoId === d.videoId)!.value);
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
      expect(d.n).toBe(5);
      expect(d.value).toBeCloseTo(mean);
      expect(d.sd).toBeCloseTo(sd);
      expect(d.range).toBe(Math.max(...values) - Math.min(...values));
      expect(d.entropy).toBeNull();
      expect(d.unstable).toBe(sd >= 1.5);
      if (d.unstable) unstable++;
      const members = d.members as { memberIndex: number; runId: string; value: number; reason: string | null }[];
      expect(members.map((m) => m.value)).toEqual(values);
      expect(members.every((m) => typeof m.reason === "string" && m.reason.length > 0)).toBe(true);
      expect(parentScores.find((s) => s.videoId === d.videoId)!.value).toBeCloseTo(mean);
      expect(metrics.find((m) => m.videoId === d.videoId && m.metric === metricId)!.value).toBeCloseTo(mean);
    }
    // Noise of SD 1.5 makes some samples spread past 1.5 and some not: the flag tells them apart.
    expect(unstable).toBeGreaterThan(0);
    expect(unstable).toBeLessThan(VIDEOS);
    // A yes/no criterion is combined by majority, with its entropy.
    const sharp = await prisma.scoreDispersion.findMany({ where: { runId: parentId, category: { not: targetId } } });
    expect(sharp).toHaveLength(VIDEOS);
    for (const d of sharp) {
      const values = (d.members as { value: number }[]).map((m) => m.value);
      const ones = values.filter((v) => v === 1).length;
      expect(d.value).toBe(ones >= 3 ? 1 : 0);
      expect(d.entropy).not.toBeNull();
    }
  });

  it("the run report shows each sample's cost and calls, and the samples' agreement per target", async () => {
    const report = (await ensembleRunReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      parentId,
    ))!;
    expect(report.kind).toBe("samples");
    expect(report.members.map((m) => m.runId)).toEqual(memberIds);
    for (const m of report.members) {
      expect(m.calls).toBe(VIDEOS);
      expect(m.temperature).toBe(0.7);
      expect(m.costUsd).toBeGreaterThan(0);
    }
    expect(report.costUsd).toBeCloseTo(report.members.reduce((s, m) => s + m.costUsd!, 0));
    const quality = report.targets.find((t) => t.target === targetId)!;
    expect(quality.scores).toBe(VIDEOS);
    // Samples of one noisy judge agree well above chance (the truths spread far more than the noise).
    expect(quality.alpha).toBeGreaterThan(0.4);
    expect(quality.alpha).toBeLessThan(1);
    const video = (await videoEnsembleValues(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      parentId,
      videoIds[0]!,
    ))!;
    expect(video.scores.find((s) => s.category === targetId)!.members).toHaveLength(5);
  });

  it("finds no ensemble run of another project through an access to that project", async () => {
    const other = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Not the ensemble's",
    });
    const elsewhere = await projectAccess(prisma, owner, other.projectId, "project.view");
    await expect(ensembleRunReport(prisma, elsewhere, parentId)).rejects.toThrow("No such run.");
    await expect(videoEnsembleValues(prisma, elsewhere, parentId, videoIds[0]!)).rejects.toThrow("No such run.");
  });

  it("the video list filters unstable=1 (optionally of one target) and sorts by dispersion; the latest run is the ensemble, not a sample", async () => {
    const catalogue = await catalogFor(prisma, projectId);
    const query = (extra: Record<string, string>) =>
      videoListQuerySchema(catalogue).parse({ runId: parentId, pageSize: "100", ...extra }) as VideoListQuery;
    const unstable = (
      await prisma.scoreDispersion.findMany({
        where: { runId: parentId, unstable: true },
        select: { videoId: true, category: true },
      })
    ).map((d) => d);
    const listed = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      query({ unstable: "1" }),
    );
    expect(new Set(listed.videos.map((v) => v.id))).toEqual(new Set(unstable.map((d) => d.videoId)));
    const ofQuality = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      query({ unstable: "1", category: targetId }),
    );
    expect(new Set(ofQuality.videos.map((v) => v.id))).toEqual(
      new Set(unstable.filter((d) => d.category === targetId).map((d) => d.videoId)),
    );
    expect(ofQuality.videos.length).toBeGreaterThan(0);
    expect(ofQuality.videos.length).toBeLessThan(VIDEOS);
    expect(videoListQuerySchema(catalogue).safeParse({ unstable: "yes" }).success).toBe(false);

    // Most spread first: the largest SD (or entropy) over its target's threshold.
    const sorted = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      query({ sort: "dispersion", dir: "desc" }),
    );
    const rows = await prisma.scoreDispersion.findMany({ where: { runId: parentId } });
    const spreadOf = (videoId: string) =>
      Math.max(
        ...rows
          .filter((r) => r.videoId === videoId)
          .map((r) => (r.entropy ?? r.sd) / (r.category === targetId ? 1.5 : 0.8)),
      );
    const spreads = sorted.videos.map((v) => spreadOf(v.id));
    expect(spreads).toHaveLength(VIDEOS);
    for (let i = 1; i < spreads.length; i++) expect(spreads[i - 1]!).toBeGreaterThanOrEqual(spreads[i]! - 1e-9);
    expect(spreads[0]!).toBeGreaterThan(spreads[spreads.length - 1]!);

    const latest = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(catalogue).parse({ pageSize: "1" }) as VideoListQuery,
    );
    expect(latest.run?.id).toBe(parentId);
  });

  it("a review queue of unstable targets holds the videos with an unstable score and asks only for those scores", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Unstable",
      runId: parentId,
      scope: "unstable",
      categories: [targetId],
    });
    const unstable = await prisma.scoreDispersion.findMany({
      where: { runId: parentId, unstable: true, category: targetId },
      select: { videoId: true },
    });
    const items = await prisma.reviewQueueItem.findMany({ where: { queueId: queue.id }, select: { videoId: true } });
    expect(new Set(items.map((i) => i.videoId))).toEqual(new Set(unstable.map((u) => u.videoId)));
    const stored = await prisma.reviewQueue.findUniqueOrThrow({ where: { id: queue.id } });
    const targets = await itemTargets(prisma, stored, items[0]!.videoId);
    expect(targets.map((t) => t.category)).toEqual([targetId]);
    // A video's unstable yes/no value is not asked in a queue of the quality criterion only; the queue of every category asks it.
    const everything = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Unstable, all",
      runId: parentId,
      scope: "unstable",
    });
    const all = await prisma.reviewQueue.findUniqueOrThrow({ where: { id: everything.id } });
    const allUnstable = await prisma.scoreDispersion.findMany({ where: { runId: parentId, unstable: true } });
    const videoId = allUnstable[0]!.videoId;
    expect((await itemTargets(prisma, all, videoId)).map((t) => t.category).sort()).toEqual(
      allUnstable
        .filter((d) => d.videoId === videoId)
        .map((d) => d.category)
        .sort(),
    );
    // A plain run has no unstable scores to review.
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "Plain",
        runId: memberIds[0]!,
        scope: "unstable",
      }),
    ).rejects.toThrow(/ensemble run/);
  });

  it("combining again changes nothing (idempotent: the parent is done)", async () => {
    const before = await prisma.score.findMany({ where: { runId: parentId }, orderBy: { id: "asc" } });
    expect(await combineEnsembleWhenDone(prisma, builtInCatalogue().pipelines, parentId)).toBe(false);
    expect(await prisma.score.findMany({ where: { runId: parentId }, orderBy: { id: "asc" } })).toEqual(before);
  });
});

describe("a judge panel", () => {
  it("a panel of 3 independent noisy judges agrees with the truth better than each of its judges, also by the people's labels", async () => {
    const judges = await Promise.all(
      [1, 2, 3].map((seed) => simJudge(`judge ${seed}`, `stub-sim-judge?noise=1.5&bias=0&seed=${10 + seed}`)),
    );
    const run = await createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline,
      endpointId: judges[0]!.id,
      ensemble: { kind: "panel", endpointIds: judges.map((j) => j.id), combine: "mean" },
    });
    const members = (run as { members: string[] }).members;
    const panel = await scoresOf(run.id);
    for (const memberId of members) {
      const single = await scoresOf(memberId);
      expect(panel.mae).toBeLessThan(single.mae);
      expect(panel.rho).toBeGreaterThan(single.rho);
    }
    // People label 30 of the videos with their truth: each judge's agreement with them, beside the panel's.
    const scored = await prisma.scoreDispersion.findMany({
      where: { runId: run.id, category: targetId },
      select: { videoId: true, stepId: true, scopeIndex: true },
    });
    const labelled = scored.slice(0, 30);
    for (const s of labelled) {
      await insertJudgment(prisma, {
        projectId,
        reviewerId: owner.userId,
        task: pipeline,
        targetType: "score",
        target: targetId,
        videoId: s.videoId,
        stepId: s.stepId,
        scopeIndex: s.scopeIndex,
        value: truth.get(s.videoId)!,
      });
    }
    const report = (await ensembleRunReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      run.id,
    ))!;
    expect(report.kind).toBe("panel");
    expect(report.members.map((m) => m.endpoint.name)).toEqual(["judge 1", "judge 2", "judge 3"]);
    const quality = report.targets.find((t) => t.target === targetId)!;
    expect(quality.alpha).toBeGreaterThan(0.4);
    expect(quality.humans.combined.pairs).toBe(30);
    expect(quality.humans.members).toHaveLength(3);
    const truthMae = (memberId: string | null) => {
      const values = labelled.map((s) => {
        const given = memberId === null ? panel.byVideo.get(s.videoId)! : memberScores.get(memberId)!.get(s.videoId)!;
        return Math.abs(given - truth.get(s.videoId)!);
      });
      return values.reduce((a, b) => a + b, 0) / values.length;
    };
    const memberScores = new Map(
      await Promise.all(members.map(async (id) => [id, (await scoresOf(id)).byVideo] as const)),
    );
    expect(quality.humans.combined.mae).toBeCloseTo(truthMae(null));
    for (const [index, m] of quality.humans.members.entries()) {
      expect(m.pairs).toBe(30);
      expect(m.mae).toBeCloseTo(truthMae(members[index]!));
      expect(quality.humans.combined.alpha!).toBeGreaterThan(m.alpha!);
    }
    // A member reviewing one of the labelled videos in a blind queue reads the same numbers: the report is computed
    // from every video, whoever looks.
    const blindReviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: blindReviewer.userId, role: "reviewer" } });
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Panel blind",
        runId: run.id,
        scope: "scores",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: labelled[0]!.videoId, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: blindReviewer.userId },
    });
    expect(
      await ensembleRunReport(prisma, await projectAccess(prisma, blindReviewer, projectId, "project.view"), run.id),
    ).toEqual(report);
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
  }, 300_000);

  it("combines by minimum: the least favourable value of the judges", { timeout: 300_000 }, async () => {
    const judges = await Promise.all(
      [4, 5].map((seed) => simJudge(`strict ${seed}`, `stub-sim-judge?noise=2&bias=0&seed=${10 + seed}`)),
    );
    const run = await createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline,
      endpointId: judges[1]!.id,
      ensemble: { kind: "panel", endpointIds: judges.map((j) => j.id), combine: "minimum" },
    });
    const dispersions = await prisma.scoreDispersion.findMany({ where: { runId: run.id, category: targetId } });
    expect(dispersions).toHaveLength(VIDEOS);
    for (const d of dispersions)
      expect(d.value).toBe(Math.min(...(d.members as { value: number }[]).map((m) => m.value)));
  });

  it("refuses a panel of one, more than five, repeated endpoints, or an endpoint of another project, saving nothing", async () => {
    const catalogue = await catalogFor(prisma, projectId);
    const base = { pipeline, endpointId: "e1" };
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "panel", endpointIds: ["e1"], combine: "mean" },
      }).success,
    ).toBe(false);
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "panel", endpointIds: ["a", "b", "c", "d", "e", "f"], combine: "mean" },
      }).success,
    ).toBe(false);
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "panel", endpointIds: ["e1", "e1"], combine: "mean" },
      }).success,
    ).toBe(false);
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "panel", endpointIds: ["e1", "e2"], combine: "median" },
      }).success,
    ).toBe(false);
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "samples", samples: 11, temperature: 0.7 },
      }).success,
    ).toBe(false);
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "samples", samples: 0, temperature: 0.7 },
      }).success,
    ).toBe(false);
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "samples", samples: 3, temperature: 3 },
      }).success,
    ).toBe(false);
    expect(
      createRunSchema(catalogue).safeParse({
        ...base,
        ensemble: { kind: "samples", samples: 3, temperature: 1 },
      }).success,
    ).toBe(true);

    const mine = await simJudge("mine", "stub-sim-judge?seed=1");
    const elsewhere = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Elsewhere" });
    const theirs = await createStubEndpoint(prisma, owner, elsewhere.projectId, stub.baseURL, "stub-vision", {
      name: "theirs",
      maxConcurrency: 1,
    });
    const runsBefore = await prisma.judgeRun.count({ where: { projectId } });
    await expect(
      createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline,
        endpointId: mine.id,
        ensemble: { kind: "panel", endpointIds: [mine.id, theirs.id], combine: "mean" },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const other = await simJudge("other", "stub-sim-judge?seed=2");
    await expect(
      createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline,
        endpointId: mine.id,
        ensemble: { kind: "panel", endpointIds: [other.id, theirs.id], combine: "mean" },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    // A member that fails after the first was created (an archived endpoint) rolls every run back.
    await prisma.judgeEndpoint.update({ where: { id: other.id }, data: { archivedAt: new Date() } });
    await expect(
      createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline,
        endpointId: mine.id,
        ensemble: { kind: "panel", endpointIds: [mine.id, other.id], combine: "mean" },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(runsBefore);
  });
});

describe("a built-in task", () => {
  it(
    "an ensemble of the hallucination pipeline is combined by its declarations: every scope's score, the pipeline's metrics of the combined scores",
    { timeout: 300_000 },
    async () => {
      const small = await projectWithFramedVideos(prisma, owner, {
        videoCount: 2,
        keyFrames: 2,
        name: "Ensemble of a built-in task",
      });
      const endpoint = await createStubEndpoint(prisma, owner, small.projectId, stub.baseURL);
      const run = await createRun(deps(), await projectAccess(prisma, owner, small.projectId, "runs.manage"), {
        pipeline: "hallucination",
        endpointId: endpoint.id,
        ensemble: { kind: "samples", samples: 2, temperature: 0.7 },
      });
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).status).toBe("done");
      const [first] = (run as { members: string[] }).members;
      const memberScores = await prisma.score.findMany({
        where: { runId: first },
        orderBy: [{ videoId: "asc" }, { stepId: "asc" }, { scopeIndex: "asc" }, { category: "asc" }],
      });
      const parentScores = await prisma.score.findMany({
        where: { runId: run.id },
        orderBy: [{ videoId: "asc" }, { stepId: "asc" }, { scopeIndex: "asc" }, { category: "asc" }],
      });
      expect(memberScores.length).toBeGreaterThan(2);
      // Every score of every key frame's step has its combined score and dispersion.
      expect(parentScores.map((s) => [s.videoId, s.stepId, s.scopeIndex, s.category])).toEqual(
        memberScores.map((s) => [s.videoId, s.stepId, s.scopeIndex, s.category]),
      );
      expect(await prisma.scoreDispersion.count({ where: { runId: run.id } })).toBe(parentScores.length);
      // The pipeline's own per-video metrics (S, D, I, overall, verdict) exist for the ensemble, from the combined scores.
      const metrics = await prisma.runMetric.findMany({
        where: { runId: run.id, metric: { in: ["overall", "verdict"] } },
      });
      expect(metrics).toHaveLength(4);
      expect(
        await prisma.runVideo.count({ where: { runId: run.id, status: "done", summary: { not: Prisma.DbNull } } }),
      ).toBe(2);
    },
  );
});

describe("members and the parent cancel together", () => {
  it("cancelling the parent cancels every member, and cancelling a member cancels the parent and its siblings", async () => {
    const endpoint = await simJudge("idle sampler", "stub-sim-judge?noise=1&seed=9");
    const idle = {
      prisma,
      queue: { enqueue: async () => {} },
      pipelines: builtInCatalogue().pipelines,
      startEnsemble: createEnsembleRun,
    };
    const first = await createRun(idle, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline,
      endpointId: endpoint.id,
      ensemble: { kind: "samples", samples: 3, temperature: 1 },
    });
    await cancelRun(prisma, await accessOfRun(prisma, owner, first.id, "runs.manage"), first.id);
    const family = await prisma.judgeRun.findMany({
      where: { OR: [{ id: first.id }, { parentRunId: first.id }] },
      select: { status: true },
    });
    expect(family.map((r) => r.status)).toEqual(["cancelled", "cancelled", "cancelled", "cancelled"]);
    expect(
      await prisma.runVideo.count({ where: { run: { parentRunId: first.id }, status: { not: "cancelled" } } }),
    ).toBe(0);

    const second = await createRun(idle, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline,
      endpointId: endpoint.id,
      ensemble: { kind: "samples", samples: 2, temperature: 1 },
    });
    const memberId = (second as { members: string[] }).members[1]!;
    await cancelRun(prisma, await accessOfRun(prisma, owner, memberId, "runs.manage"), memberId);
    const statuses = await prisma.judgeRun.findMany({
      where: { OR: [{ id: second.id }, { parentRunId: second.id }] },
      select: { status: true },
    });
    expect(statuses.map((r) => r.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    // A cancelled ensemble is never combined.
    expect(await combineEnsembleWhenDone(prisma, builtInCatalogue().pipelines, second.id)).toBe(false);
  });
});
