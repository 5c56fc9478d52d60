/**
 * Issue 26 items 4 and 5 for a BUILT-IN task: aligning hallucination's prompt-inconsistency judge to a label set, on
 * a seeded simulation with known truth. The stub judge (SIM_INCONSISTENCY_RULE) answers truth + 6 on videos tagged
 * `[sim-artefacts]` unless the template carries SIM_FIX_SENTENCE (a bias no threshold undoes); the stub optimizer
 * adds the sentence to the template's body when shown disagreements where the judge is above the labels. Every
 * candidate runs the whole pipeline through createRun with its prompt version, on real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createLabelSet } from "../label-sets/label-sets";
import { SIM_FIX_SENTENCE } from "../../testkit/llm-stub/alignment-stub-rule";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { labelReadSpy } from "../../testkit/testing/label-read-spy";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { pipelinePromptVersions } from "../prompt-versions/prompt-versions";
import { parseTemplate } from "../prompt-versions/prompt-templates";
import {
  alignableTargets,
  alignBuiltinJudge,
  type BuiltinAlignmentInput,
  type BuiltinAlignmentReport,
} from "./align-builtin";
import { middleOfBestRun } from "./builtin-grid";
import { alignmentPageData } from "./alignment-page";
import { executeAlignment, getAlignment, startAlignment } from "./alignment-runs";
import { startAlignmentSchema } from "./alignment.validation";
import type { AlignmentDeps } from "./align-judge";
import { labelSetStore, type AlignmentLabelStore } from "./label-store";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const VIDEOS = 40;
let labelSetIds: Map<string, string>;
// Negatives 1–3, positives 7–9 (positive at 5): the fixed judge's noise (±1) never crosses the threshold.
const TRUTHS = [1, 2, 3, 7, 8, 9];
const truthOf = (i: number) => TRUTHS[i % TRUTHS.length]!;
// Half the videos (in blocks of six, so every truth is among both kinds) carry the artefacts the biased judge overrates.
const artefacts = (i: number) => Math.floor(i / TRUTHS.length) % 2 === 0;

let stub: StubServer;
let owner: Actor;

interface Setup {
  projectId: string;
  videoIds: string[];
  store: AlignmentLabelStore;
  endpointId: string;
}

async function setUp(withArtefacts: boolean): Promise<Setup> {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: 1,
    name: "Built-in alignment",
  });
  videoIds.sort();
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({
      where: { id },
      data: {
        prompt: `A ball rolls down ramp ${i} [sim-truth=${truthOf(i)}]${withArtefacts && artefacts(i) ? " [sim-artefacts]" : ""}`,
      },
    });
  const labelSet = await createLabelSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { name: "Truth", format: "generic", fileName: "truth.csv", sha256: "0".repeat(64), citation: "" },
    videoIds.map((videoId, i) => ({
      target: {
        task: "hallucination",
        targetType: "score",
        target: "inconsistency",
        videoId,
        itemId: "",
        stepId: "inconsistency",
        scopeIndex: 0,
        frameSetId: "",
      },
      value: truthOf(i),
      annotator: null,
    })),
  );
  const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
  labelSetIds.set(projectId, labelSet.id);
  const store = labelSetStore(
    prisma,
    { projectId, labelSetId: labelSet.id, task: "hallucination", target: "inconsistency" },
    (v) => v >= 5,
  );
  return { projectId, videoIds, store, endpointId: endpoint.id };
}

const depsOf = (labels: AlignmentLabelStore): AlignmentDeps => ({
  prisma,
  queue: inlineJudgeQueue(testJudgeDeps()),
  pipelines: builtInCatalogue().pipelines,
  labels,
});
const inputOf = (setup: Setup): BuiltinAlignmentInput => ({
  pipeline: "hallucination",
  targetId: "inconsistency",
  judgeEndpointId: setup.endpointId,
  optimizerEndpointId: setup.endpointId,
  budget: { maxCalls: 5000, maxCostUsd: 10 },
  seed: 7,
});

let biased: Setup;
let unbiased: Setup;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  labelSetIds = new Map();
  biased = await setUp(true);
  unbiased = await setUp(false);
}, 120_000);
afterAll(async () => stub?.close());

describe("the grid entry kept of those that tie on train", () => {
  const score = (entry: { kappa: number | null }) => entry.kappa;
  it("is the middle of the first run of neighbours that score best, not its lowest", () => {
    const grid = [0.5, 1, 1, 1, 0.5, 1].map((kappa, t) => ({ t: t + 4, kappa }));
    expect(middleOfBestRun(grid, score)?.t).toBe(6);
    expect(
      middleOfBestRun(
        [0.5, 1, 1, 0].map((kappa, t) => ({ t, kappa })),
        score,
      )?.t,
    ).toBe(1);
    expect(
      middleOfBestRun(
        [0.2, 0.9, 0.3].map((kappa, t) => ({ t, kappa })),
        score,
      )?.t,
    ).toBe(1);
  });
  it("ends a run at an entry not tried, and never keeps a score of null", () => {
    expect(middleOfBestRun([{ t: 0, kappa: 1 }, null, { t: 2, kappa: 1 }, { t: 3, kappa: 1 }], score)?.t).toBe(0);
    expect(middleOfBestRun([{ t: 0, kappa: null }, null], score)).toBeNull();
    expect(middleOfBestRun([], score)).toBeNull();
  });
});

describe("aligning a built-in task's judge (hallucination's prompt inconsistency)", () => {
  it("offers the video-level targets a templated step scores (inconsistency), the reviewed metrics with settings to tune, then the per-frame categories", () => {
    const targets = alignableTargets(builtInCatalogue().pipelines, "hallucination");
    expect(targets.slice(0, 3).map((t) => [t.kind, t.target.id, t.steps.map((s) => s.templateId)])).toEqual([
      ["score", "inconsistency", ["hallucination/inconsistency"]],
      [
        "metric",
        "overall",
        ["hallucination/inconsistency", "hallucination/static-hallucination", "hallucination/dynamic-hallucination"],
      ],
      [
        "metric",
        "verdict",
        ["hallucination/inconsistency", "hallucination/static-hallucination", "hallucination/dynamic-hallucination"],
      ],
    ]);
    // s1–s10 per key frame, d1–d9 per cluster (the task module declares them), each through its own step's template.
    expect(targets.slice(3).map((t) => `${t.target.id}:${t.scope}:${t.steps[0]!.stepId}`)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `s${i + 1}:key_frame:static_hallucination`),
      ...Array.from({ length: 9 }, (_, i) => `d${i + 1}:cluster:dynamic_hallucination`),
    ]);
    expect(targets.find((t) => t.target.id === "inconsistency")!.settings).toEqual([]);
    // The verdict's settings: 3 aggregations × (10 thresholds on the worst category + 13 on the overall).
    expect(targets.find((t) => t.target.id === "verdict")!.settings).toHaveLength(69);
    expect(alignableTargets(builtInCatalogue().pipelines, "no-such-pipeline")).toEqual([]);
  });

  it("fixes a planted prompt bias: the best candidate is a saved prompt version with the sentence, better on held-out, significantly", async () => {
    const report = await alignBuiltinJudge(
      depsOf(biased.store),
      await projectAccess(prisma, owner, biased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
      inputOf(biased),
    );
    expect(report.split.train.length + report.split.heldOut.length).toBe(VIDEOS);
    expect(report.templateId).toBe("hallucination/inconsistency");
    const best = report.candidates.find((c) => c.id === report.bestId)!;
    expect(best.kind === "rewrite" || best.kind === "threshold").toBe(true);
    expect(best.body).toContain(SIM_FIX_SENTENCE);
    // The candidate is a prompt version of the template, noted, that the owners' edit check accepted.
    const version = await prisma.promptVersion.findUniqueOrThrow({ where: { id: best.promptVersionId! } });
    expect(version).toMatchObject({
      projectId: biased.projectId,
      templateId: "hallucination/inconsistency",
      note: "alignment candidate",
    });
    expect(version.text).toContain("{{original_prompt}}");
    // Its train run rendered that version.
    const trainRun = await prisma.judgeRun.findUniqueOrThrow({
      where: { id: best.trainRunId },
      select: { promptVersionIds: true },
    });
    expect(trainRun.promptVersionIds).toEqual({ "hallucination/inconsistency": version.id });
    for (const c of report.candidates) expect(c.train.n).toBe(report.split.train.length);
    const baselineTrain = report.candidates.find((c) => c.kind === "baseline")!.train.kappa!;
    expect(best.train.kappa!).toBeGreaterThan(baselineTrain);
    const held = report.heldOut!;
    expect(held.baseline.n).toBe(report.split.heldOut.length);
    expect(held.best.kappa!).toBeGreaterThan(held.baseline.kappa! + 0.3);
    expect(held.difference.kappa.lower!).toBeGreaterThan(0);
    expect(held.difference.kappa.p!).toBeLessThan(0.05);
    expect(report.calls).toBeGreaterThan(0);
    expect(report.stopped).toBeNull();
  }, 240_000);

  it("does not 'improve' a judge without the bias: the held-out difference is not significant", async () => {
    const report = await alignBuiltinJudge(
      depsOf(unbiased.store),
      await projectAccess(prisma, owner, unbiased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, unbiased.projectId, "runs.manage"),
      inputOf(unbiased),
    );
    const held = report.heldOut!;
    // The judge already agrees on train: nothing to learn from, the baseline stays best and no version is saved.
    expect(report.candidates.find((c) => c.kind === "baseline")!.train.kappa).toBe(1);
    expect(report.skipped).toEqual(["rewrite 1: no train disagreements left to learn from"]);
    expect(report.candidates.find((c) => c.id === report.bestId)!.kind).toBe("baseline");
    expect(held.difference.kappa.lower!).toBeLessThanOrEqual(0);
    expect(held.difference.kappa.upper!).toBeGreaterThanOrEqual(0);
    expect(held.difference.kappa.p!).toBeGreaterThanOrEqual(0.05);
  }, 240_000);

  it("reads no held-out label before the final step (a read spy on the label store)", async () => {
    const store = biased.store;
    const runs = () => prisma.judgeRun.count({ where: { projectId: biased.projectId } });
    const { spy, events } = labelReadSpy(store, runs);
    const before = await runs();
    const report = await alignBuiltinJudge(
      depsOf(spy),
      await projectAccess(prisma, owner, biased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
      { ...inputOf(biased), seed: 11 },
    );
    const after = await runs();
    const heldOut = new Set(report.split.heldOut);
    expect(events.filter((e) => e.method === "strata")).toEqual([
      { method: "strata", ids: [...biased.videoIds].sort(), runsSoFar: before },
    ]);
    const reads = events.filter((e) => e.method === "labels");
    expect(reads.length).toBe(2);
    expect(reads[0]!.ids.filter((id) => heldOut.has(id))).toEqual([]);
    expect(reads[0]!.runsSoFar).toBe(before);
    expect(reads[1]!.ids).toEqual(report.split.heldOut);
    expect(reads[1]!.runsSoFar).toBe(after);
    expect(events.at(-1)).toBe(reads[1]);
    expect(report.candidates.find((c) => c.id === report.bestId)!.body).toContain(SIM_FIX_SENTENCE);
  }, 240_000);

  it("few-shot (no rewrites): train videos shown as examples, frames included, fix the bias on train and on held-out, significantly", async () => {
    const progress: [number, number][] = [];
    const report = await alignBuiltinJudge(
      { ...depsOf(biased.store), onProgress: (done, total) => void progress.push([done, total]) },
      await projectAccess(prisma, owner, biased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
      {
        ...inputOf(biased),
        rewrites: 0,
        fewShot: 4,
      },
    );
    expect(report.candidates.map((c) => c.kind)).not.toContain("rewrite");
    const fewshot = report.candidates.find((c) => c.kind === "fewshot")!;
    expect(fewshot.note).toBe("c1 with 4 train example(s), frames included");
    // Its version is the baseline's body with the examples in its front matter: train videos only, each with its train label.
    const version = await prisma.promptVersion.findUniqueOrThrow({ where: { id: fewshot.promptVersionId! } });
    expect(version.note).toBe("alignment candidate");
    const examples = parseTemplate(version.text, "hallucination/inconsistency").examples!;
    expect(examples).toHaveLength(4);
    const train = new Set(report.split.train);
    for (const e of examples) {
      expect(train.has(e.videoId)).toBe(true);
      const i = biased.videoIds.indexOf(e.videoId);
      expect([e.label, e.labelText, e.target]).toEqual([truthOf(i), String(truthOf(i)), "Prompt inconsistency"]);
      expect(e.frames.length).toBeGreaterThan(0);
    }
    // Half of each label class.
    expect(examples.filter((e) => e.label >= 5)).toHaveLength(2);
    // The frames are those the baseline's train run sent for that video's step.
    const call = await prisma.llmCall.findFirstOrThrow({
      where: {
        runId: report.candidates[0]!.trainRunId,
        videoId: examples[0]!.videoId,
        stepResult: { stepId: "inconsistency" },
      },
    });
    const sent = await prisma.frame.findMany({
      where: { id: { in: (call.request as { frameIds: string[] }).frameIds } },
    });
    expect(examples[0]!.frames.map((f) => `${f.frameSetId}#${f.index}`)).toEqual(
      sent.slice(0, 2).map((f) => `${f.frameSetId}#${f.index}`),
    );
    expect(fewshot.train.kappa!).toBeGreaterThan(report.candidates[0]!.train.kappa! + 0.3);
    const best = report.candidates.find((c) => c.id === report.bestId)!;
    expect(best.promptVersionId).toBe(fewshot.promptVersionId);
    const held = report.heldOut!;
    expect(held.best.kappa!).toBeGreaterThan(held.baseline.kappa! + 0.3);
    expect(held.difference.kappa.lower!).toBeGreaterThan(0);
    expect(held.difference.kappa.p!).toBeLessThan(0.05);
    // Progress counts the few-shot candidate: baseline, few-shot, then the two held-out runs.
    expect(progress).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  }, 240_000);

  it("few-shot does not 'improve' a judge without the bias: the baseline stays best, the held-out difference is not significant", async () => {
    const report = await alignBuiltinJudge(
      depsOf(unbiased.store),
      await projectAccess(prisma, owner, unbiased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, unbiased.projectId, "runs.manage"),
      {
        ...inputOf(unbiased),
        rewrites: 0,
        fewShot: 4,
      },
    );
    expect(report.candidates.map((c) => c.kind)).toContain("fewshot");
    expect(report.candidates.find((c) => c.id === report.bestId)!.kind).toBe("baseline");
    const held = report.heldOut!;
    expect(held.difference.kappa.lower!).toBeLessThanOrEqual(0);
    expect(held.difference.kappa.upper!).toBeGreaterThanOrEqual(0);
    expect(held.difference.kappa.p!).toBeGreaterThanOrEqual(0.05);
  }, 240_000);

  it("with few-shot on, reads no held-out label before the final step, and shows no held-out video as an example", async () => {
    const store = biased.store;
    const runs = () => prisma.judgeRun.count({ where: { projectId: biased.projectId } });
    const { spy, events } = labelReadSpy(store, runs);
    const before = await runs();
    const report = await alignBuiltinJudge(
      depsOf(spy),
      await projectAccess(prisma, owner, biased.projectId, "prompts.manage"),
      await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
      {
        ...inputOf(biased),
        seed: 13,
        rewrites: 1,
        fewShot: 4,
      },
    );
    const after = await runs();
    const heldOut = new Set(report.split.heldOut);
    const reads = events.filter((e) => e.method === "labels");
    expect(reads.length).toBe(2);
    expect(reads[0]!.ids.filter((id) => heldOut.has(id))).toEqual([]);
    expect(reads[0]!.runsSoFar).toBe(before);
    expect(reads[1]!.ids).toEqual(report.split.heldOut);
    expect(reads[1]!.runsSoFar).toBe(after);
    expect(events.at(-1)).toBe(reads[1]);
    const fewshot = report.candidates.find((c) => c.kind === "fewshot")!;
    const version = await prisma.promptVersion.findUniqueOrThrow({ where: { id: fewshot.promptVersionId! } });
    expect(
      parseTemplate(version.text, "hallucination/inconsistency").examples!.filter((e) => heldOut.has(e.videoId)),
    ).toEqual([]);
  }, 240_000);

  it("takes a built-in alignment's few-shot count (0 to 8), absent when not given", () => {
    const body = {
      pipeline: "hallucination",
      targetId: "inconsistency",
      labels: { kind: "gold" },
      judgeEndpointId: "e",
      optimizerEndpointId: "e",
      maxCalls: 10,
      maxCostUsd: 1,
    };
    expect(startAlignmentSchema.parse({ ...body, fewShot: 3 })).toMatchObject({ fewShot: 3 });
    expect("fewShot" in startAlignmentSchema.parse(body)).toBe(false);
    expect(() => startAlignmentSchema.parse({ ...body, fewShot: 9 })).toThrow();
  });

  it("refuses a target no templated step scores (an unreviewed metric), and a budget that cannot cover the baseline", async () => {
    await expect(
      alignBuiltinJudge(
        depsOf(unbiased.store),
        await projectAccess(prisma, owner, unbiased.projectId, "prompts.manage"),
        await projectAccess(prisma, owner, unbiased.projectId, "runs.manage"),
        { ...inputOf(unbiased), targetId: "S" },
      ),
    ).rejects.toThrow(/no alignable target "S"/);
    await expect(
      alignBuiltinJudge(
        depsOf(unbiased.store),
        await projectAccess(prisma, owner, unbiased.projectId, "prompts.manage"),
        await projectAccess(prisma, owner, unbiased.projectId, "runs.manage"),
        {
          ...inputOf(unbiased),
          budget: { maxCalls: 10, maxCostUsd: 1 },
        },
      ),
    ).rejects.toThrow(/cannot cover the baseline on train/);
  });

  it("as a job: started with a pipeline and target, it links the chosen prompt version, which links back; the form offers the task", async () => {
    const body = startAlignmentSchema.parse({
      pipeline: "hallucination",
      targetId: "inconsistency",
      labels: { kind: "labelSet", id: labelSetIds.get(biased.projectId)! },
      judgeEndpointId: biased.endpointId,
      optimizerEndpointId: biased.endpointId,
      maxCalls: 5000,
      maxCostUsd: 10,
      seed: 7,
    });
    const queued: string[] = [];
    const started = await startAlignment(
      prisma,
      { enqueue: async (id) => void queued.push(id) },
      await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
      body,
      builtInCatalogue().pipelines,
    );
    expect(queued).toEqual([started.id]);
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
    expect(done.rubricTaskId).toBeNull();
    const report = done.report as BuiltinAlignmentReport;
    const best = report.candidates.find((c) => c.id === report.bestId)!;
    expect(done.promptVersionId).toBe(best.promptVersionId);
    expect(done.savedPromptVersion).toEqual({ id: best.promptVersionId, templateId: "hallucination/inconsistency" });
    const templates = await pipelinePromptVersions(
      prisma,
      await projectAccess(prisma, owner, biased.projectId, "project.view"),
      builtInCatalogue().pipelines.hallucination!,
    );
    const versions = templates.find((t) => t.templateId === "hallucination/inconsistency")!.versions;
    expect(versions.find((v) => v.id === best.promptVersionId)!.alignmentId).toBe(started.id);
    expect(versions.filter((v) => v.id !== best.promptVersionId).every((v) => v.alignmentId === null)).toBe(true);
    const page = await alignmentPageData(
      prisma,
      await projectAccess(prisma, owner, biased.projectId, "project.view"),
      started.id,
    );
    const scoringSteps = [
      { id: "inconsistency", name: "Prompt inconsistency" },
      { id: "static_hallucination", name: "Static hallucination" },
      { id: "dynamic_hallucination", name: "Dynamic hallucination" },
    ];
    expect(page.selected!.taskName).toBe("Hallucination (Sora Detector knowledge graphs) (built-in)");
    const hallucination = page.choices!.builtins.find((b) => b.pipeline === "hallucination")!;
    expect(hallucination.name).toBe("Hallucination (Sora Detector knowledge graphs) (built-in)");
    expect(hallucination.targets.slice(0, 3)).toEqual([
      {
        id: "inconsistency",
        name: "Prompt inconsistency",
        kind: "score",
        scope: "video",
        steps: [{ id: "inconsistency", name: "Prompt inconsistency" }],
      },
      { id: "overall", name: 'Overall (metric "overall")', kind: "metric", scope: "video", steps: scoringSteps },
      { id: "verdict", name: 'Hallucination (metric "verdict")', kind: "metric", scope: "video", steps: scoringSteps },
    ]);
    expect(hallucination.targets.find((t) => t.id === "s3")).toMatchObject({
      kind: "score",
      scope: "key_frame",
      name: expect.stringMatching(/\(per key frame\)$/),
    });
    expect(hallucination.targets.find((t) => t.id === "d2")).toMatchObject({
      scope: "cluster",
      name: expect.stringMatching(/\(per cluster\)$/),
    });
    // The item tasks' targets are offered too, per item.
    expect(page.choices!.builtins.map((b) => b.pipeline)).toEqual(expect.arrayContaining(["caption_style", "qa"]));
    await expect(
      startAlignment(
        prisma,
        { enqueue: async () => {} },
        await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
        { ...body, targetId: "S" },
        builtInCatalogue().pipelines,
      ),
    ).rejects.toThrow(/no alignable target "S"/);
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
  }, 240_000);
});
