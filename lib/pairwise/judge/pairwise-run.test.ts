import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { projectAccess } from "../../authz/permissions";
import { createEndpoint } from "../../judge/endpoints/endpoints";
import { cancelRun, getRunStatus } from "../../judge/runs/runs";
import { resumeRun } from "../../judge/runs/run-budget";
import { fileTemplateSource } from "../../judge/prompts/template-source";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { DEFAULT_ASPECTS } from "../aspects";
import { judgePair, type PairJob } from "./judge-pair";
import { loadJudgeTrust } from "./judge-trust";
import { judgeRunsOfSet } from "../reports/pair-set-votes";
import { majorityVerdict } from "./pairwise-samples";
import type { Verdict } from "../verdicts";
import { createPairwiseRun, requeuePairwiseRun } from "./pairwise-run";
import { createPairwiseRunSchema } from "./pairwise-run.types";
import { ensembleMembershipOf, ensembleRunReport } from "../../ensembles/ensemble-report";
import { PROBE_CLIP } from "../../judge/endpoints/probe-assets/probe-clip";
import { storedSaw } from "../../judge/calls/call-record";

let stub: StubServer;
let owner: Actor;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const deps = testJudgeDeps({ retryPolicy: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 }, sleep: async () => {} });
const ASPECTS = DEFAULT_ASPECTS.filter((a) => a.id === "overall" || a.id === "physics");

/** A project with three framed videos, a stub endpoint, and a pair set of two ordinary pairs and a honeypot. */
async function setup(
  options: { model?: string; price?: boolean; honeypot?: "frozen" | "shuffled" | "corrupted" } = {},
) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 2 });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: options.model ?? "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: false,
    pricePer1kInput: options.price ? 0.01 : null,
    pricePer1kOutput: options.price ? 0.03 : null,
  });
  const set = await prisma.pairSet.create({
    data: {
      projectId,
      name: `set ${Math.random()}`,
      aspects: ASPECTS,
      origin: { source: "project" },
      createdById: owner.userId,
    },
  });
  const pair = (position: number, a: string, b: string, honeypot?: string) =>
    prisma.pair.create({
      data: {
        pairSetId: set.id,
        projectId,
        pairKey: `${a}:${b}:${position}`,
        position,
        videoAId: a,
        videoBId: b,
        generatorA: `gen-${a.slice(-4)}`,
        generatorB: `gen-${b.slice(-4)}`,
        prompt: "A ball rolls down a ramp",
        nameA: "a.mp4",
        nameB: "b.mp4",
        ...(honeypot ? { honeypot: { kind: honeypot } } : {}),
      },
    });
  const pairs = [
    await pair(0, videoIds[0]!, videoIds[1]!),
    await pair(1, videoIds[1]!, videoIds[2]!),
    await pair(2, videoIds[0]!, videoIds[0]!, options.honeypot ?? "frozen"),
  ];
  await prisma.pairSet.update({ where: { id: set.id }, data: { pairCount: pairs.length } });
  return { projectId, pairSetId: set.id, endpointId: endpoint.id, pairs };
}

/** Starts a run whose jobs are kept, then judges them one by one as a worker would. */
async function startRun(
  s: Awaited<ReturnType<typeof setup>>,
  input: {
    budgetUsd?: number;
    samples?: number;
    temperature?: number;
    pairIds?: string[];
    panel?: string[];
    dryRun?: boolean;
    inputMode?: "images" | "video-file";
  } = {},
) {
  const jobs: PairJob[] = [];
  const access = await projectAccess(prisma, owner, s.projectId, "runs.manage");
  const started = await createPairwiseRun(
    { prisma, templates: fileTemplateSource(), queue: { enqueue: async (more) => void jobs.push(...more) } },
    access,
    s.pairSetId,
    { endpointId: s.endpointId, ...input },
  );
  return { runId: started.id!, started, jobs };
}
const judgeAll = async (jobs: PairJob[]) => {
  for (const job of jobs) await judgePair(deps, job);
};
const viewAccess = (projectId: string) => projectAccess(prisma, owner, projectId, "project.view");

