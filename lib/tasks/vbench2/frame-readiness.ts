/**
 * How many of a project's videos a VBench-2.0 run would leave out for want of VBench's 64 uniform frames: the run
 * form says so before a run starts, and links to the page that extracts them in the browser.
 */
import type { ProjectAccess } from "../../authz/permissions";
import type { PrismaClient } from "../../generated/prisma/client";
import { uniformFrameSetWhere } from "../../videos/uniform-frame-sets";
import { VBENCH2_FRAME_COUNT } from "./frames";

export interface Vbench2FrameReadiness {
  /** The project's videos. */
  videos: number;
  /** Those without a uniform set of 64 frames (a run leaves them out). */
  lacking: number;
  /** The pending page's query that lists them for extraction, without "?". */
  pendingQuery: string;
}

export async function vbench2FrameReadiness(
  prisma: PrismaClient,
  access: ProjectAccess,
): Promise<Vbench2FrameReadiness> {
  const { projectId } = access;
  const [videos, lacking] = await Promise.all([
    prisma.video.count({ where: { projectId } }),
    prisma.video.count({ where: { projectId, frameSets: { none: uniformFrameSetWhere(VBENCH2_FRAME_COUNT) } } }),
  ]);
  return { videos, lacking, pendingQuery: `uniform=${VBENCH2_FRAME_COUNT}&videos=all` };
}
