import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError, ValidationError } from "../errors";
import { HALLUCINATION_TEMPLATE_IDS } from "../tasks/hallucination/schemas";
import { templateHash, loadTemplate } from "../prompt-versions/prompt-templates";
import { importT2vHaluBench } from "../tasks/hallucination/t2vhalubench";
import { reviewVideoOutcome } from "../reviews/reviews";
import { setGold } from "../adjudication/adjudication";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { compareSetupsQuerySchema } from "./calibration.validation";
import { compareSetups, thresholdSweep } from "./compare-setups";
import { compareSetupsReport } from "./compare-setups-load";
import { lineDiff } from "./line-diff";
import { projectAccess } from "../authz/permissions";

const ids = ["v1", "v2", "v3", "v4", "v5", "v6"];
const reference = new Map(ids.map((id, i) => [id, i < 3]));
const run = (runId: string, verdict: boolean[], graded: number[]) => ({
  runId,
  verdict: new Map(ids.map((id, i) => [id, verdict[i]!])),
  graded: new Map(ids.map((id, i) => [id, graded[i]!])),
});
// A agrees everywhere; B misses v2 and flags v5.
const A = run("A", [true, true, true, false, false, false], [8, 8, 8, 2, 2, 2]);
const B = run("B", [true, false, true, false, true, false], [9, 4, 6, 1, 5, 0]);

describe("compareSetups, against a worked example", () => {
  const result = compareSetups(reference, [A, B], { iterations: 2000, seed: 9 });
  const [a, b] = result.runs;

  it("gives each run's κ, α, accuracy, F1 and best-threshold F1", () => {
    expect(a).toMatchObject({ n: 6, kappa: 1, alpha: 1, accuracy: 1, f1: 1, bestF1: 1, bestThreshold: 8 });
    // B: tp 2, fp 1, fn 1, tn 2. κ: pₒ 4/6, pₑ 1/2 → 1/3. α (nominal): Dₒ = 4/12, Dₑ = 2·6·6/(12·11) = 6/11 → 1 − 11/18 = 7/18.
    expect(b!.kappa).toBeCloseTo(1 / 3, 12);
    expect(b!.alpha).toBeCloseTo(7 / 18, 12);
    expect(b!.accuracy).toBeCloseTo(4 / 6, 12);
    expect(b!.f1).toBeCloseTo(4 / 6, 12);
    // Graded ≥ 4 flags v1, v2, v3 and v5: tp 3, fp 1 → F1 6/7, the best of the sweep.
    expect(b!.bestThreshold).toBe(4);
    expect(b!.bestF1).toBeCloseTo(6 / 7, 12);
  });

  it("sweeps every distinct score and one above all of them", () => {
    const { sweep, best } = thresholdSweep([true, true, true, false, false, false], [9, 4, 6, 1, 5, 0]);
    expect(sweep.map((p) => p.threshold)).toEqual([0, 1, 4, 5, 6, 9, 10]);
    expect(sweep.map((p) => p.f1)).toEqual([6 / 9, 6 / 8, 6 / 7, 4 / 6, 4 / 5, 2 / 4, 0]);
    expect(best).toEqual({ threshold: 4, f1: 6 / 7 });
  });

  it("tests the pair: McNemar on right verdicts and paired bootstraps of κ and F1", () => {
    const [pair] = result.pairs;
    // A right and B wrong on v2 and v5, never the other way: b = 2, c = 0, exact p = 2 · (1/2)² = 1/2.
    expect(pair!.mcnemar).toMatchObject({ b: 2, c: 0, method: "exact", p: 0.5 });
    expect(pair!.kappa.difference).toBeCloseTo(2 / 3, 12);
    expect(pair!.bestF1.difference).toBeCloseTo(1 - 6 / 7, 12);
    // A is never worse than B on any resample: every difference is ≥ 0, but some are 0, so p is not minimal.
    expect(pair!.kappa.lower!).toBeGreaterThanOrEqual(0);
    expect(pair!.kappa.p!).toBeGreaterThan(2 / 2001);
    expect(pair!.kappa.p!).toBeLessThanOrEqual(1);
  });

  it("compares only the videos every run judged", () => {
    const partial = { ...B, verdict: new Map([...B.verdict].filter(([id]) => id !== "v6")) };
    expect(compareSetups(reference, [A, partial], { iterations: 100 }).videoIds).toEqual([
      "v1",
      "v2",
      "v3",
      "v4",
      "v5",
    ]);
  });
});

