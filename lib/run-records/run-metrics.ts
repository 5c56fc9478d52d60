import type { Prisma, PrismaClient } from "../generated/prisma/client";

/** Stored metric values of videos in a run (video subjects), by video id then metric id. */
export async function readRunMetrics(
  prisma: PrismaClient | Prisma.TransactionClient,
  runId: string,
  videoIds: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const byVideo = new Map<string, Record<string, number>>();
  if (videoIds.length === 0) return byVideo;
  const rows = await prisma.runMetric.findMany({
    where: { runId, videoId: { in: [...videoIds] }, itemId: "" },
    select: { videoId: true, metric: true, value: true },
  });
  for (const row of rows) {
    const values = byVideo.get(row.videoId) ?? {};
    values[row.metric] = row.value;
    byVideo.set(row.videoId, values);
  }
  return byVideo;
}

/** One video's stored value of one metric in a run, or null when unknown. */
export async function readRunMetric(
  prisma: PrismaClient | Prisma.TransactionClient,
  runId: string,
  videoId: string,
  metric: string,
): Promise<number | null> {
  const row = await prisma.runMetric.findUnique({
    where: { runId_videoId_itemId_metric: { runId, videoId, itemId: "", metric } },
    select: { value: true },
  });
  return row?.value ?? null;
}