/** The parent's verdict on each of the 6 questions is its members' majority, its note naming what the members are. */
async function expectMajorityOfMembers(runId: string, members: string[], of: "samples" | "judges") {
  const combined = await prisma.pairVerdict.findMany({ where: { runId } });
  expect(combined).toHaveLength(6);
  for (const verdict of combined) {
    const votes = await prisma.pairVerdict.findMany({
      where: { runId: { in: members }, pairId: verdict.pairId, aspect: verdict.aspect },
    });
    const majority = majorityVerdict(votes.map((v) => ({ verdict: v.verdict as Verdict, strength: 1 as const })))!;
    expect(verdict).toMatchObject({
      verdict: majority.verdict,
      note: `majority of ${of}: ${majority.agreed} of ${members.length}`,
    });
  }
}

describe("a pairwise judge run against the stub", () => {
  it("judges every pair in both orders, stores each order's answer and reconciles them into the run's verdicts", async () => {
    const s = await setup();
    const { runId, started, jobs } = await startRun(s);
    expect(started).toMatchObject({ pairs: 3, questions: 6, calls: 12 });
    expect(started.estimate.calls).toBe(12);
    expect(jobs).toHaveLength(3);
    await judgeAll(jobs);
    // 2 orders × 3 pairs × 2 aspects.
    expect(stub.requests.filter((r) => r.rule === "pairwise")).toHaveLength(12);
    // Each request shows both videos: 6 frames each.
    expect(stub.requests.every((r) => r.imageCount === 12)).toBe(true);
    expect(stub.requests[0]!.text).toMatch(/Video A: images 1–6, at 0\.0 s[\s\S]*Video B: images 7–12/);
    const answers = await prisma.pairJudgeAnswer.findMany({ where: { runId } });
    expect(answers).toHaveLength(12);
    expect(answers.every((a) => a.callId !== null && a.verdict !== null)).toBe(true);
    // The stub has no position bias: the same video wins in both orders, so every verdict is the orders' agreement.
    const verdicts = await prisma.pairVerdict.findMany({ where: { runId } });
    expect(verdicts).toHaveLength(6);
    for (const v of verdicts) {
      const ab = answers.find((a) => a.pairId === v.pairId && a.aspect === v.aspect && a.order === "AB")!;
      expect(v).toMatchObject({ raterKind: "judge", raterId: `run:${runId}`, verdict: ab.verdict, note: "agreed" });
    }
    // The honeypot's B (frozen) is A's first frame six times; A's own six frames differ.
    const honeypotStep = await prisma.stepResult.findFirstOrThrow({
      where: { runId, videoId: s.pairs[2]!.id, stepId: "overall:AB" },
      include: { calls: true },
    });
    const frameIds = (honeypotStep.calls[0]!.request as { frameIds: string[] }).frameIds;
    expect(new Set(frameIds.slice(0, 6)).size).toBe(6);
    expect(frameIds.slice(6)).toEqual(Array(6).fill(frameIds[0]));
    const status = await getRunStatus(prisma, await viewAccess(s.projectId), runId);
    expect(status).toMatchObject({ status: "done", pipeline: "pairwise", steps: { total: 12, done: 12 } });
    expect(status.calls.total).toBe(12);
    const trust = await loadJudgeTrust(prisma, await viewAccess(s.projectId), runId);
    expect(trust.aspects.map((a) => [a.aspect, a.answers, a.positionFlips, a.answersWithoutVerdict])).toEqual([
      ["overall", 6, 0, 0],
      ["physics", 6, 0, 0],
    ]);
  });

  it("in video-file sends a pair's two files as captioned video parts sampled alike; a honeypot goes as pictures", async () => {
    const s = await setup();
    const videos = await prisma.video.findMany({
      where: { id: { in: s.pairs.flatMap((p) => [p.videoAId!, p.videoBId!]) } },
    });
    for (const video of videos) await deps.storage.put(video.storageKey, Buffer.from(PROBE_CLIP.mp4Base64, "base64"));
    await prisma.video.updateMany({ where: { id: { in: videos.map((v) => v.id) } }, data: { durationS: 2 } });
    const { runId, started, jobs } = await startRun(s, { inputMode: "video-file" });
    // The estimate prices the ordinary pairs' clips (their seconds and sampled frames), the honeypot's pictures.
    expect(started.estimate).toMatchObject({ inputMode: "video-file", calls: 12 });
    expect(started.estimate.videoSeconds).toBeGreaterThan(0);
    expect(started.estimate.images).toBe(4 * 12);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).inputMode).toBe("video-file");
    await judgeAll(jobs);
    const requests = stub.requests.filter((r) => r.rule === "pairwise");
    expect(requests).toHaveLength(12);
    // 2 ordinary pairs × 2 aspects × 2 orders as two clips.
    const asClips = requests.filter((r) => r.videos.length > 0);
    expect(asClips).toHaveLength(8);
    // (the stub samples the clip's own frames, 4 here, for the 6 asked: the record below keeps what was asked)
    expect(new Set(asClips.map((r) => JSON.stringify(r.videos.map((v) => [v.form, v.frames]))))).toEqual(
      new Set(['[["clip",4],["clip",4]]']),
    );
    expect(asClips[0]!.text).toMatch(/sampled at 6 frames: first Video A, then Video B[\s\S]*Video A:[\s\S]*Video B:/);
    // The honeypot's broken copy has no file: its 4 questions show 12 pictures, as an images run's.
    expect(requests.filter((r) => r.videos.length === 0).map((r) => r.imageCount)).toEqual([12, 12, 12, 12]);
    // Each call records both clips, Video A's first: in order BA that is the pair's video B.
    const [pair] = s.pairs;
    const sha = (id: string) => videos.find((v) => v.id === id)!.sha256;
    for (const [order, first, second] of [
      ["AB", pair!.videoAId!, pair!.videoBId!],
      ["BA", pair!.videoBId!, pair!.videoAId!],
    ] as const) {
      const call = await prisma.llmCall.findFirstOrThrow({
        where: { runId, stepResult: { videoId: pair!.id, stepId: `overall:${order}` } },
      });
      expect(storedSaw(call.saw)).toMatchObject({
        mode: "video-file",
        clips: [
          { sha256: sha(first), sampling: { numFrames: 6 } },
          { sha256: sha(second), sampling: { numFrames: 6 } },
        ],
      });
    }
    const status = await getRunStatus(prisma, await viewAccess(s.projectId), runId);
    expect(status).toMatchObject({ status: "done", steps: { total: 12, done: 12 } });
  });

  it("judges only the pairs named (the active plan's next pairs), both orders each; a pair of another set is refused", async () => {
    const s = await setup();
    const { runId, started, jobs } = await startRun(s, { pairIds: [s.pairs[1]!.id] });
    expect(started).toMatchObject({ pairs: 1, questions: 2, calls: 4 });
    await judgeAll(jobs);
    const answers = await prisma.pairJudgeAnswer.findMany({ where: { runId } });
    expect(answers).toHaveLength(4);
    expect(new Set(answers.map((a) => a.pairId))).toEqual(new Set([s.pairs[1]!.id]));
    const other = await setup();
    await expect(startRun(s, { pairIds: [other.pairs[0]!.id] })).rejects.toThrow("not pairs of this set");
  });

  it("reports position flips and first-position wins of a judge that always prefers the video shown first", async () => {
    const s = await setup({ model: "stub-first-bias" });
    const { runId, jobs } = await startRun(s);
    await judgeAll(jobs);
    const answers = await prisma.pairJudgeAnswer.findMany({ where: { runId } });
    // AB's winner is A, BA's is B in the pair's terms (the first video shown, un-swapped).
    expect(answers.filter((a) => a.order === "AB").every((a) => a.verdict === "A")).toBe(true);
    expect(answers.filter((a) => a.order === "BA").every((a) => a.verdict === "B")).toBe(true);
    const verdicts = await prisma.pairVerdict.findMany({ where: { runId } });
    expect(verdicts.every((v) => v.verdict === "tie_good" && v.note === "flip")).toBe(true);
    const trust = await loadJudgeTrust(prisma, await viewAccess(s.projectId), runId);
    for (const aspect of trust.aspects)
      expect(aspect).toMatchObject({ positionFlips: 3, positionFlipRate: 1, firstPositionWinShare: 1 });
  });

  it("counts an answer without a verdict label as no verdict, and finishes the run", async () => {
    const s = await setup({ model: "stub-no-label" });
    const { runId, jobs } = await startRun(s);
    await judgeAll(jobs);
    const answers = await prisma.pairJudgeAnswer.findMany({ where: { runId } });
    expect(answers).toHaveLength(12);
    expect(answers.every((a) => a.verdict === null && a.answer.startsWith("no verdict: no verdict label"))).toBe(true);
    // Each answer without a label was asked once more (a repair), which had none either.
    expect(stub.requests).toHaveLength(24);
    expect(await prisma.llmCall.count({ where: { runId, isRepair: true } })).toBe(12);
    expect(await prisma.pairVerdict.count({ where: { runId } })).toBe(0);
    const trust = await loadJudgeTrust(prisma, await viewAccess(s.projectId), runId);
    expect(trust.aspects.every((a) => a.answersWithoutVerdict === 6 && a.positionFlipRate === null)).toBe(true);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");
  });

  it("sends a question again after a 429 and stores its answer", async () => {
    const s = await setup();
    stub.addFault({ fault: { kind: "status", status: 429 }, times: 2 });
    const { runId, jobs } = await startRun(s);
    await judgeAll(jobs);
    expect(stub.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect(stub.requests.filter((r) => r.status === 200)).toHaveLength(12);
    expect(await prisma.pairJudgeAnswer.count({ where: { runId, verdict: { not: null } } })).toBe(12);
    const calls = await prisma.llmCall.findMany({ where: { runId } });
    expect(calls).toHaveLength(12);
    expect(calls.reduce((n, c) => n + c.retries, 0)).toBe(2);
  });

  it("never asks an answered order again when a job is retried, even with the response cache emptied", async () => {
    const s = await setup();
    const { runId, jobs } = await startRun(s);
    await judgeAll(jobs.slice(0, 1));
    expect(stub.requests).toHaveLength(4);
    // The worker died after storing its answers, before its job completed: its steps look running, the run too.
    await prisma.stepResult.updateMany({ where: { runId, videoId: jobs[0]!.pairId }, data: { status: "running" } });
    const cacheKeys = (await prisma.llmCall.findMany({ where: { runId } })).length;
    expect(cacheKeys).toBe(4);
    await prisma.responseCache.deleteMany({ where: { model: "stub-vision" } });
    await judgeAll(jobs.slice(0, 1));
    expect(stub.requests).toHaveLength(4);
    // The retried job ended those steps from their stored answers and reconciled the pair.
    const retried = await prisma.stepResult.findMany({ where: { runId, videoId: jobs[0]!.pairId } });
    expect(retried.map((step) => step.status)).toEqual(["done", "done", "done", "done"]);
    expect(await prisma.pairVerdict.count({ where: { runId, pairId: jobs[0]!.pairId } })).toBe(2);
    // The other pairs are judged as usual, and the run ends.
    await judgeAll(jobs.slice(1));
    expect(stub.requests).toHaveLength(12);
    expect(await prisma.pairJudgeAnswer.count({ where: { runId } })).toBe(12);
    expect(await prisma.pairVerdict.count({ where: { runId } })).toBe(6);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");
  });

  it("counts a call a dead worker sent and never stored as lost, in the run's cost, and asks its question again", async () => {
    const s = await setup({ price: true });
    const { runId, jobs } = await startRun(s);
    const job = jobs[0]!;
    // The dead worker had started the pair's first question and written its call "sent", with its estimate.
    const step = await prisma.stepResult.findFirstOrThrow({
      where: { runId, videoId: job.pairId, stepId: "overall:AB" },
    });
    await prisma.stepResult.update({ where: { id: step.id }, data: { status: "running", attempts: 1 } });
    const sent = await prisma.llmCall.create({
      data: {
        runId,
        stepResultId: step.id,
        videoId: job.pairId,
        model: "stub-vision",
        request: { text: "…", frameIds: [] },
        status: "sent",
        promptTokens: 3000,
        completionTokens: 300,
        costUsd: 0.039,
      },
    });
    await judgeAll([job]);
    expect(await prisma.llmCall.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({
      status: "lost",
      costUsd: 0.039,
    });
    // Its question was asked again: the pair's four questions each reached the stub once.
    expect(stub.requests).toHaveLength(4);
    const status = await getRunStatus(prisma, await viewAccess(s.projectId), runId);
    expect(status.calls).toMatchObject({ total: 5, lost: 1 });
  });

  it("stops at its budget before a call that would pass it, and sends nothing more", async () => {
    const s = await setup({ price: true });
    const { runId, jobs } = await startRun(s, { budgetUsd: 0.000001 });
    await judgeAll(jobs);
    expect(stub.requests).toHaveLength(0);
    const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: "cancelled", stopReason: "budget" });
    expect(await prisma.pairJudgeAnswer.count({ where: { runId } })).toBe(0);
    expect(await prisma.stepResult.count({ where: { runId, status: "cancelled" } })).toBe(12);
  });

  it("refuses an unknown aspect, an unknown endpoint and a name like __proto__ with a clear 4xx", async () => {
    const s = await setup();
    const access = await projectAccess(prisma, owner, s.projectId, "runs.manage");
    const make = (input: Parameters<typeof createPairwiseRun>[3]) =>
      createPairwiseRun(
        { prisma, templates: fileTemplateSource(), queue: { enqueue: async () => {} } },
        access,
        s.pairSetId,
        input,
      );
    await expect(make({ endpointId: s.endpointId, aspects: ["text_alignment"] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/Unknown aspect "text_alignment"/),
    });
    await expect(make({ endpointId: "nope" })).rejects.toMatchObject({ status: 404 });
    await expect(
      createPairwiseRun(
        { prisma, templates: fileTemplateSource(), queue: { enqueue: async () => {} } },
        access,
        "nope",
        { endpointId: s.endpointId },
      ),
    ).rejects.toMatchObject({ status: 404 });
    expect(createPairwiseRunSchema.safeParse({ endpointId: "e", aspects: ["__proto__"] }).success).toBe(false);
    expect(createPairwiseRunSchema.safeParse({ endpointId: "e", inputMode: "video" }).success).toBe(false);
    // Two frame lists in one request would share one timing: refused, naming what to use instead.
    await expect(make({ endpointId: s.endpointId, inputMode: "video-frames" })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/cannot send two videos as frame lists.*"images".*"video-file"/),
    });
    expect(createPairwiseRunSchema.safeParse({ endpointId: "e", extra: 1 }).success).toBe(false);
    // A dry run answers the estimate and makes no run.
    const dry = await make({ endpointId: s.endpointId, dryRun: true });
    expect(dry).toMatchObject({ id: null, calls: 12 });
    expect(await prisma.judgeRun.count({ where: { pairSetId: s.pairSetId } })).toBe(0);
  });

  it("asks self-consistency samples apart and combines their verdicts into the parent's by majority", async () => {
    const s = await setup({ model: "stub-first-bias-50" });
    const { runId, started, jobs } = await startRun(s, { samples: 3, temperature: 0.7 });
    expect(started).toMatchObject({ calls: 36, estimate: { calls: 36 } });
    expect(started.members).toHaveLength(3);
    // One job per member and pair.
    expect(jobs).toHaveLength(9);
    await judgeAll(jobs);
    // Each sample asked apart (its own salt in the cache key): 3 × 12 calls.
    expect(stub.requests.filter((r) => r.rule === "pairwise")).toHaveLength(36);
    const parent = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } });
    expect(parent.status).toBe("done");
    await expectMajorityOfMembers(runId, started.members!, "samples");
    const status = await getRunStatus(prisma, await viewAccess(s.projectId), runId);
    expect(status.steps).toMatchObject({ total: 36, done: 36 });
    const trust = await loadJudgeTrust(prisma, await viewAccess(s.projectId), runId);
    expect(trust.aspects.every((a) => a.answers === 18)).toBe(true);
    // A sample's temperature goes with its calls.
    const call = await prisma.llmCall.findFirstOrThrow({ where: { runId: started.members![0]! } });
    expect((call.request as { temperature: number }).temperature).toBe(0.7);
  });

  it("asks a panel's judges each on its own endpoint and combines their verdicts by majority; refuses a bad panel", async () => {
    const s = await setup({ price: true });
    const endpoint = (model: string) =>
      createStubEndpoint(prisma, owner, s.projectId, stub.baseURL, model, {
        name: model,
        structuredOutput: false,
        pricePer1kInput: model.includes("free") ? null : 0.02,
      });
    const biased = await endpoint("stub-first-bias");
    const free = await endpoint("stub-free");
    const panel = [s.endpointId, biased.id, free.id];
    // The estimate adds up each judge's own: the free judge costs nothing, the others their prices.
    const dry = await startRun(s, { panel, dryRun: true });
    const own = async (endpointId: string) => (await startRun({ ...s, endpointId }, { dryRun: true })).started.estimate;
    const [first, second, third] = [await own(s.endpointId), await own(biased.id), await own(free.id)];
    expect(third.costUsd).toBeNull();
    expect(dry.started.calls).toBe(36);
    expect(dry.started.estimate).toMatchObject({ calls: 36, inputTokens: first.inputTokens * 3 });
    expect(dry.started.estimate.costUsd).toBeCloseTo(first.costUsd! + second.costUsd!, 9);
    const { runId, started, jobs } = await startRun(s, { panel });
    expect(started.members).toHaveLength(3);
    expect(jobs).toHaveLength(9);
    await judgeAll(jobs);
    const members = await prisma.judgeRun.findMany({ where: { parentRunId: runId }, orderBy: { memberIndex: "asc" } });
    expect(members.map((m) => m.endpointId)).toEqual(panel);
    expect(members.every((m) => m.sampling === null && m.status === "done")).toBe(true);
    // Each judge asked every question in both orders on its own model.
    const models = stub.requests.filter((r) => r.rule === "pairwise").map((r) => r.model);
    expect(models.filter((m) => m === "stub-vision")).toHaveLength(12);
    expect(models.filter((m) => m === "stub-first-bias")).toHaveLength(12);
    expect(models.filter((m) => m === "stub-free")).toHaveLength(12);
    const parent = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } });
    expect(parent).toMatchObject({ status: "done", ensemble: { of: "pairs", kind: "panel", combine: "majority" } });
    await expectMajorityOfMembers(runId, started.members!, "judges");
    // A video run's ensemble readers do not take the pairwise panel for a video panel (its members judge pairs).
    expect(await ensembleRunReport(prisma, await viewAccess(s.projectId), runId)).toBeNull();
    expect(await ensembleMembershipOf(prisma, members[0]!.id)).toBeNull();
    // The biased judge flips every decided pair; its own trust figures say so, apart from the others'.
    const trust = await loadJudgeTrust(prisma, await viewAccess(s.projectId), members[1]!.id);
    expect(trust.aspects.every((a) => a.positionFlips > 0)).toBe(true);
    // The set's judge raters name the panel and each of its judges apart.
    const labels = (await judgeRunsOfSet(prisma, await viewAccess(s.projectId), s.pairSetId)).map((r) => r.label);
    expect(labels.filter((l) => l.startsWith("Panel of 3 judges ·"))).toHaveLength(1);
    expect(labels.filter((l) => l.includes("(in a panel) ·"))).toHaveLength(3);
    // A panel without the run's endpoint, with an unknown endpoint, of one judge, or with samples: refused.
    await expect(startRun(s, { panel: [biased.id, free.id] })).rejects.toMatchObject({ status: 400 });
    await expect(startRun(s, { panel: [s.endpointId, "nope"] })).rejects.toMatchObject({ status: 404 });
    const parse = (body: object) => createPairwiseRunSchema.safeParse({ endpointId: s.endpointId, ...body }).success;
    expect(parse({ panel: [s.endpointId] })).toBe(false);
    expect(parse({ panel: [s.endpointId, s.endpointId] })).toBe(false);
    expect(parse({ panel: [s.endpointId, biased.id], samples: 2 })).toBe(false);
    expect(parse({ panel: [s.endpointId, biased.id] })).toBe(true);
  });

  it("answers a pair whose video was deleted as not judged, with no call, and still finishes the run", async () => {
    const s = await setup();
    await prisma.pair.update({ where: { id: s.pairs[1]!.id }, data: { videoBId: null } });
    const { runId, jobs } = await startRun(s);
    await judgeAll(jobs);
    // The two other pairs: 2 aspects × 2 orders each.
    expect(stub.requests).toHaveLength(8);
    const gone = await prisma.pairJudgeAnswer.findMany({ where: { runId, pairId: s.pairs[1]!.id } });
    expect(gone).toHaveLength(4);
    expect(gone.every((a) => a.verdict === null && a.answer === "not judged: video B was deleted")).toBe(true);
    expect(await prisma.stepResult.count({ where: { runId, videoId: s.pairs[1]!.id, status: "skipped" } })).toBe(4);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");
  });

  it("asks an answer without a label once more, and keeps the repair's verdict", async () => {
    const s = await setup();
    stub.addFault({ fault: { kind: "content", content: "Both look fine to me." }, times: 1 });
    const { runId, jobs } = await startRun(s);
    await judgeAll(jobs);
    expect(stub.requests).toHaveLength(13);
    const repair = await prisma.llmCall.findFirstOrThrow({ where: { runId, isRepair: true } });
    expect(repair.responseText).toMatch(/\[\[/);
    const answers = await prisma.pairJudgeAnswer.findMany({ where: { runId } });
    expect(answers.every((a) => a.verdict !== null)).toBe(true);
    const step = await prisma.stepResult.findFirstOrThrow({
      where: { id: (await prisma.llmCall.findFirstOrThrow({ where: { id: repair.id } })).stepResultId },
    });
    expect(step.rawText).toContain("--- repair answer ---");
  });

  it("resumes a budget-stopped run with a higher budget, and a cancelled run sends nothing", async () => {
    const s = await setup({ price: true });
    const { runId, jobs } = await startRun(s, { budgetUsd: 0.000001 });
    await judgeAll(jobs);
    expect(stub.requests).toHaveLength(0);
    const access = await projectAccess(prisma, owner, s.projectId, "runs.manage");
    await resumeRun({ prisma, queue: { enqueue: async () => {} } }, access, runId, { budgetUsd: 100 });
    const again: PairJob[] = [];
    expect(
      await requeuePairwiseRun({ prisma, queue: { enqueue: async (more) => void again.push(...more) } }, runId),
    ).toBe(3);
    await judgeAll(again);
    expect(stub.requests).toHaveLength(12);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");

    const other = await setup();
    const cancelled = await startRun(other);
    await cancelRun(prisma, await projectAccess(prisma, owner, other.projectId, "runs.manage"), cancelled.runId);
    const before = stub.requests.length;
    expect(await judgePair(deps, cancelled.jobs[0]!)).toBe("cancelled");
    expect(stub.requests).toHaveLength(before);
  });
});
