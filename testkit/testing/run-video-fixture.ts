import type { Prisma, PrismaClient } from "../../lib/generated/prisma/client";

/**
 * Replaces a subject's headline metrics in a run (a re-summarised video drops values that became
 * unknown). Only known values get a row: a missing row is how "unknown" is stored, so filters and
 * sorts never meet a NULL.
 */
async function writeRunMetrics(
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

/**
 * A run_video row plus its headline metrics as the engine stores them (run_metric rows; a boolean
 * as 1/0, null or undefined as no row), for tests that seed judged videos without running a judge.
 */
export async function createRunVideo(
  prisma: PrismaClient,
  data: Prisma.RunVideoUncheckedCreateInput & { metrics?: Record<string, number | boolean | null | undefined> },
) {
  const { metrics, ...runVideo } = data;
  return prisma.$transaction(async (tx) => {
    // Only the keys back: the migration tests seed databases migrated up to an older release, without later columns.
    const row = await tx.runVideo.create({
      data: runVideo,
      select: { runId: true, videoId: true, frameSetId: true, status: true },
    });
    const values = Object.fromEntries(
      Object.entries(metrics ?? {}).map(([metric, value]) => [
        metric,
        typeof value === "boolean" ? (value ? 1 : 0) : (value ?? null),
      ]),
    );
    await writeRunMetrics(tx, { runId: row.runId, videoId: row.videoId }, values);
    return row;
  });
}
