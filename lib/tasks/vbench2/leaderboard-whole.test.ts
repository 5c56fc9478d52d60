/**
 * VBench-2.0's leaderboard and results file are whole or withheld, and a generator's scores follow the run's rules,
 * on PostgreSQL with the stub LLM (a test tool). An owner who reviews a blind queue over some of the run's videos
 * gets no leaderboard, CSV, LaTeX or eval_results (409 `withheld`, naming the queue and the items they have left),
 * never one computed from the other videos; once they have submitted them they get what a viewer gets. A generator
 * whose Motion_Order_Understanding videos are all -1 scores 0 there, as VBench gives and as its own run says.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { queueAccess } from "@/testkit/testing/queue-access";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { nextItem } from "@/lib/queues/next-item";

import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { WithheldError } from "@/lib/visibility/withheld";
import { GET as getResults } from "./routes/run-vbench2";
import { GET as getLeaderboard } from "./routes/vbench2-leaderboard";
import { vbench2Leaderboard } from "./leaderboard";
import { evalResultsOf, vbench2RunResults } from "./results";
import { stubEndpoint, vbench2Project, type Vbench2VideoSpec } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import { vbench2ResultsView, visibleEvalResults } from "./visible-results";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
let viewer: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;

/** GenB's Material videos 0 and 1 are the blind queue's; GenA's Motion_Order_Understanding video is -1 (the order has no "2."). */
const VIDEOS: Vbench2VideoSpec[] = [
  { model: "GenB", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[yes] green?"] },
  { model: "GenB", dimension: "Material", prompt: "Wax melts", auxiliaryInfo: ["[yes] wax?", "[yes] melts?"] },
  { model: "GenA", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[no] green?"] },
  { model: "GenA", dimension: "Material", prompt: "Wax melts", auxiliaryInfo: ["[yes] wax?", "[yes] melts?"] },
  {
    model: "GenA",
    dimension: "Motion_Order_Understanding",
    prompt: "Sits then sweeps",
    auxiliaryInfo: ["[yes] sitting", "[yes] sweeping"],
  },
];

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, viewer] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await vbench2Project(prisma, owner, VIDEOS));
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  stub.addFault({
    fault: { kind: "content", content: "The person sits down." },
    match: "Return the action order in video",
    times: 1,
  });
  const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
  const run = await createRun(
    { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
  );
  runId = run.id;
}, 120_000);
afterAll(() => stub.close());

async function bearer(actor: Actor) {
  return { authorization: `Bearer ${(await createApiKey(prisma, actor.userId, "t")).key}` };
}

describe("a generator's scores on the VBench-2.0 leaderboard", () => {
  it("follow the run's rules: Motion_Order_Understanding all -1 is 0, not an empty cell, and each generator's total is its own run's", async () => {
    const board = await vbench2Leaderboard(prisma, viewer, projectId, { runId, samples: 200, seed: 3 });
    const genA = board.generators.find((g) => g.model === "GenA")!;
    expect(genA.dimensions.Motion_Order_Understanding).toMatchObject({ score: 0, n: 0, excluded: 1, source: "judge" });
    for (const generator of board.generators) {
      const own = await vbench2RunResults(prisma, projectId, runId, { model: generator.model });
      for (const d of own.dimensions)
        expect(generator.dimensions[d.dimension]!.score, `${generator.model} ${d.dimension}`).toBe(d.score);
      expect(generator.total.value).toBeCloseTo(own.total, 12);
    }
    // The run's own Motion_Order_Understanding score over GenA's one video says the same.
    const run = await vbench2RunResults(prisma, projectId, runId);
    expect(run.dimensions.find((d) => d.dimension === "Motion_Order_Understanding")).toMatchObject({
      score: 0,
      excluded: 1,
    });
  });
});

