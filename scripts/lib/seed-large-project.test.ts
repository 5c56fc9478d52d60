import { BUILT_IN_DECLARATIONS } from "../../lib/tasks/registry";
import { describe, expect, it } from "vitest";
import { prisma } from "../../lib/db/prisma";
import { hallucinationInputsFromScoreRows, summarizeHallucinationScores } from "../../lib/tasks/hallucination/scores";
import { disagreesWithJudge } from "../../lib/reviews/disagreement";
import { judgmentDeclaration } from "../../lib/reviews/judgment-target";
import { SEED_MODELS, seedLargeProject } from "./seed-large-project";
import { readRunMetrics } from "../../lib/run-records/run-metrics";
import { judgmentKey, metricTarget, scoreTarget } from "../../lib/reviews/judgment-key";

describe("seedLargeProject", () => {
  it("seeds a consistent project: exact score budget, summaries as the judge computes them, judgments as reviews record them", async () => {
    const lines: string[] = [];
    const seeded = await seedLargeProject(prisma, { videos: 240, scores: 5_000, log: (line) => lines.push(line) });
    const { projectId, runId } = seeded;
    expect(seeded.reviewerIds).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/seeded in/);

    expect(await prisma.video.count({ where: { projectId } })).toBe(240);
    expect(await prisma.score.count({ where: { runId } })).toBe(5_000);
    const videos = await prisma.video.findMany({
      where: { projectId },
      select: { id: true, model: true, prompt: true, dimensions: true, sampleIndex: true, relativePath: true },
    });
    expect(new Set(videos.map((v) => v.model))).toEqual(new Set(SEED_MODELS));
    expect(new Set(videos.map((v) => v.prompt)).size).toBe(20);
    expect(new Set(videos.map((v) => v.dimensions[0])).size).toBeGreaterThanOrEqual(10);
    expect(
      videos.every(
        (v) =>
          v.relativePath.endsWith(`-${v.sampleIndex}.mp4`) &&
          v.relativePath.startsWith(`${v.model}/${v.dimensions[0]}/`),
      ),
    ).toBe(true);
    const members = await prisma.projectMember.findMany({ where: { projectId } });
    expect(members.map((m) => m.role).sort()).toEqual(["owner", "reviewer", "reviewer", "reviewer"]);

    // Every judged video's score columns equal what the judge's own summary code makes of its score rows.
    const runVideos = await prisma.runVideo.findMany({ where: { runId } });
    expect(runVideos.length).toBeGreaterThan(50);
    expect(runVideos.length).toBeLessThan(240);
    const sets = new Map(
      (await prisma.frameSet.findMany({ where: { video: { projectId } } })).map((set) => [set.videoId, set]),
    );
    const scores = await prisma.score.findMany({ where: { runId } });
    // The headline metrics as stored for the list (run_metric; verdict as 1/0, unknown as no row).
    const metrics = await readRunMetrics(
      prisma,
      runId,
      runVideos.map((rv) => rv.videoId),
    );
    const metricOf = (videoId: string, metric: string) => metrics.get(videoId)?.[metric] ?? null;
    let incomplete = 0;
    for (const rv of runVideos) {
      const set = sets.get(rv.videoId)!;
      const rows = scores.filter((s) => s.videoId === rv.videoId);
      const expected = summarizeHallucinationScores(
        hallucinationInputsFromScoreRows(rows, { keyFrameCount: set.keyFrameCount, clusterCount: set.keyFrameCount }),
      );
      expect(metricOf(rv.videoId, "S")).toBeCloseTo(expected.S ?? Number.NaN, 9);
      expect(metricOf(rv.videoId, "D")).toEqual(expected.D === null ? null : expect.closeTo(expected.D, 9));
      expect(metricOf(rv.videoId, "I")).toEqual(expected.I);
      expect(metricOf(rv.videoId, "overall")).toEqual(
        expected.overall === null ? null : expect.closeTo(expected.overall, 9),
      );
      expect(metricOf(rv.videoId, "verdict")).toEqual(
        expected.hallucination === null ? null : expected.hallucination ? 1 : 0,
      );
      const summary = rv.summary as {
        complete: boolean;
        missingInputs: number;
        worst: { category: string; value: number };
      };
      expect(summary.complete).toBe(expected.complete);
      expect(summary.missingInputs).toBe(expected.missingInputs);
      expect(summary.worst).toEqual(expected.worst);
      if (!expected.complete) incomplete++;
    }
    expect(incomplete).toBeLessThanOrEqual(1);
    const frames = await prisma.frame.findMany({
      where: { frameSetId: sets.get(runVideos[0]!.videoId)!.id },
      orderBy: { index: "asc" },
    });
    expect(frames.filter((f) => f.isKeyFrame).map((f) => f.index)).toEqual(
      Array.from({ length: frames.length / 3 }, (_, c) => 3 * c + 1),
    );

    const judgments = await prisma.humanJudgment.findMany({ where: { runId }, include: { history: true } });
    expect(new Set(judgments.map((j) => j.targetType))).toEqual(new Set(["verdict", "overall", "score"]));
    for (const j of judgments) {
      expect(j.disagrees).toBe(
        disagreesWithJudge(judgmentDeclaration(j.targetType, null, BUILT_IN_DECLARATIONS.tasks), j.value, j.judgeValue),
      );
      expect(j.history).toHaveLength(1);
      if (j.targetType === "verdict") expect(j.judgeValue).toBe(metricOf(j.videoId, "verdict"));
      if (j.targetType === "overall") expect(j.judgeValue).toBe(metricOf(j.videoId, "overall"));
      if (j.targetType === "score") expect(j.judgeValue).toBe(scores.find((s) => s.id === j.scoreId)!.value);
      // Keyed exactly as reviews key them, so every run that scored the target is compared with it.
      const frameSetId = runVideos.find((rv) => rv.videoId === j.videoId)!.frameSetId;
      const target =
        j.targetType === "score"
          ? scoreTarget(
              "hallucination",
              scores.find((s) => s.id === j.scoreId)!,
              frameSetId,
              BUILT_IN_DECLARATIONS.taskOf("hallucination"),
            )
          : metricTarget("hallucination", j.videoId, "", j.targetType);
      expect(j.targetKey).toBe(judgmentKey(target));
      expect(j).toMatchObject({
        task: target.task,
        target: target.target,
        stepId: target.stepId,
        scopeIndex: target.scopeIndex,
        frameSetId: target.frameSetId,
      });
      expect(seeded.reviewerIds).toContain(j.reviewerId);
    }
    const verdictVideos = new Map<string, number>();
    for (const j of judgments.filter((j) => j.targetType === "verdict"))
      verdictVideos.set(j.videoId, (verdictVideos.get(j.videoId) ?? 0) + 1);
    expect([...verdictVideos.values()].every((n) => n === 2)).toBe(true);
  });
});
