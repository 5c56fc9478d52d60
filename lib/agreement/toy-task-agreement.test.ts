import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { disagreesWithJudge } from "../reviews/disagreement";
import { krippendorffAlpha } from "../stats/krippendorff-alpha";
import { RatingTableBuilder } from "../stats/rating-table";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { disagreementGapOf, type TaskDeclaration } from "../task-modules/task-declaration";
import { declarationProblems } from "../../testkit/testing/declaration-problems";
import { insertJudgment } from "../../testkit/testing/judgments";
import { loadAgreementInput } from "./load";
import { agreementReport } from "./report/agreement-report";
import { agreementQuerySchema, resolveReportFilter } from "./report-filter";
import { DEFAULT_AGREEMENT_OPTIONS, WORST_TARGET } from "./types";
import { builtInCatalogue } from "../task-modules/task-catalogue";

/*
 * A judge task that is not hallucination, registered only here (passed to the loader): caption-like
 * targets on a 0–4 scale where higher is better and ≥ 3 is positive, grouped by "type"; a reviewed
 * 0–4 "quality" metric that is swept, and a yes/no "acceptable" verdict. If the agreement report
 * still read hallucination's rules (≥ 5 on 0–10, categories s/d, sweep of S/D/I) every assertion
 * below would fail.
 */
const zeroToFour = { kind: "numeric", min: 0, max: 4, step: 1 } as const;
const good = { op: ">=", threshold: 3, label: "good caption" } as const;
const TOY_TASK: TaskDeclaration = {
  id: "toy_caption",
  label: "Toy caption judge",
  subject: "video",
  targets: [
    {
      id: "style",
      label: "Style",
      definition: "Follows the requested style.",
      scale: zeroToFour,
      level: "ordinal",
      higherIsBetter: true,
      scope: "video",
      positive: good,
      groups: { type: "form" },
    },
    {
      id: "keypoints",
      label: "Key points",
      definition: "Covers the key points.",
      scale: zeroToFour,
      level: "ordinal",
      higherIsBetter: true,
      scope: "video",
      positive: good,
      groups: { type: "content" },
    },
  ],
  metrics: [
    {
      id: "quality",
      label: "Quality",
      definition: "Mean of style and key points.",
      aggregation: "mean",
      scale: { kind: "numeric", min: 0, max: 4, step: null },
      level: "ordinal",
      higherIsBetter: true,
      positive: good,
      reviewed: true,
      sweep: true,
    },
    {
      id: "acceptable",
      label: "Acceptable",
      definition: "Would you ship this caption?",
      aggregation: "quality ≥ 3",
      scale: {
        kind: "categorical",
        values: [
          { value: 1, label: "yes" },
          { value: 0, label: "no" },
        ],
      },
      level: "nominal",
      higherIsBetter: true,
      positive: { op: "==", value: 1, label: "acceptable" },
      reviewed: true,
    },
  ],
  verdict: { metricId: "acceptable", rule: "quality ≥ 3" },
  groupings: [
    {
      id: "type",
      label: "Caption type",
      values: [
        { id: "form", label: "Form" },
        { id: "content", label: "Content" },
      ],
    },
  ],
  sweepWorstTarget: true,
};

let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let runId: string;

// Per video: the judge's style and key-point scores, its quality and verdict, and the reviewers' values.
const STYLE_JUDGE = [4, 2, 3, 1];
const STYLE_ANN = [3, 3, 1, 0];
const STYLE_BOB = [4, 3, 1, 1];
const KEYPOINTS_JUDGE = [3, 0, 4, 1];
const KEYPOINTS_ANN = [4, 1, 4, 0];
const QUALITY_JUDGE = [3.5, 1, 2.5, 0.5];
const QUALITY_ANN = [3, 2, 3, 0];
const ACCEPTABLE_JUDGE = [1, 0, 0, 0];
const ACCEPTABLE_ANN = [1, 0, 1, 0];

async function judge(
  reviewer: Actor,
  target: {
    type: string;
    target: string;
    stepId?: string;
    videoId: string;
    scoreId?: string;
    declaration: Parameters<typeof disagreesWithJudge>[0] & object;
  },
  value: number,
  judgeValue: number,
) {
  await insertJudgment(prisma, {
    projectId,
    task: TOY_TASK.id,
    targetType: target.type,
    target: target.target,
    stepId: target.stepId ?? "",
    videoId: target.videoId,
    reviewerId: reviewer.userId,
    value,
    runId,
    scoreId: target.scoreId ?? null,
    judgeValue,
    gap: disagreementGapOf(target.declaration),
    disagrees: disagreesWithJudge(target.declaration, value, judgeValue),
  });
}

