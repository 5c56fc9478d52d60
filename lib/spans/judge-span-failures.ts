/**
 * A run's videos that kept no judge spans, and why (judge_span_failure rows: written when a video closes without its
 * spans, cleared when keeping or deriving them succeeds), for the run's page.
 */
import type { PrismaClient } from "../generated/prisma/client";

export interface JudgeSpanFailures {
  /** How many of the run's videos kept no judge spans. */
  count: number;
  /** The first of them by path, each with its reason. */
  videos: { videoId: string; relativePath: string; reason: string }[];
}

/** The run's judge span failures; the caller has already found the run in a project the actor may read. */
export async function judgeSpanFailuresOfRun(
  prisma: PrismaClient,
  runId: string,
  shown = 20,
): Promise<JudgeSpanFailures> {
  const [count, rows] = await Promise.all([
    prisma.judgeSpanFailure.count({ where: { runId } }),
    prisma.judgeSpanFailure.findMany({
      where: { runId },
      select: { videoId: true, reason: true, video: { select: { relativePath: true } } },
      orderBy: [{ video: { relativePath: "asc" } }, { videoId: "asc" }],
      take: shown,
    }),
  ]);
  return {
    count,
    videos: rows.map((r) => ({ videoId: r.videoId, relativePath: r.video.relativePath, reason: r.reason })),
  };
}
