/**
 * Issue 38 §3 on real PostgreSQL: aligning hallucination's categories on their own, per key frame (s3) and per
 * cluster (d2), against labels of each key frame or cluster, and saving the tuned threshold of a score target as a
 * version of the project's run defaults. The stub's SIM_VERDICT_RULES: a `[sim-verdict=1]` video's key frames score
 * 8–9 in s3, a `[sim-verdict=0]` one's 0–1, raised to 5–6 on `[sim-inflate]` videos (the shipped s3 ≥ 5 calls them
 * hallucinations, a threshold of 8 does not); every dynamic category is 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createLabelSet } from "../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { labelReadSpy } from "../../testkit/testing/label-read-spy";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { createRun } from "../judge/runs/runs";
import { listSettingsVersions } from "../judge/runs/settings-versions";
import {
  alignableTargets,
  alignBuiltinJudge,
  type BuiltinAlignmentInput,
  type BuiltinAlignmentReport,
} from "./align-builtin";
import { alignmentPageData } from "./alignment-page";
import { applyAlignedSettings, executeAlignment, getAlignment, startAlignment } from "./alignment-runs";
import { labelSetStore, unitVideo } from "./label-store";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const VIDEOS = 16;
const KEY_FRAMES = 2;
const hallucinates = (i: number) => i % 2 === 0;
const inflated = (i: number) => !hallucinates(i) && Math.floor(i / 2) % 2 === 0;

let stub: StubServer;
let owner: Actor;
let projectId: string;
let videoIds: string[];
let endpointId: string;
const labelSets: Record<string, string> = {};

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: KEY_FRAMES,
    name: "Per key frame alignment",
  }));
  videoIds.sort();
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({
      where: { id },
      data: {
        prompt: `A dog catches frisbee ${i} [sim-verdict=${hallucinates(i) ? 1 : 0}]${inflated(i) ? " [sim-inflate]" : ""}`,
      },
    });
  const frameSets = new Map(
    (await prisma.frameSet.findMany({ where: { videoId: { in: videoIds } }, select: { id: true, videoId: true } })).map(
      (s) => [s.videoId, s.id],
    ),
  );
  // One label per key frame (s3) and per cluster (d2): 8 where the video hallucinates, else 0.
  for (const [target, stepId] of [
    ["s3", "static_hallucination"],
    ["d2", "dynamic_hallucination"],
  ] as const) {
    const set = await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      {
        name: `Per ${target}`,
        format: "generic",
        fileName: `${target}.csv`,
        sha256: (target === "s3" ? "3" : "4").repeat(64),
        citation: "",
      },
      videoIds.flatMap((videoId, i) =>
        Array.from({ length: KEY_FRAMES }, (_, k) => ({
          target: {
            task: "hallucination",
            targetType: "score",
            target,
            videoId,
            itemId: "",
            stepId,
            scopeIndex: k,
            frameSetId: frameSets.get(videoId)!,
          },
          value: hallucinates(i) ? 8 : 0,
          annotator: null,
        })),
      ),
    );
    labelSets[target] = set.id;
  }
  endpointId = (await createStubEndpoint(prisma, owner, projectId, stub.baseURL)).id;
}, 120_000);
afterAll(async () => stub?.close());

const depsOf = (labels: ReturnType<typeof labelSetStore>) => ({
  prisma,
  queue: inlineJudgeQueue(testJudgeDeps()),
  pipelines: builtInCatalogue().pipelines,
  labels,
});
const inputOf = (targetId: string): BuiltinAlignmentInput => ({
  pipeline: "hallucination",
  targetId,
  judgeEndpointId: endpointId,
  optimizerEndpointId: endpointId,
  budget: { maxCalls: 5000, maxCostUsd: 10 },
  seed: 5,
  rewrites: 1,
});

describe("aligning a category per key frame or per cluster on its own", () => {
  it("offers s1–s10 per key frame and d1–d9 per cluster, each with its own step's template, as the task module declares", () => {
    const targets = alignableTargets(builtInCatalogue().pipelines, "hallucination");
    const s3 = targets.find((t) => t.target.id === "s3")!;
    expect(s3).toMatchObject({
      kind: "score",
      scope: "key_frame",
      valueStep: "static_hallucination",
      steps: [{ stepId: "static_hallucination", templateId: "hallucination/static-hallucination" }],
    });
    expect(targets.find((t) => t.target.id === "d2")).toMatchObject({
      scope: "cluster",
      valueStep: "dynamic_hallucination",
      steps: [{ templateId: "hallucination/dynamic-hallucination" }],
    });
    expect(targets.filter((t) => t.scope === "key_frame")).toHaveLength(10);
    expect(targets.filter((t) => t.scope === "cluster")).toHaveLength(9);
  });

  it("s3: labels per key frame, split by video, a tuned threshold fixes the inflated key frames on train and on held-out", async () => {
    const store = labelSetStore(
      prisma,
      { projectId, labelSetId: labelSets.s3!, task: "hallucination", target: "s3", scope: "key_frame" },
      (v) => v >= 5,
    );
    const runs = () => prisma.judgeRun.count({ where: { projectId } });
    const { spy, events } = labelReadSpy(store, runs);
    const report = await alignBuiltinJudge(
      depsOf(spy),
      await projectAccess(prisma, owner, projectId, "prompts.manage"),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { ...inputOf("s3"), fewShot: 2 },
    );
    expect(report.templateId).toBe("hallucination/static-hallucination");
    const baseline = report.candidates.find((c) => c.kind === "baseline")!;
    // Each train video's two key frames are compared: n counts key frames, not videos.
    expect(baseline.train.n).toBe(report.split.train.length * KEY_FRAMES);
    expect(baseline.train.kappa!).toBeLessThan(0.8);
    const best = report.candidates.find((c) => c.id === report.bestId)!;
    expect(best.kind).toBe("threshold");
    expect(best.threshold).toBe(8);
    expect(best.train.kappa).toBe(1);
    expect(report.heldOut!.best.n).toBe(report.split.heldOut.length * KEY_FRAMES);
    expect(report.heldOut!.best.kappa).toBe(1);
    expect(report.heldOut!.difference.kappa.lower!).toBeGreaterThan(0);
    // A target per key frame has no few-shot candidate yet, and says so.
    expect(report.skipped).toContain("few-shot: not offered yet for a target judged per key frame");
    // The held-out key frames' labels are read once, after every run.
    const heldOut = new Set(report.split.heldOut);
    const reads = events.filter((e) => e.method === "labels");
    expect(reads).toHaveLength(2);
    expect(reads[0]!.ids.filter((id) => heldOut.has(id))).toEqual([]);
    expect(reads[1]!.ids.every((id) => heldOut.has(id))).toBe(true);
    expect(reads[1]!.runsSoFar).toBe(await runs());
    // No video is on both sides.
    expect(report.split.train.filter((id) => heldOut.has(id))).toEqual([]);
  }, 300_000);

  it("d2: values and labels per cluster, the dynamic step's template is the one rewritten", async () => {
    const store = labelSetStore(
      prisma,
      { projectId, labelSetId: labelSets.d2!, task: "hallucination", target: "d2", scope: "cluster" },
      (v) => v >= 5,
    );
    const labels = await store.labels(videoIds);
    expect(labels.size).toBe(VIDEOS * KEY_FRAMES);
    expect(new Set([...labels.keys()].map(unitVideo)).size).toBe(VIDEOS);
    const report = await alignBuiltinJudge(
      depsOf(store),
      await projectAccess(prisma, owner, projectId, "prompts.manage"),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      inputOf("d2"),
    );
    expect(report).toMatchObject({
      templateId: "hallucination/dynamic-hallucination",
      stepId: "dynamic_hallucination",
      targetKind: "score",
    });
    const baseline = report.candidates.find((c) => c.kind === "baseline")!;
    expect(baseline.train.n).toBe(report.split.train.length * KEY_FRAMES);
    // The stub's dynamic judge answers 0 everywhere: it finds no hallucinating cluster, so agreement is only chance.
    expect(baseline.train.kappa ?? 0).toBeLessThanOrEqual(0);
    const values = await prisma.score.findMany({
      where: { runId: baseline.trainRunId, stepId: "dynamic_hallucination", category: "d2" },
      select: { scopeIndex: true },
    });
    expect(new Set(values.map((v) => v.scopeIndex))).toEqual(new Set([0, 1]));
    expect(report.heldOut!.baseline.n).toBe(report.split.heldOut.length * KEY_FRAMES);
  }, 300_000);

  it("saves s3's tuned threshold as a version of the run defaults: two applies, two versions, the older still readable, runs name theirs", async () => {
    const started = await startAlignment(
      prisma,
      { enqueue: async () => {} },
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      {
        pipeline: "hallucination",
        targetId: "s3",
        labels: { kind: "labelSet", id: labelSets.s3! },
        judgeEndpointId: endpointId,
        optimizerEndpointId: endpointId,
        maxCalls: 5000,
        maxCostUsd: 10,
        heldOutShare: 0.4,
        seed: 5,
        rewrites: 0,
      },
      builtInCatalogue().pipelines,
    );
    await executeAlignment(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      started.id,
    );
    const done = await getAlignment(prisma, await projectAccess(prisma, owner, projectId, "project.view"), started.id);
    expect(done.status).toBe("done");
    expect(
      (done.report as BuiltinAlignmentReport).candidates.find((c) => c.id === done.report!.bestId)!.threshold,
    ).toBe(8);

    // The report's page offers the tuned threshold as part of the defaults for new runs.
    const before = (
      await alignmentPageData(prisma, await projectAccess(prisma, owner, projectId, "project.view"), started.id)
    ).selected!.bestSettings!;
    expect(before).toMatchObject({ changed: true, applied: false, canApply: true });
    expect(before.words).toMatch(/s3 positive threshold 8$/);
    const first = await applyAlignedSettings(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      started.id,
      builtInCatalogue().pipelines,
    );
    expect(
      (await alignmentPageData(prisma, await projectAccess(prisma, owner, projectId, "project.view"), started.id))
        .selected!.bestSettings!.applied,
    ).toBe(true);
    expect(first).toMatchObject({
      number: 1,
      thresholds: { s3: 8 },
      alignmentRunId: started.id,
      createdById: owner.userId,
    });
    const run1 = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "hallucination",
        endpointId,
        videoIds: [videoIds[0]!],
      },
    );
    const second = await applyAlignedSettings(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      started.id,
      builtInCatalogue().pipelines,
    );
    expect(second.number).toBe(2);
    const run2 = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "hallucination",
        endpointId,
        videoIds: [videoIds[0]!],
      },
    );

    const versions = await listSettingsVersions(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      "hallucination",
    );
    expect(versions.map((v) => v.number)).toEqual([2, 1]);
    expect(versions[1]).toMatchObject({ id: first.id, thresholds: { s3: 8 }, alignmentRunId: started.id });
    const stored = await prisma.judgeRun.findMany({
      where: { id: { in: [run1.id, run2.id] } },
      select: { id: true, settingsVersionId: true },
    });
    expect(stored.find((r) => r.id === run1.id)!.settingsVersionId).toBe(first.id);
    expect(stored.find((r) => r.id === run2.id)!.settingsVersionId).toBe(second.id);
  }, 300_000);
});
