import type { Prisma, PrismaClient } from "../generated/prisma/client";

/**
 * Replaces a subject's headline metrics in a run (a re-summarised video drops values that became
 * unknown). Only known values get a row: a missing row is how "unknown" is stored, so filters and
 * sorts never meet a NULL.
 */
export async function writeRunMetrics(
  tx: Prisma.TransactionClient,
  subject: { runId: string; videoId: string; itemId?: string },
  values: Record<string, number | null>,
): Promise<void> {
  const itemId = subject.itemId ?? "";
  await tx.runMetric.deleteMany({ where: { runId: subject.runId, videoId: subject.videoId, itemId } });
  const rows = Object.entries(values).flatMap(([metric, value]) =>
    value === null || !Number.isFinite(value)
      ? []
      : [{ runId: subject.runId, videoId: subject.videoId, itemId, metric, value }],
  );
  if (rows.length > 0) await tx.runMetric.createMany({ data: rows });
}

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
