/**
 * Issue 26 items 4 and 5 for a built-in task's REVIEWED METRIC: aligning hallucination's verdict to a label set,
 * on a seeded simulation with known truth (SIM_VERDICT_RULES). The stub judge raises every static category by 5 on
 * videos tagged `[sim-inflate]` that do not hallucinate, so the shipped verdict (the worst score at 5 or more) calls
 * them hallucinations. Settings tuned on train (the verdict's basis, threshold and the aggregation, tried on the
 * stored answers without a call) undo it; the held-out runs confirm it. Every run goes through createRun on real
 * PostgreSQL; the chosen settings become the project's defaults for new runs when an owner applies them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ForbiddenError } from "../errors";
import { createLabelSet } from "../label-sets/label-sets";
import { metricsUnderSettings, storedVideoAnswers } from "../judge/engine/resummarise";
import { projectPipelineDefaults } from "../judge/runs/pipeline-defaults";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { alignBuiltinJudge, type BuiltinAlignmentInput, type BuiltinAlignmentReport } from "./align-builtin";
import { alignmentPageData } from "./alignment-page";
import type { AlignmentDeps } from "./align-judge";
import { applyAlignedSettings, executeAlignment, getAlignment, startAlignment } from "./alignment-runs";
import { startAlignmentSchema } from "./alignment.validation";
import { labelSetStore, type AlignmentLabelStore } from "./label-store";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const VIDEOS = 60;
const hallucinates = (i: number) => i % 2 === 0;
// Half the videos that do not hallucinate carry what the biased judge overrates.
const inflated = (i: number) => !hallucinates(i) && Math.floor(i / 2) % 2 === 0;

let stub: StubServer;
let owner: Actor;

interface Setup {
  projectId: string;
  videoIds: string[];
  labelSetId: string;
  store: AlignmentLabelStore;
  endpointId: string;
}

async function setUp(withBias: boolean): Promise<Setup> {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: 1,
    name: "Verdict alignment",
  });
  videoIds.sort();
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({
      where: { id },
      data: {
        prompt: `A cat jumps onto table ${i} [sim-verdict=${hallucinates(i) ? 1 : 0}]${withBias && inflated(i) ? " [sim-inflate]" : ""}`,
      },
    });
  const labelSet = await createLabelSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { name: "Verdicts", format: "generic", fileName: "verdicts.csv", sha256: "1".repeat(64), citation: "" },
    videoIds.map((videoId, i) => ({
      target: {
        task: "hallucination",
        targetType: "verdict",
        target: "verdict",
        videoId,
        itemId: "",
        stepId: "",
        scopeIndex: 0,
        frameSetId: "",
      },
      value: hallucinates(i) ? 1 : 0,
      annotator: null,
    })),
  );
  const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
  const store = labelSetStore(
    prisma,
    { projectId, labelSetId: labelSet.id, task: "hallucination", target: "verdict", targetType: "verdict" },
    (v) => v === 1,
  );
  return { projectId, videoIds, labelSetId: labelSet.id, store, endpointId: endpoint.id };
}

const depsOf = (labels: AlignmentLabelStore): AlignmentDeps => ({
  prisma,
  queue: inlineJudgeQueue(testJudgeDeps()),
  pipelines: builtInCatalogue().pipelines,
  labels,
});
const inputOf = (setup: Setup): BuiltinAlignmentInput => ({
  pipeline: "hallucination",
  targetId: "verdict",
  rewriteStepId: "static_hallucination",
  judgeEndpointId: setup.endpointId,
  optimizerEndpointId: setup.endpointId,
  budget: { maxCalls: 5000, maxCostUsd: 10 },
  seed: 3,
  rewrites: 1,
});

let biased: Setup;
let unbiased: Setup;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  biased = await setUp(true);
  unbiased = await setUp(false);
}, 120_000);
afterAll(async () => stub?.close());

describe("aligning a built-in task's reviewed metric (hallucination's verdict)", () => {
  let report: BuiltinAlignmentReport;

  it("tunes the verdict's settings on train without a call and confirms the gain on held-out, significantly", async () => {
    const callsBefore = await prisma.llmCall.count({ where: { run: { projectId: biased.projectId }, cached: false } });
    report = await alignBuiltinJudge(
      depsOf(biased.store),
      await projectAccess(prisma, owner, biased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
      inputOf(biased),
    );
    expect(report.targetKind).toBe("metric");
    expect(report.templateId).toBe("hallucination/static-hallucination");
    const baseline = report.candidates.find((c) => c.kind === "baseline")!;
    // The shipped verdict calls every inflated video a hallucination: κ well below 1 on train.
    expect(baseline.train.kappa!).toBeLessThan(0.8);
    expect(baseline.settings).toEqual({ aggregation: "mean-max", verdict: { on: "max_category", threshold: 5 } });
    const tuned = report.candidates.find((c) => c.kind === "settings")!;
    expect(tuned.trainRunId).toBe(baseline.trainRunId);
    expect(tuned.promptVersionId).toBeNull();
    expect(tuned.train.kappa).toBe(1);
    // A threshold between the inflated 5–6 and the true 8–9 (on the worst category, or its overall equivalent).
    const verdict = (tuned.settings as { verdict: { on: string; threshold: number } }).verdict;
    if (verdict.on === "max_category") expect([7, 8]).toContain(verdict.threshold);
    expect(tuned.note).toMatch(/^c1 summarised with aggregation .*, verdict\.on .*, verdict\.threshold \d+$/);
    // The earliest of equals is kept: the settings candidate before the rewrite (which also fixes it).
    expect(report.bestId).toBe(tuned.id);
    const held = report.heldOut!;
    expect(held.baseline.n).toBe(report.split.heldOut.length);
    expect(held.best.kappa).toBe(1);
    expect(held.difference.kappa.lower!).toBeGreaterThan(0);
    expect(held.difference.kappa.p!).toBeLessThan(0.05);
    // The best's held-out run is a real run with the tuned settings; its answers all came from the baseline's cache.
    const bestRun = await prisma.judgeRun.findUniqueOrThrow({
      where: { id: held.bestRunId },
      select: { settings: true },
    });
    expect(bestRun.settings).toEqual(tuned.settings);
    expect(await prisma.llmCall.count({ where: { runId: held.bestRunId, cached: false } })).toBe(0);
    const spent =
      (await prisma.llmCall.count({ where: { run: { projectId: biased.projectId }, cached: false } })) - callsBefore;
    // Every call made: the runs' plus the one optimizer call (made through the stub server, not stored as a run's).
    expect(report.calls).toBe(spent + 1);
  }, 300_000);

  it("summarises stored answers exactly as a run with those settings stores them", async () => {
    const held = report.heldOut!;
    const tuned = report.candidates.find((c) => c.id === report.bestId)!;
    for (const videoId of report.split.heldOut.slice(0, 6)) {
      const stored = await storedVideoAnswers(prisma, held.baselineRunId, videoId);
      const metric = await prisma.runMetric.findUnique({
        where: { runId_videoId_itemId_metric: { runId: held.bestRunId, videoId, itemId: "", metric: "verdict" } },
      });
      expect(metricsUnderSettings(builtInCatalogue().pipelines.hallucination!, stored!, tuned.settings).verdict).toBe(
        metric!.value,
      );
    }
  });

  it("rewrites the chosen step's template from the train disagreements: the rewrite carries the fix", async () => {
    const rewrite = report.candidates.find((c) => c.kind === "rewrite")!;
    expect(rewrite.body).toContain("Compression artefacts are not defects.");
    expect(rewrite.train.kappa).toBe(1);
    const version = await prisma.promptVersion.findUniqueOrThrow({ where: { id: rewrite.promptVersionId! } });
    expect(version).toMatchObject({ templateId: "hallucination/static-hallucination", note: "alignment candidate" });
  });

  it("does not 'improve' a judge without the bias: the baseline stays best, and the held-out difference is not significant", async () => {
    const plain = await alignBuiltinJudge(
      depsOf(unbiased.store),
      await projectAccess(prisma, owner, unbiased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, unbiased.projectId, "runs.manage"),
      inputOf(unbiased),
    );
    expect(plain.candidates.find((c) => c.kind === "baseline")!.train.kappa).toBe(1);
    expect(plain.candidates.filter((c) => c.kind === "settings")).toEqual([]);
    expect(plain.candidates.find((c) => c.id === plain.bestId)!.kind).toBe("baseline");
    expect(plain.heldOut!.difference.kappa.p!).toBeGreaterThanOrEqual(0.05);
  }, 300_000);

  it("skips few-shot for a metric, with its reason: a verdict is no one step's answer to show as an example", async () => {
    // Not asked for (a metric's default): no few-shot candidate and nothing said.
    expect(report.skipped.filter((s) => s.startsWith("few-shot"))).toEqual([]);
    const progress: [number, number][] = [];
    const asked = await alignBuiltinJudge(
      { ...depsOf(unbiased.store), onProgress: (done, total) => void progress.push([done, total]) },
      await projectAccess(prisma, owner, unbiased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, unbiased.projectId, "runs.manage"),
      {
        ...inputOf(unbiased),
        rewrites: 0,
        fewShot: 4,
      },
    );
    expect(asked.skipped).toContain("few-shot: a metric's label is not an answer of one step");
    expect(asked.candidates.filter((c) => c.kind === "fewshot")).toEqual([]);
    expect(progress.map(([, total]) => total)).toEqual([3, 3, 3]);
  }, 300_000);

  it("as a job: an owner applies the chosen settings as the project's defaults for new runs; a reviewer may not", async () => {
    const body = startAlignmentSchema.parse({
      pipeline: "hallucination",
      targetId: "verdict",
      rewriteStepId: "static_hallucination",
      labels: { kind: "labelSet", id: biased.labelSetId },
      judgeEndpointId: biased.endpointId,
      optimizerEndpointId: biased.endpointId,
      maxCalls: 5000,
      maxCostUsd: 10,
      seed: 3,
      rewrites: 1,
    });
    const started = await startAlignment(
      prisma,
      { enqueue: async () => {} },
      await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
      body,
      builtInCatalogue().pipelines,
    );
    await executeAlignment(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      started.id,
    );
    const done = await getAlignment(
      prisma,
      await projectAccess(prisma, owner, biased.projectId, "project.view"),
      started.id,
    );
    expect(done.status).toBe("done");
    const doneReport = done.report as BuiltinAlignmentReport;
    const best = doneReport.candidates.find((c) => c.id === doneReport.bestId)!;
    expect(best.kind).toBe("settings");
    // A settings candidate renders the shipped templates: no prompt version to link.
    expect(done.promptVersionId).toBeNull();
    const reviewer = await makeUser();
    await prisma.projectMember.create({
      data: { projectId: biased.projectId, userId: reviewer.userId, role: "reviewer" },
    });
    await expect(projectAccess(prisma, reviewer, biased.projectId, "runs.manage")).rejects.toThrow(ForbiddenError);
    // The report's page: the settings in words (in the schema's key order, though jsonb stores its own), not yet applied.
    const before = (
      await alignmentPageData(prisma, await projectAccess(prisma, owner, biased.projectId, "project.view"), started.id)
    ).selected!.bestSettings!;
    expect(before).toMatchObject({ changed: true, applied: false, canApply: true });
    expect(before.words).toMatch(/^aggregation [a-z-]+, verdict\.on [a-z_]+, verdict\.threshold \d+$/);
    expect(
      (
        await alignmentPageData(
          prisma,
          await projectAccess(prisma, reviewer, biased.projectId, "project.view"),
          started.id,
        )
      ).selected!.bestSettings!.canApply,
    ).toBe(false);
    const applied = await applyAlignedSettings(
      prisma,
      await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
      started.id,
      builtInCatalogue().pipelines,
    );
    expect(applied.settings).toEqual(best.settings);
    // Applied as a new version of the pipeline's defaults that names the alignment.
    expect(applied).toMatchObject({ number: 1, alignmentRunId: started.id, createdById: owner.userId });
    expect(
      (await projectPipelineDefaults(prisma, await projectAccess(prisma, owner, biased.projectId, "project.view")))
        .hallucination,
    ).toEqual(best.settings);
    expect(
      (
        await alignmentPageData(
          prisma,
          await projectAccess(prisma, owner, biased.projectId, "project.view"),
          started.id,
        )
      ).selected!.bestSettings!.applied,
    ).toBe(true);
    // Gold of the verdict is read as the verdict's own target type.
    await expect(
      startAlignment(
        prisma,
        { enqueue: async () => {} },
        await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
        {
          ...body,
          labels: { kind: "gold" },
        },
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/no gold values/);
    await expect(
      startAlignment(
        prisma,
        { enqueue: async () => {} },
        await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
        {
          ...body,
          rewriteStepId: "video_summary",
        },
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/rewriteStepId/);
    // Too few labelled videos for a split is refused at the start, not as a failed job.
    const few = await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, biased.projectId, "videos.import"),
      { name: "Five verdicts", format: "generic", fileName: "five.csv", sha256: "4".repeat(64), citation: "" },
      biased.videoIds.slice(0, 5).map((videoId, i) => ({
        target: {
          task: "hallucination",
          targetType: "verdict",
          target: "verdict",
          videoId,
          itemId: "",
          stepId: "",
          scopeIndex: 0,
          frameSetId: "",
        },
        value: hallucinates(i) ? 1 : 0,
        annotator: null,
      })),
    );
    const queued: string[] = [];
    await expect(
      startAlignment(
        prisma,
        { enqueue: async (id) => void queued.push(id) },
        await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
        {
          ...body,
          labels: { kind: "labelSet", id: few.id },
        },
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/too few labelled videos to align \(5\): at least 6/);
    expect(queued).toEqual([]);
  }, 300_000);
});
