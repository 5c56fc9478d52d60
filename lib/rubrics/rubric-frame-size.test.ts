/**
 * A rubric's frame size for key-frame modes: key frames and clusters are scaled down to `longestSide` before they
 * are sent (a uniform set is extracted at its size instead), and the size is part of the cache key, so a version
 * that changes only the size asks the judge again.
 */
import jpeg from "jpeg-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { scaleJpegToLongestSide } from "../judge/media/frame-resize";
import { clientForEndpoint, type ChatRequest } from "../judge/calls/llm-client";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { getStorage } from "../storage/storage";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { rubricDefinitionSchema, type RubricDefinitionInput } from "./rubric-definition";
import { previewRubric } from "./preview-rubric";
import { createRubricTask, saveRubricVersion } from "./rubric-tasks";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

/** A 320×180 test picture: a gradient, so scaling has something to average. */
function picture(width: number, height: number): Buffer {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([(x * 255) / width, (y * 255) / height, 128, 255], (y * width + x) * 4);
  }
  return Buffer.from(jpeg.encode({ data, width, height }, 90).data);
}

const sizeOf = (url: string) => {
  const image = jpeg.decode(Buffer.from(url.slice(url.indexOf(",") + 1), "base64"), { useTArray: true });
  return [image.width, image.height];
};

describe("scaleJpegToLongestSide", () => {
  it("scales the longest side down to the size, keeping the aspect ratio, and never scales up", () => {
    const wide = picture(320, 180);
    expect(sizeOf(`x,${scaleJpegToLongestSide(wide, 128).toString("base64")}`)).toEqual([128, 72]);
    expect(sizeOf(`x,${scaleJpegToLongestSide(picture(90, 160), 80).toString("base64")}`)).toEqual([45, 80]);
    expect(scaleJpegToLongestSide(wide, 320)).toBe(wide);
    expect(scaleJpegToLongestSide(wide, 1024)).toBe(wide);
  });
});

describe("a rubric's frame size for key frames and clusters", () => {
  let stub: StubServer;
  let owner: Actor;
  let projectId: string;
  let videoIds: string[];
  let endpointId: string;
  /** The images each request sent, in request order (captured at the client the engine calls). */
  const sent: string[][] = [];
  const deps = () => ({
    prisma,
    queue: inlineJudgeQueue(
      testJudgeDeps({
        llmFor: (endpoint) => {
          const client = clientForEndpoint(endpoint);
          return {
            complete: (request: ChatRequest, options) => (
              sent.push(request.images.map((i) => i.url)),
              client.complete(request, options)
            ),
          };
        },
      }),
    ),
    pipelines: builtInCatalogue().pipelines,
  });
  const definition = (frames: RubricDefinitionInput["frames"]): RubricDefinitionInput => ({
    name: `Sized ${JSON.stringify(frames)}`,
    frames,
    criteria: [
      { id: "defect", name: "Defect", type: "numeric", min: 0, max: 10, step: 1, definition: "How broken, 0–10." },
    ],
    prompt: "The images are {{frames}}\n\nRate them on:\n{{criteria}}",
  });

  beforeAll(async () => {
    stub = await startStubLlm();
    owner = await makeUser();
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 2,
      name: "Frame size",
    }));
    // The fixture's frames are 64×48; store 320×180 pictures under their keys so there is something to scale.
    const storage = getStorage();
    const frames = await prisma.frame.findMany({
      where: { frameSet: { video: { projectId } } },
      select: { storageKey: true },
    });
    for (const frame of frames) await storage.put(frame.storageKey, picture(320, 180));
    endpointId = (
      await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "stub",
        baseUrl: stub.baseURL,
        model: "stub-vision",
        apiKey: null,
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 2,
        requestsPerMinute: null,
        timeoutSeconds: 60,
        structuredOutput: true,
        pricePer1kInput: null,
        pricePer1kOutput: null,
      })
    ).id;
  });
  afterAll(async () => stub?.close());

  const run = async (pipeline: string) => {
    sent.length = 0;
    const created = await createRun(deps(), await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline,
      endpointId,
    });
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, created.id), created.id)).status).toBe("done");
    return created.id;
  };

  it("is allowed for every frames mode, within 64–4096 px", () => {
    for (const mode of ["key_frames", "each_key_frame", "each_cluster"] as const) {
      expect(rubricDefinitionSchema.safeParse(definition({ mode, longestSide: 256 })).success).toBe(true);
      expect(rubricDefinitionSchema.safeParse(definition({ mode, longestSide: 32 })).success).toBe(false);
    }
  });

  it("sends each cluster's frames at the size, and asks again (no cache hit) when only the size changes", async () => {
    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: definition({ mode: "each_cluster" }),
    });
    await run(task.pipeline);
    // 2 videos × 2 clusters of 3 frames, at their stored size.
    expect(sent).toHaveLength(4);
    expect(sent.flat().map(sizeOf)).toEqual(Array.from({ length: 12 }, () => [320, 180]));

    await saveRubricVersion(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), task.id, {
      definition: definition({ mode: "each_cluster", longestSide: 128 }),
    });
    const sized = await run(task.pipeline);
    expect(sent).toHaveLength(4);
    expect(sent.flat().map(sizeOf)).toEqual(Array.from({ length: 12 }, () => [128, 72]));
    expect(await prisma.score.count({ where: { runId: sized } })).toBe(4);

    // A preview sends the very request a run sends: the same size, so the same cache key (answered from the cache).
    const sizedDefinition = definition({ mode: "each_cluster", longestSide: 128 });
    const cached = await previewRubric(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: sizedDefinition,
      videoId: videoIds[0]!,
      endpointId,
      scopeIndex: 1,
    });
    expect(cached.cached).toBe(true);
    // Uncached (another size), it sends the frames at its size.
    const previewed: string[][] = [];
    const client = clientForEndpoint({ baseUrl: stub.baseURL, apiKey: null });
    const preview = await previewRubric(
      prisma,
      await projectAccess(prisma, owner, projectId, "rubrics.manage"),
      {
        definition: definition({ mode: "each_cluster", longestSide: 90 }),
        videoId: videoIds[0]!,
        endpointId,
        scopeIndex: 0,
      },
      {
        client: {
          complete: (request, options) => (
            previewed.push(request.images.map((i) => i.url)),
            client.complete(request, options)
          ),
        },
      },
    );
    expect(preview).toMatchObject({ cached: false, parseError: null });
    expect(previewed.flat().map(sizeOf)).toEqual([
      [90, 51],
      [90, 51],
      [90, 51],
    ]);
  });

  it("sends every key frame in one call at the size, and each key frame on its own", async () => {
    const all = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: definition({ mode: "key_frames", longestSide: 100 }),
    });
    await run(all.pipeline);
    expect(sent.map((images) => images.length)).toEqual([2, 2]);
    expect(sent.flat().map(sizeOf)).toEqual(Array.from({ length: 4 }, () => [100, 56]));

    const each = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: definition({ mode: "each_key_frame", longestSide: 200 }),
    });
    await run(each.pipeline);
    expect(sent.map((images) => images.length)).toEqual([1, 1, 1, 1]);
    expect(sent.flat().map(sizeOf)).toEqual(Array.from({ length: 4 }, () => [200, 113]));
  });
});