beforeAll(async () => {
  expect(declarationProblems(TOY_TASK)).toEqual([]);
  [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const project = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 1, name: "Toy task" });
  projectId = project.projectId;
  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId,
      name: "captioner",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "stub-model",
      createdById: owner.userId,
    },
  });
  const run = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline: TOY_TASK.id,
      endpointId: endpoint.id,
      createdById: owner.userId,
      status: "done",
      endpointSnapshot: { name: endpoint.name, model: endpoint.model },
    },
  });
  runId = run.id;
  const [style, keypoints] = TOY_TASK.targets;
  const [quality, acceptable] = TOY_TASK.metrics;
  for (const [v, videoId] of project.videoIds.entries()) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId }, select: { id: true } });
    const step = await prisma.stepResult.create({
      data: {
        runId,
        videoId,
        stepId: "caption_judge",
        scopeIndex: 0,
        status: "done",
        templateId: "toy/caption",
        templateHash: "cccccccccccccccc",
      },
    });
    const styleScore = await prisma.score.create({
      data: {
        runId,
        videoId,
        stepResultId: step.id,
        stepId: "caption_judge",
        scopeIndex: 0,
        category: "style",
        value: STYLE_JUDGE[v]!,
      },
    });
    const keypointScore = await prisma.score.create({
      data: {
        runId,
        videoId,
        stepResultId: step.id,
        stepId: "caption_judge",
        scopeIndex: 0,
        category: "keypoints",
        value: KEYPOINTS_JUDGE[v]!,
      },
    });
    await createRunVideo(prisma, {
      runId,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: {},
      metrics: { quality: QUALITY_JUDGE[v], acceptable: ACCEPTABLE_JUDGE[v] },
    });
    const styleTarget = {
      type: "score",
      target: "style",
      stepId: "caption_judge",
      scoreId: styleScore.id,
      videoId,
      declaration: style!,
    };
    await judge(ann, styleTarget, STYLE_ANN[v]!, STYLE_JUDGE[v]!);
    await judge(bob, styleTarget, STYLE_BOB[v]!, STYLE_JUDGE[v]!);
    await judge(
      ann,
      {
        type: "score",
        target: "keypoints",
        stepId: "caption_judge",
        scoreId: keypointScore.id,
        videoId,
        declaration: keypoints!,
      },
      KEYPOINTS_ANN[v]!,
      KEYPOINTS_JUDGE[v]!,
    );
    await judge(
      ann,
      { type: "quality", target: "quality", videoId, declaration: quality! },
      QUALITY_ANN[v]!,
      QUALITY_JUDGE[v]!,
    );
    await judge(
      ann,
      { type: "acceptable", target: "acceptable", videoId, declaration: acceptable! },
      ACCEPTABLE_ANN[v]!,
      ACCEPTABLE_JUDGE[v]!,
    );
  }
});

async function toyReport(options: Partial<typeof DEFAULT_AGREEMENT_OPTIONS> = {}) {
  const scope = await resolveReportFilter(
    prisma,
    projectId,
    agreementQuerySchema(builtInCatalogue()).parse({}),
    owner.userId,
  );
  const input = await loadAgreementInput(prisma, scope, [TOY_TASK]);
  return { input, report: agreementReport(input, { ...DEFAULT_AGREEMENT_OPTIONS, iterations: 50, ...options }) };
}

function pairAlpha(a: readonly number[], b: readonly number[], level: "ordinal" | "interval" | "nominal") {
  const builder = new RatingTableBuilder();
  a.forEach((x, i) => {
    builder.add(String(i), "a", x, i);
    builder.add(String(i), "b", b[i]!, i);
  });
  return krippendorffAlpha(builder.build(), level)!;
}