describe("lineDiff", () => {
  it("keeps common lines and marks removed and added ones", () => {
    expect(lineDiff("a\nb\nc", "a\nx\nc\nd")).toEqual([
      { op: " ", text: "a" },
      { op: "-", text: "b" },
      { op: "+", text: "x" },
      { op: " ", text: "c" },
      { op: "+", text: "d" },
    ]);
  });
});

describe("compareSetupsReport", () => {
  let owner: Actor;
  let reviewer: Actor;
  let projectId: string;
  let videoIds: string[];
  let runA: string;
  let runB: string;
  let labelSetId: string;

  beforeAll(async () => {
    [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 4,
      keyFrames: 1,
      name: "Compare setups",
    }));
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({ where: { id }, data: { fileName: `${i + 1}.mp4` } });
    const workbook = new ExcelJS.Workbook();
    const ws = workbook.addWorksheet("Sheet1");
    ws.addRow([
      "Example",
      "Is_Hallucination",
      "Is_Prompt_Consistency",
      "Static_Hallucination",
      "Dynamic_Hallucination",
      "model",
    ]);
    for (const [i, h] of [1, 1, 0, 0].entries()) ws.addRow([`${i + 1}.mp4`, h, 1, "-", "-", "Sora"]);
    const file = new Uint8Array(await workbook.xlsx.writeBuffer());
    labelSetId = (
      await importT2vHaluBench(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
        file,
        fileName: "labels.xlsx",
        name: "Authors",
        match: { by: "file_name" },
        dryRun: false,
      })
    ).labelSet!.id;
    // The shipped static template's hash for run A; another hash (an edited prompt) for run B.
    const shipped = loadTemplate(HALLUCINATION_TEMPLATE_IDS.static_hallucination);
    ({ runId: runA } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      endpointName: "judge-a",
      templateHash: templateHash(shipped),
      scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [9, 8, 2, 1][v]! }],
      outcome: (v) => ({ verdict: v < 2, overall: 50 }),
    }));
    ({ runId: runB } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      endpointName: "judge-b",
      templateHash: "b".repeat(64),
      scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [9, 3, 6, 1][v]! }],
      outcome: (v) => ({ verdict: v === 0 || v === 2, overall: 50 }),
    }));
    // The fixture names templates after the step; the engine records the template's real id.
    await prisma.stepResult.updateMany({
      where: { runId: { in: [runA, runB] }, stepId: "static_hallucination" },
      data: { templateId: HALLUCINATION_TEMPLATE_IDS.static_hallucination },
    });
    // Run B's prompt as sent (no shipped template has its hash), with usage to sum.
    const step = await prisma.stepResult.findFirstOrThrow({
      where: { runId: runB, videoId: videoIds[0]!, stepId: "static_hallucination" },
    });
    await prisma.llmCall.create({
      data: {
        runId: runB,
        stepResultId: step.id,
        videoId: videoIds[0]!,
        model: "stub-model",
        request: { text: `${shipped.raw}\nBe strict.` },
        promptTokens: 100,
        completionTokens: 20,
        costUsd: 0.5,
        latencyMs: 1500,
      },
    });
    await prisma.stepResult.update({ where: { id: step.id }, data: { status: "parse_failed" } });
    // Run B showed the frames as one video.
    await prisma.judgeRun.update({ where: { id: runB }, data: { inputMode: "video-frames" } });
  });

  const query = (over: Record<string, string>) =>
    compareSetupsQuerySchema.parse({ runIds: `${runA},${runB}`, labelSetId, iterations: "200", ...over });

  it("puts the runs side by side against a label set, with their settings and what differs", async () => {
    const report = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({}),
    );
    expect(report.reference).toMatchObject({ kind: "label_set", name: "Authors" });
    expect(report.comparison.videoIds).toHaveLength(4);
    const [a, b] = report.comparison.runs;
    // Labels 1 1 0 0; A's verdicts 1 1 0 0 (κ 1), B's 1 0 1 0 (κ 0).
    expect([a!.kappa, b!.kappa]).toEqual([1, 0]);
    expect(report.comparison.pairs[0]!.mcnemar).toMatchObject({ b: 2, c: 0, p: 0.5 });
    expect(report.runs.map((r) => r.endpoint)).toEqual(["judge-a", "judge-b"]);
    expect(report.runs[1]).toMatchObject({
      costUsd: 0.5,
      tokens: { prompt: 100, completion: 20 },
      calls: 1,
      latencySeconds: 1.5,
      parseFailures: 1,
    });
    expect(report.runs.map((r) => r.inputMode)).toEqual(["images", "video-frames"]);
    expect(report.differs).toMatchObject({
      endpoint: true,
      model: false,
      inputMode: true,
      templates: ["static_hallucination"],
      aggregation: false,
    });
    const [diff] = report.templateDiffs;
    expect(diff!.base.source).toBe("prompts/hallucination/static-hallucination.md (shipped)");
    expect(diff!.others[0]!.source).toBe(`the prompt sent for video ${videoIds[0]}`);
    expect(diff!.others[0]!.diff.filter((l) => l.op !== " ")).toEqual([{ op: "+", text: "Be strict." }]);
  });

  it("compares with the reviewers' consensus instead", async () => {
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "scores.review"),
      runA,
      videoIds[0]!,
      "verdict",
      { value: 1 },
    );
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "scores.review"),
      runA,
      videoIds[2]!,
      "verdict",
      { value: 1 },
    );
    const report = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({ reference: "consensus" }),
    );
    expect(report.reference).toEqual({ kind: "consensus" });
    expect(report.comparison.videoIds).toEqual([videoIds[0], videoIds[2]].sort());
    // The reviewer says yes to both: A is right on one (video 1), B on both.
    expect(report.comparison.runs.map((r) => r.accuracy)).toEqual([0.5, 1]);
  });

  it("compares with the owners' adjudicated gold values (reference=gold), only where gold is set", async () => {
    // Another reviewer says "no hallucination" on all four videos; the owner adjudicates three of them.
    const second = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: second.userId, role: "reviewer" } });
    for (const videoId of videoIds)
      await reviewVideoOutcome(
        prisma,
        await projectAccess(prisma, second, projectId, "scores.review"),
        runA,
        videoId,
        "verdict",
        { value: 0 },
      );
    const keyOf = async (videoId: string) =>
      (
        await prisma.humanJudgment.findFirstOrThrow({
          where: { reviewerId: second.userId, videoId },
          select: { targetKey: true },
        })
      ).targetKey;
    await setGold(prisma, owner, projectId, { targetKey: await keyOf(videoIds[0]!), value: 1 });
    // Gold changed once: the current value (0) counts, not the first (1).
    await setGold(prisma, owner, projectId, { targetKey: await keyOf(videoIds[1]!), value: 1 });
    await setGold(prisma, owner, projectId, { targetKey: await keyOf(videoIds[1]!), value: 0, expectedVersion: 1 });
    await setGold(prisma, owner, projectId, {
      targetKey: await keyOf(videoIds[2]!),
      value: 1,
      note: "the ball passes through the table",
    });

    const report = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({ reference: "gold" }),
    );
    expect(report.reference).toEqual({ kind: "gold" });
    // Video 4 has no gold: left out.
    expect(report.comparison.videoIds).toEqual(videoIds.slice(0, 3).sort());
    const [a, b] = report.comparison.runs;
    // Gold 1 0 1 on videos 1–3. A's verdicts 1 1 0: tp 1, fp 1, fn 1, tn 0; pₒ 1/3, pₑ 2/3·2/3 + 1/3·1/3 = 5/9, κ = (1/3 − 5/9)/(4/9) = −1/2; F1 2/4.
    expect(a!.kappa).toBeCloseTo(-1 / 2, 12);
    expect(a!.accuracy).toBeCloseTo(1 / 3, 12);
    expect(a!.f1).toBeCloseTo(1 / 2, 12);
    // B's verdicts 1 0 1: all three right, κ 1, F1 1.
    expect([b!.kappa, b!.accuracy, b!.f1]).toEqual([1, 1, 1]);
    // Spearman of the worst score with gold. A: 9 8 2 against 1 0 1 → ranks (3 2 1) and (2.5 1 2.5): covariance 0, ρ 0.
    // B: 9 3 6 → ranks (3 1 2): covariance 1.5, variances 2 and 1.5, ρ = 1.5/√3 = √3/2.
    expect(a!.spearman!).toBeCloseTo(0, 12);
    expect(b!.spearman!).toBeCloseTo(Math.sqrt(3) / 2, 12);
    const [pair] = report.comparison.pairs;
    // Only B right on videos 2 and 3, never only A: b 0, c 2, exact p = 2 · (1/2)² = 1/2.
    expect(pair!.mcnemar).toMatchObject({ b: 0, c: 2, method: "exact", p: 0.5 });
    expect(pair!.kappa.difference).toBeCloseTo(-3 / 2, 12);
    expect(pair!.spearman.difference!).toBeCloseTo(-Math.sqrt(3) / 2, 12);
    expect(pair!.kappa.lower).not.toBeNull();
    expect(compareSetupsQuerySchema.parse({ runIds: `${runA},${runB}`, reference: "gold" }).reference).toBe("gold");
  });

  it("checks the request: 2–6 runs, a reference, runs of this project", async () => {
    expect(() => compareSetupsQuerySchema.parse({ runIds: runA, labelSetId })).toThrow(/at least two/);
    expect(() => compareSetupsQuerySchema.parse({ runIds: "a,b,c,d,e,f,g", labelSetId })).toThrow(/at most six/);
    expect(() => compareSetupsQuerySchema.parse({ runIds: `${runA},${runB}` })).toThrow(/label set/);
    await expect(
      compareSetupsReport(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        query({ runIds: `${runA},nope` }),
      ),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      compareSetupsReport(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        query({ annotator: "x" }),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("compares a run's logprob-weighted (expected) scores with its argmax as another setup, with κ, F1, Spearman, their paired bootstraps and the same cost", async () => {
    // Run B's judge answered 9 3 6 1 (argmax); its token probabilities put the expected scores at 8.6 6.4 4.2 1.1.
    for (const [v, expected] of [8.6, 6.4, 4.2, 1.1].entries())
      await prisma.score.updateMany({ where: { runId: runB, videoId: videoIds[v]! }, data: { expected } });
    const report = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({ runIds: `${runB},${runB}:expected` }),
    );
    expect(report.runs.map((r) => [r.id, r.runId, r.scores])).toEqual([
      [runB, runB, "argmax"],
      [`${runB}:expected`, runB, "expected"],
    ]);
    // The verdict threshold that reproduces B's own verdicts from its argmax (1 0 1 0) is 6; the expected scores ≥ 6 give 1 1 0 0, the labels.
    const [argmax, expected] = report.comparison.runs;
    expect([argmax!.kappa, expected!.kappa]).toEqual([0, 1]);
    expect(expected!.bestF1).toBe(1);
    expect(expected!.spearman!).toBeGreaterThan(argmax!.spearman!);
    expect(report.comparison.pairs[0]!.spearman.difference!).toBeCloseTo(argmax!.spearman! - expected!.spearman!, 12);
    // One run, one set of calls: the expected scores cost nothing more.
    expect(report.runs[1]).toMatchObject({ costUsd: 0.5, calls: 1 });
    // A run without expected scores says so.
    await expect(
      compareSetupsReport(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        query({ runIds: `${runB},${runA}:expected` }),
      ),
    ).rejects.toThrow(/no logprob-weighted scores/);
    expect(() => compareSetupsQuerySchema.parse({ runIds: `${runA},${runB}:median`, labelSetId })).toThrow(
      /Not a setup/,
    );
  });
});
