/**
 * Issue 26 items 4 and 5: aligning a rubric task's judge to a label set, on a seeded simulation with known truth.
 * The stub judge has a planted bias (testkit/llm-stub/alignment-stub-rule.ts): without the sentence SIM_FIX_SENTENCE in
 * the rubric it answers truth + 2, with it truth with noise; the stub optimizer adds the sentence when shown
 * disagreements where the judge is above the labels. Runs go through createRun and the engine on real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createRun } from "../judge/runs/runs";
import { createLabelSet } from "../label-sets/label-sets";
import { SIM_FIX_SENTENCE, SIM_NEUTRAL_SENTENCE } from "../../testkit/llm-stub/alignment-stub-rule";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { RUBRIC_STEP } from "../rubrics/rubric-calls";
import { rubricTargetId } from "../rubrics/rubric-declaration";
import type { RubricDefinition, RubricDefinitionInput } from "../rubrics/rubric-definition";
import { createRubricTask } from "../rubrics/rubric-tasks";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { labelReadSpy } from "../../testkit/testing/label-read-spy";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { alignRubricJudge, type AlignmentDeps, type AlignmentInput } from "./align-judge";
import { goldStore, labelSetStore, type AlignmentLabelStore } from "./label-store";
import { judgmentKey } from "../reviews/judgment-key";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const VIDEOS = 40;
const GOLD_VIDEOS = 30;
const truthOf = (i: number) => 1 + (i % 5);

function rubric(definitionSentence: string): RubricDefinitionInput {
  return {
    name: "Defects",
    frames: { mode: "key_frames" },
    reasons: true,
    criteria: [
      {
        id: "defects",
        name: "Defects",
        type: "numeric",
        min: 1,
        max: 5,
        step: 1,
        positiveAtLeast: 4,
        positiveLabel: "defective",
        definition: `How defective the video looks, 1 none to 5 severe.${definitionSentence}`,
      },
    ],
    prompt: "The video's prompt: {{prompt}}\nThe images are {{frames}}\n\nRate it on:\n{{criteria}}",
  };
}

let stub: StubServer;
let owner: Actor;

interface Setup {
  projectId: string;
  videoIds: string[];
  rubricTaskId: string;
  pipeline: string;
  store: AlignmentLabelStore;
  /** Gold values (adjudicated) of the first GOLD_VIDEOS videos, the same truth. */
  gold: AlignmentLabelStore;
  endpointId: string;
}

async function setUp(sentence: string): Promise<Setup> {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: 1,
    name: "Alignment",
  });
  videoIds.sort();
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({
      where: { id },
      data: { prompt: `A ball rolls down ramp ${i} [sim-truth=${truthOf(i)}]` },
    });
  const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    definition: rubric(sentence),
  });
  const target = rubricTargetId(task.key, "defects");
  const labelSet = await createLabelSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { name: "Truth", format: "generic", fileName: "truth.csv", sha256: "0".repeat(64), citation: "" },
    videoIds.map((videoId, i) => ({
      target: {
        task: task.pipeline,
        targetType: "score",
        target,
        videoId,
        itemId: "",
        stepId: RUBRIC_STEP,
        scopeIndex: 0,
        frameSetId: "",
      },
      value: truthOf(i),
      annotator: null,
    })),
  );
  const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
  const store = labelSetStore(
    prisma,
    { projectId, labelSetId: labelSet.id, task: task.pipeline, target },
    (v) => v >= 4,
  );
  for (const [i, videoId] of videoIds.slice(0, GOLD_VIDEOS).entries()) {
    const at = {
      task: task.pipeline,
      targetType: "score",
      target,
      videoId,
      itemId: "",
      stepId: RUBRIC_STEP,
      scopeIndex: 0,
      frameSetId: "",
    };
    await prisma.goldJudgment.create({
      data: { projectId, ...at, targetKey: judgmentKey(at), value: truthOf(i), adjudicatorId: owner.userId },
    });
  }
  const gold = goldStore(prisma, { projectId, task: task.pipeline, target }, (v) => v >= 4);
  return { projectId, videoIds, rubricTaskId: task.id, pipeline: task.pipeline, store, gold, endpointId: endpoint.id };
}

const depsOf = (labels: AlignmentLabelStore): AlignmentDeps => ({
  prisma,
  queue: inlineJudgeQueue(testJudgeDeps()),
  pipelines: builtInCatalogue().pipelines,
  labels,
});
const inputOf = (setup: Setup, budget = { maxCalls: 1000, maxCostUsd: 10 }): AlignmentInput => ({
  rubricTaskId: setup.rubricTaskId,
  criterionId: "defects",
  judgeEndpointId: setup.endpointId,
  optimizerEndpointId: setup.endpointId,
  budget,
  seed: 7,
});

let biased: Setup;
let unbiased: Setup;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  biased = await setUp("");
  unbiased = await setUp(` ${SIM_FIX_SENTENCE}`);
}, 120_000);
afterAll(async () => stub?.close());

