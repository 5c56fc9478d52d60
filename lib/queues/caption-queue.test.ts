/**
 * Reviewing captions: queues over a caption run's judged captions (one caption per item, blind or
 * not), reviewers' own style scores and key-point values saved against the caption's targets, and
 * the agreement report broken down by caption type and by the caption's model. Real PostgreSQL, real
 * caption runs against the stub LLM (style: 3 within ±10% of the reference's words, else 2; a key
 * point is hit when it shares a content word with the caption).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema } from "../agreement/report-filter";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { importModelOutputs, importReferenceSet } from "../tasks/captions/caption-set-import";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { createRunSchema } from "../judge/runs/run-input.validation";

import { createRun } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { reviewScore, videoReviews } from "../reviews/reviews";
import { jsonlBytes } from "../../testkit/testing/item-files";
import { smallReferenceSet } from "../../testkit/tasks/captions/caption-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createQueue } from "./create-queue";
import { getQueueItem } from "./get-queue-item";
import { nextItem } from "./next-item";
import { submitItem } from "./submit-item";
import { builtInCatalogue } from "../task-modules/task-catalogue";

let stub: StubServer;
let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let styleRun: string;
let contentRun: string;

const file = (fileName: string, bytes: Uint8Array) => ({ fileName, bytes });

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  ({ projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1, uniformFrames: 8 }));
  for (const who of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: who.userId, role: "reviewer" } });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 8,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  const reference = await importReferenceSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    file("ref.jsonl", jsonlBytes(...smallReferenceSet())),
  );
  const setId = reference.set.id!;
  await importModelOutputs(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    setId,
    file(
      "alpha.jsonl",
      jsonlBytes(
        { id: 1, output: "A red ball rolls down a wooden ramp and stops." }, // brief, 10 vs 13 words: 2 → capped 1
        {
          id: 2,
          output:
            "A small red rubber ball starts at the top of a long wooden ramp, rolls steadily downward past a blue marker, and comes to rest on the floor.",
        }, // detail: 3
        { id: 3, output: "Ball goes down,\nball is round." }, // poem: 2
        { id: 4, output: "A red sphere rolls down the ramp." }, // action: key point 1 of 3
      ),
    ),
    { model: "alpha" },
  );
  await importModelOutputs(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    setId,
    file(
      "beta.jsonl",
      jsonlBytes(
        { id: 1, output: "A red ball rolls down a wooden ramp and stops at last." }, // brief: 3
        { id: 4, output: "A hand pushes the ball, which rolls down the ramp and stops on the floor." }, // action: 3 of 3
      ),
    ),
    { model: "beta" },
  );
  const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
  styleRun = (
    await createRun(
      deps,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({
        pipeline: "caption_style",
        endpointId: endpoint.id,
        captionSetId: setId,
      }),
    )
  ).id;
  contentRun = (
    await createRun(
      deps,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({
        pipeline: "caption_content",
        endpointId: endpoint.id,
        captionSetId: setId,
      }),
    )
  ).id;
});
afterAll(() => stub.close());

const captionOf = (model: string, type: string) =>
  prisma.item.findFirstOrThrow({ where: { projectId, kind: "caption", model, group: type } });

describe("queues over captions", () => {
  it("makes one item per judged caption, filtered by model and type, and refuses the video queue types for a caption run", async () => {
    const all = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "all styles",
      runId: styleRun,
      scope: "captions",
      filter: {},
    });
    expect(all.itemCount).toBe(4); // alpha brief, detail, poem; beta brief (the action captions are not style-judged)
    const alpha = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "alpha",
      runId: styleRun,
      scope: "captions",
      captions: { model: "alpha", type: "brief" },
      filter: {},
    });
    const items = await prisma.reviewQueueItem.findMany({ where: { queueId: alpha.id } });
    expect(items.map((i) => i.itemId)).toEqual([(await captionOf("alpha", "brief")).id]);
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        runId: styleRun,
        scope: "verdict",
        filter: {},
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "x",
        runId: styleRun,
        scope: "captions",
        captions: { model: "gamma" },
        filter: {},
      }),
    ).rejects.toThrow(/queue would be empty/);
  });

  it("shows the caption and its reviewable style score; blind until submitted; the judgment belongs to the caption", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "blind alpha brief",
      runId: styleRun,
      scope: "captions",
      captions: { model: "alpha", type: "brief" },
      filter: {},
      blind: true,
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, ann, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, ann, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(item.caption).toMatchObject({
      model: "alpha",
      captionType: "brief",
      output: "A red ball rolls down a wooden ramp and stops.",
      reference: "A red ball rolls down a wooden ramp and stops at the bottom.",
    });
    // Only the counted style score: the judge's raw score is not something reviewers give.
    expect(item.targets.map((t) => [t.category, t.label, t.min, t.max])).toEqual([["style", "Style score", 0, 4]]);
    expect(item.blind).toBe(true);
    expect(item.targets[0]).not.toHaveProperty("judge");
    // The caption's scores are withheld on the video's reviews too while blind.
    expect(
      (await videoReviews(prisma, await projectAccess(prisma, ann, projectId, "project.view"), item.video.id)).blind,
    ).toBe(true);

    await submitItem(prisma, await queueAccess(prisma, ann, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: [{ target: item.targets[0]!.key, value: 2, note: "too short, but accurate" }],
    });
    const after = await getQueueItem(
      prisma,
      await queueAccess(prisma, ann, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(after.targets[0]).toMatchObject({
      judge: 1,
      mine: { value: 2, note: "too short, but accurate", version: 1 },
    });
    const saved = await prisma.humanJudgment.findFirstOrThrow({ where: { reviewerId: ann.userId } });
    expect(saved).toMatchObject({
      task: "caption_style",
      target: "style",
      itemId: (await captionOf("alpha", "brief")).id,
      frameSetId: "",
      gap: 0.8,
      judgeValue: 1,
    });
  });

  it("labels each key point of a content caption with its text and saves 0/1 values", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "beta content",
      runId: contentRun,
      scope: "captions",
      captions: { model: "beta" },
      filter: {},
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, bob, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(
      prisma,
      await queueAccess(prisma, bob, queue.id, "scores.review"),
      queue.id,
      itemId!,
    );
    expect(item.targets.map((t) => [t.category, t.label, t.judge])).toEqual([
      ["kp:1", "Key point 1: the ball rolls down the ramp", 1],
      ["kp:2", "Key point 2: the ball stops on the floor", 1],
      ["kp:3", "Key point 3: a hand pushes the ball", 1],
    ]);
    await expect(
      submitItem(prisma, await queueAccess(prisma, bob, queue.id, "scores.review"), queue.id, itemId!, {
        judgments: item.targets.map((t) => ({ target: t.key, value: 2 })),
      }),
    ).rejects.toThrow(/hit|missed|one of/);
    await submitItem(prisma, await queueAccess(prisma, bob, queue.id, "scores.review"), queue.id, itemId!, {
      judgments: item.targets.map((t, i) => ({ target: t.key, value: i === 2 ? 0 : 1 })),
    });
    const judgments = await prisma.humanJudgment.findMany({
      where: { reviewerId: bob.userId },
      orderBy: { target: "asc" },
    });
    expect(judgments.map((j) => [j.target, j.value, j.disagrees])).toEqual([
      ["kp:1", 1, false],
      ["kp:2", 1, false],
      ["kp:3", 0, true],
    ]);
  });
});

describe("agreement on captions", () => {
  it("breaks down by caption type and by the caption's model", async () => {
    // Ann and Bob give style scores to the captions outside the queues (the caption page's route).
    const styleScores = await prisma.score.findMany({
      where: { runId: styleRun, category: "style" },
      include: { stepResult: { select: { itemId: true } } },
    });
    const items = await prisma.item.findMany({ where: { id: { in: styleScores.map((s) => s.itemId) } } });
    const byItem = new Map(items.map((i) => [i.id, i]));
    for (const score of styleScores) {
      const caption = byItem.get(score.itemId)!;
      if (caption.model === "alpha" && caption.group === "brief") continue; // ann judged it in the queue
      await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), score.id, {
        value: caption.model === "beta" ? 3 : 1,
      });
    }
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId: styleRun }),
    );
    expect(report.summary).toMatchObject({ reviewedItems: 4, judgments: 4 });
    expect(report.groupings.map((g) => g.id)).toContain("caption_type");
    expect(report.breakdowns.caption_type!.map((g) => [g.key, g.items])).toEqual([
      ["brief", 2],
      ["detail", 1],
      ["poem", 1],
    ]);
    expect(report.breakdowns.model.map((g) => [g.key, g.items]).sort()).toEqual([
      ["alpha", 3],
      ["beta", 1],
    ]);
    const content = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId: contentRun }),
    );
    // Bob's three key points of beta's action caption: judge hit all three, Bob says the third missed.
    expect(content.summary).toMatchObject({ reviewedItems: 3 });
    expect(content.breakdowns.caption_type!.map((g) => [g.key, g.items])).toEqual([["action", 3]]);
    expect(content.confusion.all.cells.map((c) => [c.human, c.judge, c.count])).toEqual([
      [1, 1, 2],
      [1, 0, 0],
      [0, 1, 1],
      [0, 0, 0],
    ]);
  });
});
