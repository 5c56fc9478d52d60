/**
 * The VBench-2.0 results page's data on PostgreSQL with the stub LLM (a test tool): the label set it shows VBench's own
 * values from (the newest unless the query names one or none), each dimension's videos a page at a time (all,
 * excluded or disagreeing), and the frames each question was asked with, matched to the run's frame set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { importVbenchResults } from "@/lib/label-sets/label-sets";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";

import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import {
  chosenLabelSetId,
  framesAt,
  runFrameStrips,
  vbench2PageChoices,
  vbench2PageQuerySchema,
  videoSlice,
} from "./page-data";
import { stubEndpoint, vbench2Project } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import type { VisibleVideoResult } from "./visible-results";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

describe("the label set the results page shows VBench's own values from", () => {
  it("is the project's newest VBench results unless the query names one, or none", async () => {
    const { projectId } = await vbench2Project(prisma, owner, [
      { model: "GenA", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?"] },
    ]);
    const file = (value: number) =>
      new TextEncoder().encode(
        JSON.stringify({
          Material: [value, [{ video_path: "GenA/Material/Paint mixes-0.mp4", video_results: value }]],
        }),
      );
    const older = await importVbenchResults(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: file(0),
      fileName: "a_eval_results.json",
      name: "older",
      dryRun: false,
    });
    const newer = await importVbenchResults(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: file(1),
      fileName: "b_eval_results.json",
      name: "newer",
      dryRun: false,
    });
    const { labelSets } = await vbench2PageChoices(prisma, projectId, builtInCatalogue());
    expect(labelSets.map((set) => set.name)).toEqual(["newer", "older"]);

    const parse = (query: Record<string, string>) => vbench2PageQuerySchema.parse(query);
    expect(chosenLabelSetId(parse({}), labelSets)).toBe(newer.labelSet!.id);
    expect(chosenLabelSetId(parse({ labelSetId: older.labelSet!.id }), labelSets)).toBe(older.labelSet!.id);
    expect(chosenLabelSetId(parse({ labelSetId: "none" }), labelSets)).toBeNull();
    expect(chosenLabelSetId(parse({}), [])).toBeNull();
    // A bad filter or page is not understood (the page says so and ignores it).
    expect(vbench2PageQuerySchema.safeParse({ show: "everything" }).success).toBe(false);
    expect(vbench2PageQuerySchema.safeParse({ page: "0" }).success).toBe(false);
  });
});

const video = (id: string, patch: Partial<VisibleVideoResult> = {}): VisibleVideoResult => ({
  videoId: id,
  videoPath: `GenA/Material/${id}-0.mp4`,
  model: "GenA",
  prompt: id,
  value: 1,
  excludedReason: null,
  humanValue: null,
  humanExcludedReason: null,
  vbenchValue: null,
  deviation: null,
  questions: [{ question: "q?", answer: "Yes", yes: true, notAsked: null, frames: [], human: null }],
  blind: false,
  ...patch,
});

describe("a dimension's videos on the results page", () => {
  const videos = [
    ...Array.from({ length: 23 }, (_, i) => video(`v${String(i).padStart(2, "0")}`)),
    video("excluded", { value: null, excludedReason: "the answer to question 1 is no" }),
    video("people-differ", {
      questions: [{ question: "q?", answer: "Yes", yes: true, notAsked: null, frames: [], human: false }],
    }),
    video("vbench-differs", { value: 1, vbenchValue: 0 }),
    video("vbench-minus-one", { value: 1, vbenchValue: -1 }),
    video("blind", { blind: true, value: null, vbenchValue: 0 }),
  ];

  it("come ten to a page, the last page holding the rest; a page past the end is the last", () => {
    expect(videoSlice(videos, "all", 1)).toMatchObject({
      page: 1,
      pages: 3,
      first: 0,
      matching: 28,
      counts: { all: 28, excluded: 1, disagreeing: 2 },
    });
    expect(videoSlice(videos, "all", 1).videos).toHaveLength(10);
    const last = videoSlice(videos, "all", 3);
    expect(last.videos.map((v) => v.videoId)).toEqual(videos.slice(20).map((v) => v.videoId));
    expect(videoSlice(videos, "all", 99)).toMatchObject({ page: 3, first: 20 });
  });

  it("filter to those the judge excluded, or where it disagrees with people or with VBench (not VBench's -1, not a blind video)", () => {
    expect(videoSlice(videos, "excluded", 1).videos.map((v) => v.videoId)).toEqual(["excluded"]);
    expect(videoSlice(videos, "disagreeing", 1).videos.map((v) => v.videoId)).toEqual([
      "people-differ",
      "vbench-differs",
    ]);
    expect(videoSlice([], "disagreeing", 1)).toMatchObject({ videos: [], page: 1, pages: 1, matching: 0 });
  });
});

describe("the frames of a question", () => {
  it("are the run's frames at the times the question was asked with, as the prompt gave them", async () => {
    // 70 frames at 8 fps: VBench's last frame is index 69, at 8.625 s (the prompt says "8.62s").
    const { projectId, videoIds } = await vbench2Project(prisma, owner, [
      {
        model: "GenA",
        dimension: "Material",
        prompt: "Paint mixes",
        auxiliaryInfo: ["[yes] mix?", "[yes] green?"],
        fps: 8,
        frameCount: 70,
      },
      {
        model: "GenB",
        dimension: "Material",
        prompt: "Paint mixes",
        auxiliaryInfo: ["[yes] mix?", "[no] green?"],
        fps: 8,
        frameCount: 70,
      },
    ]);
    const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
    );
    const strips = await runFrameStrips(prisma, run.id, [videoIds[0]!]);
    expect([...strips.keys()]).toEqual([videoIds[0]]);
    const strip = strips.get(videoIds[0]!)!;
    expect(strip).toHaveLength(64);
    expect(strip.at(-1)!.seconds).toBe(8.625);

    const summary = (
      await prisma.runVideo.findUniqueOrThrow({
        where: { runId_videoId: { runId: run.id, videoId: videoIds[0]! } },
        select: { summary: true },
      })
    ).summary as {
      dimensions: { Material: { questions: { frames: number[] }[] } };
    };
    const times = summary.dimensions.Material.questions[0]!.frames;
    expect(times).toHaveLength(64);
    const frames = framesAt(strip, times);
    expect(frames.map((f) => f.seconds)).toEqual(times);
    const stored = await prisma.frame.findMany({
      where: { id: { in: frames.map((f) => f.id) } },
      select: { index: true },
    });
    expect(stored.map((f) => f.index).sort((a, b) => a - b)).toContain(69);
    // A time no frame of the strip has is left out.
    expect(framesAt(strip, [0, 0.01])).toHaveLength(1);
  });
});
