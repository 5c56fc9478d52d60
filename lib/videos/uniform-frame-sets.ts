/**
 * The videos a caption run would leave out: those with captions (items) but no uniform frame set of the
 * run's frame count. The Extract pending page lists them so the browser can extract that set.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";

/** `?uniform=<count>` on the pending page; the same bounds as a caption run's `frames` setting. */
export const uniformFramesQuerySchema = z.object({ uniform: z.coerce.number().int().min(1).max(64).optional() });

export async function videosLackingUniformFrames(prisma: PrismaClient, actor: Actor, projectId: string, count: number) {
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  return prisma.video.findMany({
    where: {
      projectId,
      items: { some: {} },
      frameSets: { none: { mode: "uniform", frameCount: count } },
    },
    orderBy: { relativePath: "asc" },
    take: 500,
    select: { id: true, fileName: true, relativePath: true, sizeBytes: true },
  });
}