describe("aligning a rubric judge to a label set", () => {
  it("fixes a planted rubric bias: the best candidate adds the missing sentence and beats the baseline on held-out, significantly", async () => {
    const report = await alignRubricJudge(
      depsOf(biased.store),
      await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
      await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
      {
        ...inputOf(biased),
        fewShot: 4,
      },
    );
    expect(report.split.train.length + report.split.heldOut.length).toBe(VIDEOS);
    expect(report.split.train.filter((id) => report.split.heldOut.includes(id))).toEqual([]);
    // Stratified: each class is 40% held-out, ±1.
    const positives = new Set(biased.videoIds.filter((_, i) => truthOf(i) >= 4));
    expect(report.split.heldOut.filter((id) => positives.has(id)).length).toBe(Math.round(0.4 * positives.size));
    const best = report.candidates.find((c) => c.id === report.bestId)!;
    expect(best.definition.criteria[0]!.definition).toContain(SIM_FIX_SENTENCE);
    expect(report.candidates.map((c) => c.kind)).toContain("threshold");
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
  }, 120_000);

  it("does not 'improve' a judge without the bias: the held-out difference is not significant", async () => {
    const report = await alignRubricJudge(
      depsOf(unbiased.store),
      await projectAccess(prisma, owner, unbiased.projectId, "rubrics.manage"),
      await projectAccess(prisma, owner, unbiased.projectId, "runs.manage"),
      {
        ...inputOf(unbiased),
        fewShot: 4,
      },
    );
    expect(report.candidates.map((c) => c.kind)).toContain("fewshot");
    expect(
      report.candidates.some(
        (c) => c.kind === "rewrite" && c.definition.criteria[0]!.definition.includes(SIM_NEUTRAL_SENTENCE),
      ),
    ).toBe(true);
    const held = report.heldOut!;
    expect(held.difference.kappa.lower!).toBeLessThanOrEqual(0);
    expect(held.difference.kappa.upper!).toBeGreaterThanOrEqual(0);
    expect(held.difference.kappa.p!).toBeGreaterThanOrEqual(0.05);
  }, 120_000);

  for (const source of ["label set", "gold"] as const) {
    it(`reads no held-out label before the final step (a read spy on the ${source} store)`, async () => {
      const store = source === "gold" ? biased.gold : biased.store;
      const runs = () => prisma.judgeRun.count({ where: { projectId: biased.projectId } });
      const { spy, events } = labelReadSpy(store, runs);
      const before = await runs();
      const report = await alignRubricJudge(
        depsOf(spy),
        await projectAccess(prisma, owner, biased.projectId, "rubrics.manage"),
        await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
        {
          ...inputOf(biased),
          seed: 11,
          fewShot: 2,
        },
      );
      const after = await runs();
      const labelled = source === "gold" ? biased.videoIds.slice(0, GOLD_VIDEOS) : biased.videoIds;
      expect(report.split.train.length + report.split.heldOut.length).toBe(labelled.length);
      const heldOut = new Set(report.split.heldOut);
      // The split's strata are read once, before any run; label values of held-out videos only in the last read, after every run.
      expect(events.filter((e) => e.method === "strata")).toEqual([
        { method: "strata", ids: [...labelled].sort(), runsSoFar: before },
      ]);
      const reads = events.filter((e) => e.method === "labels");
      expect(reads.length).toBe(2);
      expect(reads[0]!.ids.filter((id) => heldOut.has(id))).toEqual([]);
      expect(reads[0]!.runsSoFar).toBe(before);
      expect(reads[1]!.ids).toEqual(report.split.heldOut);
      expect(reads[1]!.runsSoFar).toBe(after);
      expect(events.at(-1)).toBe(reads[1]);
      // The planted bias is found against either source; the few-shot candidate took its examples from train.
      for (const e of report.candidates.find((c) => c.kind === "fewshot")!.definition.examples!)
        expect(heldOut.has(e.videoId)).toBe(false);
      expect(report.candidates.find((c) => c.id === report.bestId)!.definition.criteria[0]!.definition).toContain(
        SIM_FIX_SENTENCE,
      );
    }, 120_000);
  }

  it("the gold store reads gold values, not the label set's, of the criterion's target only", async () => {
    await prisma.goldJudgment.updateMany({
      where: { projectId: unbiased.projectId, videoId: unbiased.videoIds[0]! },
      data: { value: 5 },
    });
    expect(await unbiased.gold.labelledVideoIds()).toEqual([...unbiased.videoIds.slice(0, GOLD_VIDEOS)].sort());
    const values = await unbiased.gold.labels([
      unbiased.videoIds[0]!,
      unbiased.videoIds[1]!,
      unbiased.videoIds[GOLD_VIDEOS]!,
    ]);
    expect([...values.entries()].sort()).toEqual(
      [
        [unbiased.videoIds[0]!, 5],
        [unbiased.videoIds[1]!, truthOf(1)],
      ].sort(),
    );
    expect((await unbiased.store.labels([unbiased.videoIds[0]!])).get(unbiased.videoIds[0]!)).toBe(truthOf(0));
    const other = goldStore(
      prisma,
      { projectId: unbiased.projectId, task: unbiased.pipeline, target: "another_target" },
      () => true,
    );
    expect(await other.labelledVideoIds()).toEqual([]);
    await prisma.goldJudgment.updateMany({
      where: { projectId: unbiased.projectId, videoId: unbiased.videoIds[0]! },
      data: { value: truthOf(0) },
    });
  });

  it("few-shot: k train videos shown with their frames and labels remove the planted bias, on held-out too", async () => {
    const fresh = await setUp("");
    const report = await alignRubricJudge(
      depsOf(fresh.store),
      await projectAccess(prisma, owner, fresh.projectId, "rubrics.manage"),
      await projectAccess(prisma, owner, fresh.projectId, "runs.manage"),
      {
        ...inputOf(fresh),
        rewrites: 0,
        fewShot: 4,
      },
    );
    const fewShot = report.candidates.find((c) => c.kind === "fewshot")!;
    const examples = fewShot.definition.examples!;
    expect(examples).toHaveLength(4);
    // Train videos only, two of each label class, each expecting its label and carrying its own frames.
    const train = new Set(report.split.train);
    for (const e of examples) expect(train.has(e.videoId)).toBe(true);
    const truth = new Map(fresh.videoIds.map((id, i) => [id, truthOf(i)]));
    expect(examples.filter((e) => truth.get(e.videoId)! >= 4)).toHaveLength(2);
    for (const e of examples) {
      expect(e.answer).toEqual({ defects: truth.get(e.videoId) });
      const frames = await prisma.frame.findMany({
        where: { id: { in: e.frames.map((f) => f.id) } },
        select: { frameSet: { select: { videoId: true } } },
      });
      expect(frames.map((f) => f.frameSet.videoId)).toEqual(e.frames.map(() => e.videoId));
    }
    // Its train run attached the examples' frames after the video's own, and never a video's own example.
    const calls = await prisma.llmCall.findMany({
      where: { runId: fewShot.trainRunId },
      select: { videoId: true, request: true },
    });
    const exampleFrames = new Map(examples.map((e) => [e.videoId, e.frames.map((f) => f.id)]));
    for (const call of calls) {
      const request = call.request as { frameIds: string[]; text: string };
      const shown = examples.filter((e) => e.videoId !== call.videoId);
      expect(request.frameIds.slice(1)).toEqual(shown.flatMap((e) => exampleFrames.get(e.videoId)!));
      expect(request.text).toContain(`FrameJury few-shot examples: ${shown.length} labelled example video(s)`);
    }
    expect(stub.requests.some((r) => r.rule === "alignment-judge" && r.imageCount === 1 + examples.length)).toBe(true);
    const baselineTrain = report.candidates.find((c) => c.kind === "baseline")!.train.kappa!;
    expect(fewShot.train.kappa!).toBeGreaterThan(baselineTrain + 0.3);
    const best = report.candidates.find((c) => c.id === report.bestId)!;
    expect(best.definition.examples).toEqual(examples);
    expect(report.heldOut!.difference.kappa.lower!).toBeGreaterThan(0);
  }, 120_000);

  it("stops at the budget with a clear message, keeping the held-out runs within it", async () => {
    const trainSize = Math.round(VIDEOS * 0.6);
    // Baseline on train plus both held-out runs fit; one rewrite (an optimizer call and a train run) does not.
    const maxCalls = trainSize + 2 * (VIDEOS - trainSize) + 5;
    const fresh = await setUp("");
    const report = await alignRubricJudge(
      depsOf(fresh.store),
      await projectAccess(prisma, owner, fresh.projectId, "rubrics.manage"),
      await projectAccess(prisma, owner, fresh.projectId, "runs.manage"),
      inputOf(fresh, { maxCalls, maxCostUsd: 10 }),
    );
    expect(report.stopped).toMatch(/^Stopped at the budget \(\d+ of \d+ calls/);
    expect(report.candidates.filter((c) => c.kind === "rewrite")).toEqual([]);
    expect(report.heldOut).not.toBeNull();
    expect(report.calls).toBeLessThanOrEqual(maxCalls);
    await expect(
      alignRubricJudge(
        depsOf(fresh.store),
        await projectAccess(prisma, owner, fresh.projectId, "rubrics.manage"),
        await projectAccess(prisma, owner, fresh.projectId, "runs.manage"),
        inputOf(fresh, { maxCalls: 10, maxCostUsd: 10 }),
      ),
    ).rejects.toThrow(/cannot cover the baseline on train/);
  }, 120_000);

  it("a run of a candidate definition keeps the rubric's criteria: a changed scale is refused", async () => {
    const latest = (await prisma.rubricVersion.findFirstOrThrow({ where: { rubricTaskId: biased.rubricTaskId } }))
      .definition as unknown as RubricDefinition;
    const changed = { ...latest, criteria: latest.criteria.map((c) => ({ ...c, max: 10 })) };
    await expect(
      createRun(
        { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, biased.projectId, "runs.manage"),
        {
          pipeline: biased.pipeline,
          endpointId: biased.endpointId,
          settings: { candidateDefinition: changed },
        },
      ),
    ).rejects.toThrow(/candidate definition must keep the rubric's frames, subject and criteria/);
  });
});
