/**
 * The cost estimate and the engine decide what a request shows the judge in one place (planRequestMedia): for every
 * input mode and every limit an endpoint's probe can set (none, a video part's frame limit, an image limit, the mode
 * refused), a dry run's planned pictures, video frames and clip seconds, step by step, are those the run then sends
 * to the stub LLM and records on its calls.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { createRunSchema } from "../runs/run-input.validation";
import { createRun, dryRun } from "../runs/runs";
import type { RunEstimate } from "../runs/cost-estimate";
import { sentShapeSchema, storedSaw } from "../calls/call-record";
import { PROBE_CLIP } from "../endpoints/probe-assets/probe-clip";
import { INPUT_MODES, type InputMode } from ".";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const judgeDeps = testJudgeDeps({
  retryPolicy: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  sleep: async () => {},
});
const deps = () => ({ prisma, queue: inlineJudgeQueue(judgeDeps), pipelines: builtInCatalogue().pipelines });
const parse = (body: unknown) => createRunSchema(builtInCatalogue()).parse(body);

const finding = (accepted: "yes" | "no", maxFrames: number | null = 16) => ({
  accepted,
  refusal: accepted === "no" ? "video_url parts are not supported" : null,
  maxFrames: accepted === "yes" ? maxFrames : null,
  maxBodyBytes: null,
  sawFrames: null,
});
/** A probe's findings: every mode answered with 16 frames and 16 images unless a case says otherwise. */
const probed = (over: { maxImages?: number; modes?: Partial<Record<InputMode, ReturnType<typeof finding>>> }) => ({
  images: "yes",
  maxImages: over.maxImages ?? 16,
  jsonMode: "json_schema",
  topLogprobs: null,
  usage: true,
  contextLength: null,
  latencyMs: 5,
  notes: [],
  inputModes: { images: finding("yes"), "video-frames": finding("yes"), "video-file": finding("yes"), ...over.modes },
  maxBodyBytes: null,
});

/** The endpoint's probe findings for each case, given the run's mode. */
const CASES: Record<string, (mode: InputMode) => unknown> = {
  "within every limit (never probed)": () => null,
  // The hallucination task's clusters are three frames: one video part may carry two.
  "over the video part's frame limit": () => probed({ modes: { "video-frames": finding("yes", 2) } }),
  // Two pictures a request: a cluster's three go as one grid.
  "over the image limit": () => probed({ maxImages: 2 }),
  "the mode refused by the probe": (mode) => probed({ modes: { [mode]: finding("no") } }),
};

/** A project of one video whose clip is the probe's (1 s, 4 fps, 4 frames), with two key frames of three-frame clusters. */
async function setup(capabilities: unknown) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
  const video = await prisma.video.update({
    where: { id: videoIds[0]! },
    data: { fps: 4, frameCount: 4, durationS: 1 },
  });
  await judgeDeps.storage.put(video.storageKey, Buffer.from(PROBE_CLIP.mp4Base64, "base64"));
  const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
  await prisma.judgeEndpoint.update({
    where: { id: endpoint.id },
    data: { capabilities: capabilities === null ? undefined : (capabilities as object) },
  });
  return { projectId, endpointId: endpoint.id };
}

type Shown = { calls: number; images: number; videoFrames: number; videoSeconds: number };
const none = (): Shown => ({ calls: 0, images: 0, videoFrames: 0, videoSeconds: 0 });

/** What the run's call rows say each step showed: its pictures (a grid is one), its video part's frames, its clip. */
async function recordedByStep(runId: string): Promise<Map<string, Shown>> {
  const calls = await prisma.llmCall.findMany({
    where: { runId, isRepair: false },
    select: { saw: true, request: true, stepResult: { select: { stepId: true } } },
  });
  const byStep = new Map<string, Shown>();
  for (const call of calls) {
    const saw = storedSaw(call.saw)!;
    const sent = sentShapeSchema.parse((call.request as { sent: unknown }).sent);
    const entry = byStep.get(call.stepResult.stepId) ?? none();
    const pictures = saw.frames.length - sent.videoFrames;
    entry.calls += 1;
    entry.images += sent.grid && pictures > 0 ? 1 : pictures;
    entry.videoFrames += saw.clip
      ? "numFrames" in saw.clip.sampling
        ? saw.clip.sampling.numFrames
        : 0
      : sent.videoFrames;
    entry.videoSeconds += saw.clip?.durationS ?? 0;
    byStep.set(call.stepResult.stepId, entry);
  }
  return byStep;
}

/** What the stub received: image parts, the frames of its video parts (a clip's as sampled), a clip's seconds. */
function received(): Shown {
  const shown = none();
  for (const request of stub.requests) {
    const videoFrames = request.videos.reduce((total, video) => total + video.frames, 0);
    shown.calls += 1;
    shown.images += request.imageCount - videoFrames;
    shown.videoFrames += videoFrames;
    shown.videoSeconds += request.videos.reduce((total, video) => total + (video.durationS ?? 0), 0);
  }
  return shown;
}

const planned = (s: Shown) => ({
  calls: s.calls,
  images: s.images,
  videoFrames: s.videoFrames,
  videoSeconds: s.videoSeconds,
});

describe("the estimate plans what the engine sends", () => {
  for (const mode of INPUT_MODES)
    for (const [name, capabilitiesFor] of Object.entries(CASES))
      it(`${mode}: ${name}`, async () => {
        const { projectId, endpointId } = await setup(capabilitiesFor(mode));
        const body = { pipeline: "hallucination", endpointId, inputMode: mode };
        if (name === "the mode refused by the probe") {
          // Neither prices nor starts a run in a mode the endpoint refused.
          await expect(
            dryRun(
              deps(),
              await projectAccess(prisma, owner, projectId, "runs.manage"),
              parse({ ...body, dryRun: true }),
            ),
          ).rejects.toMatchObject({
            status: 400,
          });
          await expect(
            createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), parse(body)),
          ).rejects.toMatchObject({ status: 400 });
          expect(stub.requests).toHaveLength(0);
          return;
        }
        const dry = (await dryRun(
          deps(),
          await projectAccess(prisma, owner, projectId, "runs.manage"),
          parse({ ...body, dryRun: true }),
        )) as {
          estimate: RunEstimate | null;
          estimateError: string | null;
        };
        expect(dry.estimateError).toBeNull();
        const estimate = dry.estimate!;
        const run = (await createRun(
          deps(),
          await projectAccess(prisma, owner, projectId, "runs.manage"),
          parse(body),
        )) as { id: string };

        const recorded = await recordedByStep(run.id);
        expect(new Map(estimate.steps.map((s) => [s.stepId, planned(s)]))).toEqual(recorded);
        expect(planned(estimate)).toEqual(received());
      });
});
