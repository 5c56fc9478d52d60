import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { catalogFor } from "../../task-modules/task-catalogue";
import { metricScores } from "../../videos/browse-videos";
import { isBlindFor, withheldMetricScores } from "../../visibility/judge-visibility";
import { readRunMetrics } from "../../run-records/run-metrics";

/** Every run that judged a video, newest first, for the video page's run selector (no metrics while the caller reviews it blind). */
export async function videoRuns(prisma: PrismaClient, access: ProjectAccess, videoId: string) {
  // A video of another project is as unknown as one that does not exist.
  const video = await prisma.video.findFirst({
    where: { id: videoId, projectId: access.projectId },
    select: { projectId: true },
  });
  if (!video) throw new NotFoundError("No such video.");
  const rows = await prisma.runVideo.findMany({
    where: { videoId },
    orderBy: [{ run: { createdAt: "desc" } }, { runId: "desc" }],
    select: {
      status: true,
      runId: true,
      run: {
        select: { id: true, pipeline: true, status: true, simulated: true, createdAt: true, endpointSnapshot: true },
      },
    },
  });
  const blind = await isBlindFor(prisma, access.actor.userId, videoId);
  const metrics = new Map(
    await Promise.all(
      rows.map(
        async (row) => [row.runId, (await readRunMetrics(prisma, row.runId, [videoId])).get(videoId) ?? null] as const,
      ),
    ),
  );
  const catalogue = await catalogFor(prisma, video.projectId);
  return rows.map((row) => {
    const scores = metricScores(catalogue.taskOf(row.run.pipeline), metrics.get(row.runId) ?? null);
    const snapshot = (row.run.endpointSnapshot ?? {}) as { name?: unknown; model?: unknown };
    const shown = {
      id: row.run.id,
      pipeline: row.run.pipeline,
      runStatus: row.run.status,
      videoStatus: row.status,
      simulated: row.run.simulated,
      createdAt: row.run.createdAt,
      endpoint: {
        name: typeof snapshot.name === "string" ? snapshot.name : null,
        model: typeof snapshot.model === "string" ? snapshot.model : null,
      },
      /** The run's headline metrics for the video, by declared id (a yes/no metric as a boolean). */
      scores,
      overall: typeof scores.overall === "number" ? scores.overall : null,
      verdict: typeof scores.verdict === "boolean" ? scores.verdict : null,
    };
    return { ...(blind ? withheldMetricScores(shown) : shown), blind };
  });
}
