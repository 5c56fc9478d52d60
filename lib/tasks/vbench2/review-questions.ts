/**
 * What a reviewer of a VBench-2.0 video answers: each question the judge was asked (`material:q2` is "Is it green?";
 * a plot dimension's question names its expected plot, Motion_Order_Understanding's its action), with the frames it
 * was asked with. Read from the run's per-video summary (./pipeline.ts), which keeps every question's words and the
 * times of its frames; the times are matched to the run's frame set as the summary computed them
 * (`index / fps`, else the frame's timestamp).
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ScoreQuestion } from "../../task-modules/queue-type-module";
import { questionCategory } from "./dimension";
import type { DimensionSummary, Vbench2VideoSummary } from "./pipeline";

/** A text LLM's questions (plots, orders, interactions) have no frames of their own: it read the VLM's description of the video's frames. */
const DESCRIBED_FRAMES = "A text LLM answered this from the VLM's description of these frames.";

const timeKey = (seconds: number) => Math.round(seconds * 1000);

export async function vbench2ScoreQuestions(
  prisma: PrismaClient,
  runId: string,
  videoId: string,
): Promise<ReadonlyMap<string, ScoreQuestion>> {
  const questions = new Map<string, ScoreQuestion>();
  const runVideo = await prisma.runVideo.findUnique({
    where: { runId_videoId: { runId, videoId } },
    select: { summary: true, frameSetId: true, video: { select: { fps: true } } },
  });
  const dimensions = (runVideo?.summary as Vbench2VideoSummary | null)?.dimensions;
  if (!runVideo || !dimensions || typeof dimensions !== "object") return questions;
  const frames = await prisma.frame.findMany({
    where: { frameSetId: runVideo.frameSetId },
    select: { index: true, timestampS: true },
    orderBy: { index: "asc" },
  });
  const fps = runVideo.video.fps;
  const byTime = new Map<number, number>();
  for (const frame of frames) {
    const key = timeKey(fps && fps > 0 ? frame.index / fps : frame.timestampS);
    if (!byTime.has(key)) byTime.set(key, frame.index);
  }
  const allFrames = frames.map((frame) => frame.index);
  for (const [dimension, summary] of Object.entries(dimensions) as [string, DimensionSummary | undefined][]) {
    if (!summary || !Array.isArray(summary.questions)) continue;
    summary.questions.forEach((question, k) => {
      const asked = [...new Set((question.frames ?? []).flatMap((seconds) => byTime.get(timeKey(seconds)) ?? []))];
      questions.set(questionCategory(dimension, k), {
        text: question.question,
        frameIndexes: asked.length > 0 ? asked : allFrames,
        framesNote: asked.length > 0 ? null : DESCRIBED_FRAMES,
      });
    });
  }
  return questions;
}
