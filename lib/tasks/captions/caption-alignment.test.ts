/**
 * Issue 38 §3: aligning a caption item target on its own (caption_style's "style", one label per caption), on real
 * PostgreSQL with the stub LLM: the style judge scores 3 within ±10% of the reference's words and 2 outside, and the
 * length rules cap a brief caption outside it at 1. The labels agree with that, so the matched values show that
 * judge and labels are compared caption by caption, through the run of the labelled captions' set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { alignableTargets, alignBuiltinJudge } from "../../alignment/align-builtin";
import { labelSetStore } from "../../alignment/label-store";
import { createLabelSet } from "../../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { fixtureVideoName, jsonlBytes } from "../../../testkit/testing/item-files";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";

import { referenceLine } from "../../../testkit/tasks/captions/caption-fixtures";
import { importModelOutputs, importReferenceSet } from "./caption-set-import";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

const VIDEOS = 10;
// 13 words; a 13-word caption is within ±10%, a 3-word one is not.
const REFERENCE = "A red ball rolls down a wooden ramp and stops at the bottom.";
const good = (v: number) => v % 2 === 0;

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub?.close());

describe("aligning a caption item target", () => {
  it("is offered per item, with the style judge's template rewritten", () => {
    const style = alignableTargets(builtInCatalogue().pipelines, "caption_style").find((t) => t.target.id === "style")!;
    expect(style).toMatchObject({
      kind: "score",
      scope: "item",
      valueStep: "length_rules",
      steps: [{ stepId: "style_judge", templateId: "caption-rubric/judge" }],
    });
  });

  it("compares judge and labels caption by caption, judging the labelled captions' set", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: VIDEOS,
      keyFrames: 1,
      uniformFrames: 8,
      name: "Caption alignment",
    });
    const file = (fileName: string, bytes: Uint8Array) => ({ fileName, bytes });
    const reference = await importReferenceSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file(
        "ref.jsonl",
        jsonlBytes(
          ...Array.from({ length: VIDEOS }, (_, v) =>
            referenceLine(v + 1, fixtureVideoName(v), "brief", { reference: REFERENCE }),
          ),
        ),
      ),
    );
    await importModelOutputs(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      reference.set.id!,
      file(
        "alpha.jsonl",
        jsonlBytes(
          ...Array.from({ length: VIDEOS }, (_, v) => ({
            id: v + 1,
            output: good(v) ? "A red ball rolls slowly down a wooden ramp and stops at the end." : "A ball rolls.",
          })),
        ),
      ),
      { model: "alpha" },
    );
    const captions = await prisma.item.findMany({
      where: { projectId, kind: "caption" },
      select: { id: true, videoId: true, setId: true },
    });
    expect(captions).toHaveLength(VIDEOS);
    // Video v is fixtureVideoName(v): its number is in its path.
    const paths = new Map(
      (await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } })).map((r) => [
        r.id,
        r.relativePath,
      ]),
    );
    const videoNumber = (videoId: string) => Number(/number (\d+)-0/.exec(paths.get(videoId)!)![1]);
    expect(new Set(captions.map((c) => videoNumber(c.videoId))).size).toBe(VIDEOS);
    const labelSet = await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      { name: "Caption styles", format: "generic", fileName: "styles.csv", sha256: "5".repeat(64), citation: "" },
      captions.map((c) => ({
        target: {
          task: "caption_style",
          targetType: "score",
          target: "style",
          videoId: c.videoId,
          itemId: c.id,
          stepId: "",
          scopeIndex: 0,
          frameSetId: "",
        },
        value: good(videoNumber(c.videoId)) ? 3 : 1,
        annotator: null,
      })),
    );
    const store = labelSetStore(
      prisma,
      { projectId, labelSetId: labelSet.id, task: "caption_style", target: "style", scope: "item" },
      (v) => v >= 3,
    );
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const report = await alignBuiltinJudge(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines, labels: store },
      await projectAccess(prisma, owner, projectId, "prompts.manage"),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "caption_style",
        targetId: "style",
        judgeEndpointId: endpoint.id,
        optimizerEndpointId: endpoint.id,
        budget: { maxCalls: 1000, maxCostUsd: 10 },
        seed: 2,
        rewrites: 1,
      },
    );
    expect(report).toMatchObject({ templateId: "caption-rubric/judge", stepId: "style_judge", targetKind: "score" });
    const baseline = report.candidates.find((c) => c.kind === "baseline")!;
    // One caption per train video, each matched with its own label: full agreement, nothing for the optimizer to fix.
    expect(baseline.train).toMatchObject({ n: report.split.train.length, kappa: 1 });
    expect(report.skipped).toContain("rewrite 1: no train disagreements left to learn from");
    expect(report.heldOut!.baseline).toMatchObject({ n: report.split.heldOut.length, kappa: 1 });
    // The runs judged the labelled captions' set.
    const run = await prisma.judgeRun.findUniqueOrThrow({
      where: { id: baseline.trainRunId },
      select: { items: { select: { itemId: true } } },
    });
    expect(run.items.length).toBe(report.split.train.length);
    expect(new Set(run.items.map((i) => i.itemId))).toEqual(
      new Set(captions.filter((c) => report.split.train.includes(c.videoId)).map((c) => c.id)),
    );
  }, 300_000);
});
