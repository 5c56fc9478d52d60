import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as labelNextRoute } from "@/app/api/v1/runs/[runId]/label-next/route";
import { createApiKey } from "../auth/api-keys";
import { apiRequest, routeContext } from "../../testkit/testing/api-request";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { NotFoundError, ValidationError } from "../errors";
import { createEndpoint } from "../judge/endpoints/endpoints";

import { createRun } from "../judge/runs/runs";
import { createLabelSet } from "../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { addMember } from "../projects/projects";
import { createQueue } from "../queues/create-queue";
import { metricTarget } from "../reviews/judgment-key";
import { reviewVideoOutcome } from "../reviews/reviews";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { WithheldError } from "../visibility/withheld";
import { labelNextPlan } from "./label-next";
import { builtInCatalogue } from "../task-modules/task-catalogue";

let stub: StubServer;
let owner: Actor;
let reviewer: Actor;
let projectId: string;
let runId: string;
let videoIds: string[];
const judgeVerdict = new Map<string, number>();

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  reviewer = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 6, keyFrames: 1 }));
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: reviewer.email,
    role: "reviewer",
  });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 8,
    requestsPerMinute: null,
    timeoutSeconds: 120,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  runId = (
    await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    )
  ).id;
  for (const m of await prisma.runMetric.findMany({ where: { runId, metric: "verdict" } }))
    judgeVerdict.set(m.videoId, m.value);
  const [v0, v1, v2, v3] = videoIds as [string, string, string, string];
  // v0: the reviewer agrees with the judge; v1: disagrees; v2: a label set agrees; v3: a tie (no human verdict).
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, reviewer, projectId, "scores.review"),
    runId,
    v0,
    "verdict",
    { value: judgeVerdict.get(v0)! },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, reviewer, projectId, "scores.review"),
    runId,
    v1,
    "verdict",
    { value: 1 - judgeVerdict.get(v1)! },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, reviewer, projectId, "scores.review"),
    runId,
    v3,
    "verdict",
    { value: 1 },
  );
  await createLabelSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { name: "paper", format: "t2vhalubench", fileName: "labels.xlsx", sha256: "0".repeat(64), citation: "" },
    [
      { target: metricTarget("hallucination", v2, "", "verdict"), value: judgeVerdict.get(v2)!, annotator: null },
      { target: metricTarget("hallucination", v3, "", "verdict"), value: 0, annotator: null },
    ],
  );
});
afterAll(() => stub.close());

describe("what to label next, from a run's stored verdicts and the humans' labels", () => {
  it("counts reviewers' and label sets' verdicts, proposes only unlabelled videos and gives both intervals", async () => {
    expect(judgeVerdict.size).toBe(6);
    const plan = await labelNextPlan(prisma, owner, projectId, runId, { budget: "2", strata: "2" });
    expect(plan).toMatchObject({
      eligible: 6,
      excluded: 0,
      budget: 2,
      scoreMetric: { id: "overall" },
      verdictMetric: { id: "verdict" },
    });
    expect(plan.strata.reduce((n, s) => n + s.labelled, 0)).toBe(3);
    expect(plan.strata.reduce((n, s) => n + s.agreeing, 0)).toBe(2);
    expect(plan.strata.reduce((n, s) => n + s.proposed, 0)).toBe(2);
    expect(plan.videos).toHaveLength(2);
    const labelled = new Set(videoIds.slice(0, 3));
    for (const video of plan.videos) {
      expect(labelled.has(video.id)).toBe(false);
      expect(video.relativePath).toBe((await prisma.video.findUniqueOrThrow({ where: { id: video.id } })).relativePath);
    }
    expect(plan.expected.halfWidth).toBeLessThan(plan.current.halfWidth);
    expect(plan.current.lower).toBeLessThanOrEqual(plan.current.estimate);
    // The same labels give the same proposal.
    expect((await labelNextPlan(prisma, owner, projectId, runId, { budget: 2, strata: 2 })).videos).toEqual(
      plan.videos,
    );
  });

  it("turns the proposal into a review queue of exactly those videos, in that order", async () => {
    const plan = await labelNextPlan(prisma, owner, projectId, runId, { budget: 3 });
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Label next",
      runId,
      scope: "verdict",
      videoIds: plan.videos.map((v) => v.id),
      chosenBy: "what to label next",
    });
    const items = await prisma.reviewQueueItem.findMany({ where: { queueId: queue.id }, orderBy: { position: "asc" } });
    expect(items.map((i) => i.videoId)).toEqual(plan.videos.map((v) => v.id));
    expect(queue).toMatchObject({ itemCount: 3, filter: { runId, chosen: "what to label next (3)" } });
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        runId,
        scope: "verdict",
        videoIds: ["not-in-run"],
      }),
    ).rejects.toThrow(/not in the judge run: not-in-run/);
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        runId,
        scope: "verdict",
        videoIds: [videoIds[0]!],
        filter: { model: "m" },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("is for owners, and checks its query", async () => {
    // Owners only: the route's wrapper checks queues.manage before the plan is made.
    const reviewerKey = (await createApiKey(prisma, reviewer.userId, "t")).key;
    const refused = await labelNextRoute(
      apiRequest(`/api/v1/runs/${runId}/label-next?budget=2`, reviewerKey),
      routeContext({ runId }),
    );
    expect(refused.status).toBe(403);
    await expect(labelNextPlan(prisma, owner, projectId, runId, { budget: "0" })).rejects.toThrow(/Budget: at least 1/);
    await expect(labelNextPlan(prisma, owner, projectId, runId, { strata: "x" })).rejects.toThrow();
  });

  it("answers a run of another project than the one the caller was checked in as missing", async () => {
    const other = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Another project",
    });
    await expect(labelNextPlan(prisma, owner, other.projectId, runId, { budget: 2 })).rejects.toThrow(
      new NotFoundError("No such run."),
    );
  });

  it("is withheld whole from an owner who reviews some of the run's videos blind, naming the queue; the other owner gets the plan", async () => {
    const coOwner = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: coOwner.userId, role: "owner" } });
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Blind verdicts",
        runId,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[5]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: coOwner.userId },
    });
    const withheld = await labelNextPlan(prisma, coOwner, projectId, runId, { budget: 2 }).catch(
      (error: unknown) => error,
    );
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain(
      'What to label next is hidden while you review "Blind verdicts" blind: 1 item left',
    );
    expect((await labelNextPlan(prisma, owner, projectId, runId, { budget: 2 })).videos.length).toBeGreaterThan(0);
  });
});
