import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";

import { createRun, getRunStatus } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { startS3rver, type RunningS3rver } from "../../testkit/testing/s3rver";
import { getStorage, storageFor } from "./storage";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

let s3: RunningS3rver;
let stub: StubServer;
beforeAll(async () => {
  [s3, stub] = await Promise.all([startS3rver(), startStubLlm()]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), stub?.close()]);
});

describe("judging with frames in S3-compatible storage", () => {
  it("reads every frame from the bucket for the judge's calls; no local copy exists", async () => {
    const owner = await makeUser();
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
    // The fixture stores frames in the test's local storage; move them to the bucket under the same keys.
    const local = getStorage();
    const s3Storage = storageFor(s3.config());
    const frames = await prisma.frame.findMany({
      where: { frameSet: { videoId: videoIds[0] } },
      select: { storageKey: true },
    });
    for (const { storageKey } of frames) {
      await s3Storage.put(storageKey, await local.get(storageKey));
      await local.delete(storageKey);
    }
    expect(await local.stat(frames[0]!.storageKey)).toBeNull();

    const deps = testJudgeDeps({ storage: s3Storage });
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      apiKey: "sk-stub-secret",
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 120,
      structuredOutput: true,
      pricePer1kInput: 0.01,
      pricePer1kOutput: 0.03,
    });
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(deps), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(status.steps).toMatchObject({ total: 10, done: 10, failed: 0 });
    // The key frames and clusters went along with their calls.
    expect(stub.requests.filter((r) => r.rule === "static-knowledge-graph").map((r) => r.imageCount)).toEqual([1, 1]);
    expect(stub.requests.filter((r) => r.rule === "dynamic-hallucination").map((r) => r.imageCount)).toEqual([3, 3]);
  });
});
