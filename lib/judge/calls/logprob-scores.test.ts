/**
 * Issue 26 item 3 (and its item-5 claim): logprob-weighted scores. An endpoint set to request logprobs
 * gets `logprobs: true, top_logprobs: k`; the engine finds each score's value token in the answer and
 * stores Σ s·P(s) over its on-scale alternatives beside the argmax (G-Eval); cached answers keep their
 * logprobs. On a seeded simulation with known truth, where the judge's argmax is the truth rounded and
 * its belief is centred on the truth, the expected score agrees with the truth better than the argmax.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { createRubricTask } from "../../rubrics/rubric-tasks";
import type { RubricDefinitionInput } from "../../rubrics/rubric-definition";
import { spearman } from "../../stats/correlation";

import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { testEndpoint } from "../endpoints/endpoint-test";
import { createRun, videoScores } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfVideo, accessOfEndpoint } from "../../../testkit/testing/record-access";

const VIDEOS = 48;
const definition: RubricDefinitionInput = {
  name: "Simulated quality",
  frames: { mode: "key_frames" },
  prompt: "The video's prompt: {{prompt}}\nRate the key frames. {{frames}}\n{{criteria}}",
  criteria: [
    { id: "quality", name: "Quality", definition: "How good it looks.", type: "numeric", min: 1, max: 5, step: 1 },
  ],
};

let stub: StubServer;
let owner: Actor;
let project: { projectId: string; videoIds: string[] };
const truthOf = new Map<string, number>();
let pipeline: string;

/** A seeded uniform in [0, 1) (mulberry32): the same truths on every run of the test. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const endpoint = (name: string, model: string, logprobs: { requestLogprobs?: boolean; topLogprobs?: number }) =>
  createStubEndpoint(prisma, owner, project.projectId, stub.baseURL, model, { name, maxConcurrency: 8, ...logprobs });

const deps = () => ({ prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines });

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  project = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: 1,
    name: "Logprob simulation",
  });
  const random = seeded(26);
  for (const videoId of project.videoIds) {
    // Truths spread over the scale's inside, where rounding loses most (1.0–5.0).
    const truth = Math.round((1 + 4 * random()) * 100) / 100;
    truthOf.set(videoId, truth);
    await prisma.video.update({
      where: { id: videoId },
      data: { prompt: `A simulated clip. sim-truth quality=${truth} in 1..5` },
    });
  }
  pipeline = (
    await createRubricTask(prisma, await projectAccess(prisma, owner, project.projectId, "rubrics.manage"), {
      definition,
    })
  ).pipeline;
}, 120_000);
afterAll(async () => stub?.close());

async function scoresOf(runId: string) {
  const rows = await prisma.score.findMany({
    where: { runId },
    select: { videoId: true, value: true, expected: true },
  });
  return rows.sort((a, b) => a.videoId.localeCompare(b.videoId));
}

const mae = (xs: number[], ys: number[]) => xs.reduce((sum, x, i) => sum + Math.abs(x - ys[i]!), 0) / xs.length;

describe("logprob-weighted scores", () => {
  it("asks for top_logprobs, stores the expected score beside the argmax, and beats the argmax against a known truth (MAE and Spearman, 48 videos)", async () => {
    const judge = await endpoint("uncertain judge", "sim-logprobs?noise=0.8&seed=1&jitter=0.25", {
      requestLogprobs: true,
      topLogprobs: 5,
    });
    const before = stub.requests.length;
    const run = await createRun(deps(), await projectAccess(prisma, owner, project.projectId, "runs.manage"), {
      pipeline,
      endpointId: judge.id,
    });
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
    expect(stub.requests.length - before).toBe(VIDEOS);

    const scores = await scoresOf(run.id);
    expect(scores).toHaveLength(VIDEOS);
    expect(scores.every((s) => s.expected !== null)).toBe(true);
    const truth = scores.map((s) => truthOf.get(s.videoId)!);
    const argmax = scores.map((s) => s.value);
    const expected = scores.map((s) => s.expected!);
    // The argmax is a whole number, mostly the truth rounded (seeded noise in the judge's logits moves some); the expected score is not.
    expect(argmax.every((v) => Number.isInteger(v))).toBe(true);
    expect(argmax.filter((v, i) => v === Math.round(truth[i]!)).length).toBeGreaterThanOrEqual(VIDEOS * 0.6);
    expect(expected.some((e) => !Number.isInteger(e))).toBe(true);
    expect(expected.every((e) => e >= 1 && e <= 5)).toBe(true);

    const maeArgmax = mae(argmax, truth);
    const maeExpected = mae(expected, truth);
    const rhoArgmax = spearman(argmax, truth)!;
    const rhoExpected = spearman(expected, truth)!;
    console.log(
      `48 videos: MAE argmax ${maeArgmax.toFixed(3)}, expected ${maeExpected.toFixed(3)}; Spearman argmax ${rhoArgmax.toFixed(3)}, expected ${rhoExpected.toFixed(3)}`,
    );
    expect(maeExpected).toBeLessThan(maeArgmax);
    expect(rhoExpected).toBeGreaterThan(rhoArgmax);

    // The video page's scores carry the expected score beside the argmax.
    const shown = await videoScores(
      prisma,
      await accessOfVideo(prisma, owner, scores[0]!.videoId),
      scores[0]!.videoId,
      run.id,
    );
    expect(shown.steps.flatMap((step) => step.scores)).toEqual([
      expect.objectContaining({ value: scores[0]!.value, expected: scores[0]!.expected }),
    ]);
  }, 180_000);

  it("keeps the logprobs of a cached answer: a second run answered from the cache gets the same expected scores without a call", async () => {
    const judge = await endpoint("uncertain judge again", "sim-logprobs?noise=0.6&seed=2", {
      requestLogprobs: true,
      topLogprobs: 3,
    });
    const first = await createRun(deps(), await projectAccess(prisma, owner, project.projectId, "runs.manage"), {
      pipeline,
      endpointId: judge.id,
    });
    const before = stub.requests.length;
    const second = await createRun(deps(), await projectAccess(prisma, owner, project.projectId, "runs.manage"), {
      pipeline,
      endpointId: judge.id,
    });
    expect(stub.requests.length).toBe(before);
    const [a, b] = [await scoresOf(first.id), await scoresOf(second.id)];
    expect(b.map((s) => s.expected)).toEqual(a.map((s) => s.expected));
    expect(b.every((s) => s.expected !== null)).toBe(true);
  }, 180_000);

  it("does not ask for logprobs when the endpoint's probe found none come back (one finding: capabilities.topLogprobs), and stores no expected score", async () => {
    // A server that never returns logprobs ("…no-logprobs…"): the endpoint requests them, the Test's probe finds none.
    const judge = await endpoint("judge without logprobs", "sim-logprobs?noise=0.8&seed=5&server=no-logprobs", {
      requestLogprobs: true,
      topLogprobs: 5,
    });
    const tested = await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, judge.id), judge.id);
    expect(tested.capabilities).toMatchObject({ topLogprobs: false });
    expect(tested).not.toHaveProperty("logprobs");
    const before = stub.requests.length;
    const run = await createRun(deps(), await projectAccess(prisma, owner, project.projectId, "runs.manage"), {
      pipeline,
      endpointId: judge.id,
    });
    const calls = stub.requests
      .slice(before)
      .filter((r) => r.model === "sim-logprobs?noise=0.8&seed=5&server=no-logprobs");
    expect(calls.length).toBe(VIDEOS);
    expect(calls.every((r) => r.topLogprobs === null)).toBe(true);
    const scores = await scoresOf(run.id);
    expect(scores).toHaveLength(VIDEOS);
    expect(scores.every((s) => s.expected === null)).toBe(true);
    // An endpoint whose probe found them come back asks for its 5 alternatives (a fresh model: nothing cached).
    const other = await endpoint("judge with logprobs", "sim-logprobs?noise=0.8&seed=6", {
      requestLogprobs: true,
      topLogprobs: 5,
    });
    await prisma.judgeEndpoint.update({
      where: { id: other.id },
      data: { capabilities: { ...tested.capabilities!, topLogprobs: true } },
    });
    const asked = stub.requests.length;
    await createRun(deps(), await projectAccess(prisma, owner, project.projectId, "runs.manage"), {
      pipeline,
      endpointId: other.id,
      videoIds: project.videoIds.slice(0, 1),
    });
    expect(stub.requests.slice(asked).map((r) => r.topLogprobs)).toEqual([5]);
  }, 180_000);

  it("stores no expected score when the endpoint does not request logprobs (the default)", async () => {
    const judge = await endpoint("plain judge", "sim-logprobs?noise=0.8&seed=3", {});
    const run = await createRun(deps(), await projectAccess(prisma, owner, project.projectId, "runs.manage"), {
      pipeline,
      endpointId: judge.id,
    });
    const scores = await scoresOf(run.id);
    expect(scores).toHaveLength(VIDEOS);
    expect(scores.every((s) => s.expected === null)).toBe(true);
  }, 180_000);
});
