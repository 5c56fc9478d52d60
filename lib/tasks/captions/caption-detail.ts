/** One caption with every caption run's results on it, and the values the captions page's filters offer. */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { CAPTION_PIPELINES, type CaptionPipeline } from "./caption-query";
import { runCaptionsMatching } from "./caption-run-results";

/**
 * One caption for its page: the caption and its reference, every caption run of the project that judged it
 * with its results (newest first), and the frames those runs showed the judge (else the video's latest
 * uniform frame set).
 */
export async function captionDetail(prisma: PrismaClient, access: ProjectAccess, captionId: string) {
  const { projectId } = access;
  const item = await prisma.item.findFirst({
    where: { id: captionId, projectId, kind: "caption" },
    select: { id: true },
  });
  if (!item) throw new NotFoundError("No such caption in this project.");
  const runItems = await prisma.runItem.findMany({
    where: { itemId: captionId, run: { projectId, pipeline: { in: [...CAPTION_PIPELINES] } } },
    orderBy: { run: { createdAt: "desc" } },
    select: {
      runId: true,
      videoId: true,
      run: {
        select: {
          id: true,
          pipeline: true,
          status: true,
          simulated: true,
          createdAt: true,
          settings: true,
          endpoint: { select: { name: true } },
        },
      },
    },
  });
  const results = [];
  for (const { run } of runItems) {
    const pipeline = run.pipeline as CaptionPipeline;
    const [result] = await runCaptionsMatching(prisma, { id: run.id, pipeline }, { itemIds: [captionId] });
    // The judge's scores of the caption, for reviewers to give their own values against.
    const scores = await prisma.score.findMany({
      where: { runId: run.id, itemId: captionId },
      select: { id: true, category: true, value: true },
      orderBy: { category: "asc" },
    });
    if (result)
      results.push({
        run: {
          id: run.id,
          pipeline,
          status: run.status,
          simulated: run.simulated,
          createdAt: run.createdAt,
          endpointName: run.endpoint.name,
          settings: run.settings,
        },
        result,
        scores,
      });
  }
  const videoId =
    runItems[0]?.videoId ??
    (await prisma.item.findUniqueOrThrow({ where: { id: captionId }, select: { videoId: true } })).videoId;
  const runFrameSet = runItems.length
    ? await prisma.runVideo.findFirst({ where: { runId: runItems[0]!.runId, videoId }, select: { frameSetId: true } })
    : null;
  const frameSet = runFrameSet
    ? await prisma.frameSet.findUnique({ where: { id: runFrameSet.frameSetId }, select: frameSetSelect })
    : await prisma.frameSet.findFirst({
        where: { videoId, mode: "uniform" },
        orderBy: { createdAt: "desc" },
        select: frameSetSelect,
      });
  return { results, frameSet, videoId };
}

const frameSetSelect = {
  id: true,
  mode: true,
  frameCount: true,
  frames: { orderBy: { index: "asc" }, select: { id: true, index: true, timestampS: true } },
} as const;

/** The values the captions page's filters offer: the models, caption types and videos of the project's captions. */
export async function captionFilterOptions(prisma: PrismaClient, access: ProjectAccess) {
  const { projectId } = access;
  const [models, types, videos] = await Promise.all([
    prisma.item.findMany({
      where: { projectId, kind: "caption" },
      distinct: ["model"],
      select: { model: true },
      orderBy: { model: "asc" },
    }),
    prisma.item.findMany({
      where: { projectId, kind: "caption" },
      distinct: ["group"],
      select: { group: true },
      orderBy: { group: "asc" },
    }),
    prisma.video.findMany({
      where: { projectId, items: { some: { kind: "caption" } } },
      select: { id: true, relativePath: true },
      orderBy: { relativePath: "asc" },
      take: 1000,
    }),
  ]);
  return { models: models.flatMap((m) => (m.model ? [m.model] : [])), types: types.map((t) => t.group), videos };
}
