import type { PrismaClient } from "../generated/prisma/client";
import { listVideoSpans } from "./span-store";
import type { SpanRecord } from "./span-types";

/** A video's spans beside one judge run, and the frame set that run judged the video with. */
export interface RunSpanView {
  spans: SpanRecord[];
  /** The frame set the run judged the video with (its key frames are the ones the judge saw); null: it did not judge it. */
  frameSetId: string | null;
}

/**
 * A video's spans as the timeline shows them beside the run chosen on the page: every reviewer's, label set's and
 * gold span, and the judge spans of that run only (each run keeps its own, so two runs' spans would stack), with the
 * frame set the run judged the video with, so the timeline's key frames are the frames that judge saw.
 */
export async function videoSpansBesideRun(
  prisma: PrismaClient,
  videoId: string,
  options: { task?: string; runId: string },
): Promise<RunSpanView> {
  const [spans, runVideo] = await Promise.all([
    listVideoSpans(prisma, videoId, { task: options.task }),
    prisma.runVideo.findUnique({
      where: { runId_videoId: { runId: options.runId, videoId } },
      select: { frameSetId: true },
    }),
  ]);
  return {
    spans: spans.filter((s) => s.authorKind !== "judge" || s.runId === options.runId),
    frameSetId: runVideo?.frameSetId ?? null,
  };
}
