/**
 * A finished run's stored answers summarised again under other settings: the metrics the run would have stored had
 * it been started with them. Only for settings that change how a video's scores are summarised (an aggregation, a
 * verdict threshold), never what was asked: no call is made, and the pipeline's own `summarize` does the work, so
 * tuning a run's settings on stored answers (lib/alignment) cannot drift from what a run with those settings stores.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import { keyFramesAndClusters } from "../media/frame-scopes";
import type { PipelineDefinition, ScoreRow, StepOutputs, VideoContext } from "../../task-modules/pipeline-types";
import { loadVideoJob } from "./step-store";

/** One video of a run as its summary reads it: the context (without settings), the done steps' scores and outputs. */
export interface StoredVideoAnswers {
  videoId: string;
  context: Omit<VideoContext, "settings">;
  scores: ScoreRow[];
  outputs: StepOutputs;
}

/** A run's stored answers of one video; null when the run has no such video. */
export async function storedVideoAnswers(
  prisma: PrismaClient,
  runId: string,
  videoId: string,
): Promise<StoredVideoAnswers | null> {
  const loaded = await loadVideoJob(prisma, runId, videoId);
  if (!loaded) return null;
  const steps = await prisma.stepResult.findMany({
    where: { runId, videoId, status: "done" },
    select: { stepId: true, scopeIndex: true, output: true, scores: { select: { category: true, value: true } } },
  });
  const context = {
    videoId,
    prompt: loaded.video.prompt,
    dimensions: loaded.video.dimensions,
    model: loaded.video.model,
    fps: loaded.video.fps,
    frameCount: loaded.video.frameCount,
    auxiliaryInfo: loaded.video.auxiliaryInfo,
    imageLimit: null,
    ...keyFramesAndClusters(loaded.frames),
    frames: loaded.frames,
    items: loaded.items,
  };
  const outputs: StepOutputs = {
    get: (stepId, scopeIndex) => steps.find((s) => s.stepId === stepId && s.scopeIndex === scopeIndex)?.output,
    all: (stepId) =>
      steps
        .filter((s) => s.stepId === stepId)
        .sort((a, b) => a.scopeIndex - b.scopeIndex)
        .map((s) => s.output),
  };
  const scores = steps.flatMap((s) =>
    s.scores.map((score) => ({
      stepId: s.stepId,
      scopeIndex: s.scopeIndex,
      category: score.category,
      value: score.value,
    })),
  );
  return { videoId, context, scores, outputs };
}

/** The video's headline metrics under `settings` (as the pipeline's settings schema parses them), as a run stores them. */
export function metricsUnderSettings(
  pipeline: PipelineDefinition,
  stored: StoredVideoAnswers,
  settings: unknown,
): Record<string, number | null> {
  const summary = pipeline.summarize(stored.scores, { ...stored.context, settings }, settings, stored.outputs);
  return pipeline.metricValues(summary);
}