describe("while the owner reviews GenB's videos in a blind queue", () => {
  let queueId: string;
  beforeAll(async () => {
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "Blind Material",
        runId,
        scope: "scores",
        blind: true,
        itemCount: 2,
        createdById: owner.userId,
      },
    });
    queueId = queue.id;
    for (const [position, videoId] of videoIds.slice(0, 2).entries())
      await prisma.reviewQueueItem.create({ data: { queueId, videoId, position } });
    await nextItem(prisma, await queueAccess(prisma, owner, queueId, "scores.review"), queueId);
  });

  it("withholds the whole leaderboard, naming the queue and the items left, in JSON, CSV and LaTeX alike", async () => {
    const withheld = await vbench2Leaderboard(prisma, owner, projectId, { runId, samples: 200, seed: 3 }).catch(
      (error: unknown) => error,
    );
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain(
      'hidden while you review "Blind Material" blind: 2 items left',
    );
    expect((withheld as WithheldError).withheld).toEqual({
      queues: [{ id: queueId, name: "Blind Material", itemsLeft: 2 }],
      blindVideos: 2,
    });

    const headers = await bearer(owner);
    for (const format of ["json", "csv", "latex"]) {
      const response = await getLeaderboard(
        new Request(`http://x/?runId=${runId}&samples=200&format=${format}`, { headers }),
        { params: Promise.resolve({ projectId }) },
      );
      expect(response.status, format).toBe(409);
      const body = (await response.json()) as {
        error: {
          code: string;
          message: string;
          details: { withheld: { queues: { name: string; itemsLeft: number }[] } };
        };
      };
      expect(body.error.code).toBe("withheld");
      expect(body.error.details.withheld.queues).toEqual([{ id: queueId, name: "Blind Material", itemsLeft: 2 }]);
    }
    // A viewer who reviews nothing gets the whole board.
    const response = await getLeaderboard(
      new Request(`http://x/?runId=${runId}&samples=200`, { headers: await bearer(viewer) }),
      { params: Promise.resolve({ projectId }) },
    );
    expect(response.status).toBe(200);
  });

  it("withholds GenB's eval_results file, and gives GenA's whole (none of its videos is blind)", async () => {
    const headers = await bearer(owner);
    const get = (model: string) =>
      getResults(new Request(`http://x/?format=eval_results&model=${model}`, { headers }), {
        params: Promise.resolve({ runId }),
      });
    const genB = await get("GenB");
    expect(genB.status).toBe(409);
    expect(((await genB.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "withheld",
      message: expect.stringContaining('"Blind Material" blind: 2 items left'),
    });
    const genA = await get("GenA");
    expect(genA.status).toBe(200);
    expect(await genA.json()).toEqual(
      evalResultsOf(await vbench2RunResults(prisma, projectId, runId, { model: "GenA" })),
    );
  });

  it("withholds the whole results JSON and page view from the owner (no counts or scores beside redacted videos); the viewer gets them whole", async () => {
    const response = await getResults(new Request("http://x/?format=json", { headers: await bearer(owner) }), {
      params: Promise.resolve({ runId }),
    });
    expect(response.status).toBe(409);
    const body = (await response.json()) as {
      error: { code: string; message: string; details: { withheld: unknown } };
    };
    expect(body.error).toMatchObject({
      code: "withheld",
      message: expect.stringContaining(
        'The VBench-2.0 results view is hidden while you review "Blind Material" blind: 2 items left',
      ),
    });
    expect(body.error.details.withheld).toEqual({
      queues: [{ id: queueId, name: "Blind Material", itemsLeft: 2 }],
      blindVideos: 2,
    });
    const view = await vbench2ResultsView(prisma, owner, projectId, runId);
    expect(view.results).toBeNull();
    expect(view.withheld).toEqual({ queues: [{ id: queueId, name: "Blind Material", itemsLeft: 2 }], blindVideos: 2 });
    // GenA's file is still whole (none of its videos is blind), GenB's is not.
    expect(view.generators).toEqual([
      { model: "GenA", withheld: false },
      { model: "GenB", withheld: true },
    ]);
    const theirs = await getResults(new Request("http://x/?format=json", { headers: await bearer(viewer) }), {
      params: Promise.resolve({ runId }),
    });
    expect(theirs.status).toBe(200);
  });

  it("gives the owner the viewer's board and file once they have submitted both items, and not before", async () => {
    await expect(visibleEvalResults(prisma, owner, projectId, runId, { model: "GenB" })).rejects.toBeInstanceOf(
      WithheldError,
    );
    await prisma.reviewQueueAssignment.updateMany({
      where: { queueId, reviewerId: owner.userId },
      data: { status: "done", doneAt: new Date() },
    });
    for (const item of await prisma.reviewQueueItem.findMany({ where: { queueId } })) {
      await prisma.reviewQueueAssignment.upsert({
        where: { itemId_reviewerId: { itemId: item.id, reviewerId: owner.userId } },
        create: { itemId: item.id, queueId, reviewerId: owner.userId, status: "done", doneAt: new Date() },
        update: {},
      });
      await prisma.reviewQueueItem.update({ where: { id: item.id }, data: { doneCount: 1 } });
    }
    const mine = await vbench2Leaderboard(prisma, owner, projectId, { runId, samples: 200, seed: 3 });
    const theirs = await vbench2Leaderboard(prisma, viewer, projectId, { runId, samples: 200, seed: 3 });
    expect(mine).toEqual(theirs);
    expect(mine.generators.map((g) => g.model)).toEqual(["GenB", "GenA"]);
    const json = async (actor: Actor) =>
      (
        await getResults(new Request("http://x/?format=json", { headers: await bearer(actor) }), {
          params: Promise.resolve({ runId }),
        })
      ).json();
    expect(await json(owner)).toEqual(await json(viewer));
    expect(await vbench2ResultsView(prisma, owner, projectId, runId)).toEqual(
      await vbench2ResultsView(prisma, viewer, projectId, runId),
    );
    expect(await visibleEvalResults(prisma, owner, projectId, runId, { model: "GenB" })).toEqual(
      evalResultsOf(await vbench2RunResults(prisma, projectId, runId, { model: "GenB" })),
    );
  });
});

describe("the eval_results file", () => {
  it("keeps VBench's -1 for an excluded video, and writes -1, not 0, for a video the judge gave no value: the score leaves both out", async () => {
    const genA = await vbench2RunResults(prisma, projectId, runId, { model: "GenA" });
    const file = evalResultsOf(genA);
    expect(file.Motion_Order_Understanding).toEqual([
      0,
      [{ video_path: "GenA/Motion_Order_Understanding/Sits then sweeps-0.mp4", video_results: -1 }],
    ]);
    // Material: GenA's paint fails question 2 (0), its wax passes (1): the score is their mean.
    const [score, videos] = file.Material!;
    expect(videos.map((v) => v.video_results).sort()).toEqual([0, 1]);
    expect(score).toBe(0.5);

    const material = genA.dimensions.find((d) => d.dimension === "Material")!;
    const unknown = {
      ...material,
      videos: material.videos.map((v, i) => (i === 0 ? { ...v, value: null, excludedReason: null } : v)),
    };
    const withUnknown = evalResultsOf({ ...genA, dimensions: [unknown] });
    expect(withUnknown.Material![1].map((v) => v.video_results)).toContain(-1);
    expect(withUnknown.Material![1].map((v) => v.video_results)).not.toContain(0);
  });
});
