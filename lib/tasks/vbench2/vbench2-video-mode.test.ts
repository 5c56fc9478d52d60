/**
 * VBench-2.0 in the `video-frames` input mode: a question's 64 frames go as one video part, in order, with their
 * places in the source video (closer to VBench's own call, which hands LLaVA-Video its frames with
 * modalities=["video"]), and the instruction text is the images mode's, word for word.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun, getRunStatus } from "@/lib/judge/runs/runs";
import { clientForEndpoint, type ChatRequest } from "@/lib/judge/calls/llm-client";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { stubEndpoint, vbench2Project } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;
const sent: ChatRequest[] = [];

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

const queue = inlineJudgeQueue(
  testJudgeDeps({
    llmFor: (endpoint) => {
      const client = clientForEndpoint(endpoint);
      return { complete: (request, options) => (sent.push(request), client.complete(request, options)) };
    },
  }),
);

async function materialRuns(capabilities?: object): Promise<Record<"images" | "video-frames", ChatRequest>> {
  const { projectId } = await vbench2Project(prisma, owner, [
    {
      model: "GenA",
      dimension: "Material",
      prompt: "Paint mixes",
      auxiliaryInfo: ["[yes] Do the paints mix? (yes or no)"],
    },
  ]);
  const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
  if (capabilities) await prisma.judgeEndpoint.update({ where: { id: vlm }, data: { capabilities } });
  const requests = new Map<string, ChatRequest>();
  for (const inputMode of ["video-frames", "images"] as const) {
    sent.length = 0;
    const run = await createRun(
      { prisma, queue, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm, inputMode }),
    );
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "done",
      steps: { failed: 0 },
    });
    // One question, one call in each mode: the other mode's answer is not this one's.
    expect(sent).toHaveLength(1);
    requests.set(inputMode, sent[0]!);
  }
  return { images: requests.get("images")!, "video-frames": requests.get("video-frames")! };
}

describe("VBench-2.0 in video-frames mode", () => {
  it("sends a question's 64 frames as one video part with their source indices, and the images mode's text with the video's line", async () => {
    const { "video-frames": asVideo, images: asImages } = await materialRuns();
    // The same prompt, and after it the line saying the frames it speaks of are the video part's.
    expect(asVideo.text).toBe(
      `${asImages.text}\n\n(The 64 frames are sent as one video, in order, from 0.00 s to 3.25 s: where this prompt speaks of images or frames, it means the frames of this video.)`,
    );
    expect(asImages.images).toHaveLength(64);
    expect(asImages.video ?? null).toBeNull();

    expect(asVideo.images).toEqual([]);
    const video = asVideo.video!;
    // The same 64 JPEGs, in the same order, joined by commas after the video/jpeg prefix.
    const joined = `data:video/jpeg;base64,${asImages.images.map((i) => i.url.slice("data:image/jpeg;base64,".length)).join(",")}`;
    expect(video.url === joined).toBe(true);
    // 79 frames at 24 fps; VBench's linspace(0, 78, 64) → 0, 1, 2, 3, 4, 6, …, 78.
    const indices = Array.from({ length: 64 }, (_, i) => Math.floor((i * 78) / 63));
    expect(video.mediaIo).toEqual({
      num_frames: 64,
      fps: 24,
      frames_indices: indices,
      total_num_frames: 79,
      duration: 3.291667,
    });
  });

  it("on a server started for video (one image a request, 64 frames as a video) keeps the 64 frames as a video", async () => {
    const finding = (maxFrames: number) => ({
      accepted: "yes",
      refusal: null,
      maxFrames,
      maxBodyBytes: null,
      sawFrames: null,
    });
    const runs = await materialRuns({
      images: "yes",
      maxImages: 1,
      jsonMode: "json_schema",
      topLogprobs: null,
      usage: true,
      contextLength: null,
      latencyMs: 5,
      notes: [],
      inputModes: { images: finding(1), "video-frames": finding(64), "video-file": finding(4) },
      maxBodyBytes: null,
    });
    // In images mode VBench-2.0 samples as many frames as one request takes (here 1); as a video, all 64.
    expect(runs.images.images).toHaveLength(1);
    expect(runs["video-frames"].video?.mediaIo).toMatchObject({ num_frames: 64 });
    expect(runs["video-frames"].images).toEqual([]);
  });
});