describe("the agreement report of a task that is not hallucination (declared in the test)", () => {
  it("loads the task's targets and metrics with the task's sweep values", async () => {
    const { input } = await toyReport();
    expect(input.tasks).toEqual([TOY_TASK]);
    expect(new Set(input.items.map((i) => i.targetType))).toEqual(new Set(["score", "quality", "acceptable"]));
    const verdicts = input.items.filter((i) => i.targetType === "acceptable");
    expect(verdicts).toHaveLength(4);
    // the sweep's values: the swept metric and the worst target, the LOWEST score since higher is better
    expect(verdicts.map((i) => i.videoValues).sort((a, b) => a!.quality! - b!.quality!)).toEqual([
      { quality: 0.5, [WORST_TARGET]: 1 },
      { quality: 1, [WORST_TARGET]: 0 },
      { quality: 2.5, [WORST_TARGET]: 3 },
      { quality: 3.5, [WORST_TARGET]: 3 },
    ]);
  });

  it("binarises by the declared positive rule (≥ 3), overridable per target", async () => {
    const { report } = await toyReport();
    // style consensus (median of Ann and Bob): 3.5, 3, 1, 0.5 → positive 1,1,0,0; judge 4,2,3,1 → 1,0,1,0
    // key points: Ann 4,1,4,0 → 1,0,1,0; judge 3,0,4,1 → 1,0,1,0
    // cells (human, judge) = (1,1), (1,0), (0,1), (0,0)
    expect(report.confusion.score.cells.map((c) => c.count)).toEqual([3, 1, 1, 3]);
    // quality: Ann 3,2,3,0 → 1,0,1,0; judge 3.5,1,2.5,0.5 → 1,0,0,0
    expect(report.confusion.quality!.cells.map((c) => c.count)).toEqual([1, 1, 0, 2]);
    expect(report.confusion.acceptable!.cells.map((c) => c.count)).toEqual([1, 1, 0, 2]);
    // threshold.style = 2: style consensus → 1,1,0,0; judge → 1,1,1,0; key points unchanged
    const lowered = (await toyReport({ thresholds: { style: 2 } })).report;
    expect(lowered.confusion.score.cells.map((c) => c.count)).toEqual([4, 0, 1, 3]);
  });

  it("computes α at each declared measurement level", async () => {
    const { report } = await toyReport();
    const quality = report.humanVsJudge.consensus.native.quality!;
    expect(quality.n).toBe(4);
    expect(quality.values.alpha).toBeCloseTo(pairAlpha(QUALITY_JUDGE, QUALITY_ANN, "ordinal"), 12);
    expect(pairAlpha(QUALITY_JUDGE, QUALITY_ANN, "interval")).not.toBeCloseTo(
      pairAlpha(QUALITY_JUDGE, QUALITY_ANN, "ordinal"),
      3,
    );
    const acceptable = report.humanVsJudge.consensus.native.acceptable!;
    expect(acceptable.values.alpha).toBeCloseTo(pairAlpha(ACCEPTABLE_JUDGE, ACCEPTABLE_ANN, "nominal"), 12);
    // among reviewers, the style scores (two reviewers) at the targets' ordinal level
    const styleAlpha = pairAlpha(STYLE_ANN, STYLE_BOB, "ordinal");
    expect(report.humanVsHuman.native.score.values.alpha).toBeCloseTo(styleAlpha, 12);
    expect(styleAlpha).not.toBeCloseTo(pairAlpha(STYLE_ANN, STYLE_BOB, "interval"), 3);
  });

  it("breaks down by the declared grouping and by target, in declared order", async () => {
    const { report } = await toyReport();
    expect(report.groupings).toEqual([{ id: "type", label: "Caption type" }]);
    expect(report.breakdowns.type!.map((g) => [g.key, g.label, g.items])).toEqual([
      ["form", "Form", 4],
      ["content", "Content", 4],
      ["acceptable", "acceptable", 4],
      ["quality", "quality", 4],
    ]);
    expect(report.breakdowns.category.map((g) => g.key)).toEqual(["style", "keypoints", "acceptable", "quality"]);
    expect(report.breakdowns.category.find((g) => g.key === "style")!.link).toEqual({ runId, category: "style" });
  });

  it("sweeps the declared metric and the worst target against the declared verdict", async () => {
    const { report } = await toyReport();
    expect(report.sweep.map((c) => [c.metric, c.rule, c.domain, c.filterKey, c.n])).toEqual([
      ["quality", ">=", [0, 4], "min.quality", 4],
      [WORST_TARGET, ">=", [0, 4], null, 4],
    ]);
    const quality = report.sweep[0]!;
    expect(quality.points).toHaveLength(21);
    // Ann's verdicts 1,0,1,0 against quality 3.5,1,2.5,0.5: any t in (1, 2.5] separates them; the first is 1.2
    expect(quality.best).toMatchObject({ threshold: 1.2, f1: 1, accuracy: 1 });
    // worst target 3,0,3,1: t in (1, 3] separates them; the first is 1.2 too
    expect(report.sweep[1]!.best).toMatchObject({ threshold: 1.2, f1: 1 });
  });

  it("counts disagreement by the declared gap (a fifth of 0–4 here)", () => {
    const [style] = TOY_TASK.targets;
    expect(disagreesWithJudge(style!, 3, 2.3)).toBe(false);
    expect(disagreesWithJudge(style!, 3, 2)).toBe(true);
  });
});
