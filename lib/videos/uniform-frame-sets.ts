/**
 * The videos an item run would leave out: those with items but no uniform frame set of the run's frame
 * count (and, for runs that plan a frame size, of the planned size: the items of the kinds whose set kind
 * says `uniformFrames.atPlannedSize`). The Extract pending page lists them so the browser can extract that
 * set, each with the longest side to extract it at.
 */
import { z } from "zod";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { frameSetFitsPlan, planFrames, type FrameResize } from "../frames/frame-plan";
import { itemSetKinds } from "../items/item-sets";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";

/**
 * `?uniform=<count>` on the pending page; the same bounds as an item run's `frames` setting. A planned
 * frame size: `resize=quarter` (a quarter of each video's area) or `longestSide=<px>`.
 */
export const uniformFramesQuerySchema = z
  .object({
    uniform: z.coerce.number().int().min(1).max(64).optional(),
    resize: z.literal("quarter").optional(),
    longestSide: z.coerce.number().int().min(64).max(4096).optional(),
    /** Every video of the project, not only those with items: runs that judge the videos themselves (VBench-2.0's 64). */
    videos: z.literal("all").optional(),
  })
  .refine((query) => !(query.resize && query.longestSide), "give resize=quarter or longestSide, not both");

/**
 * The uniform frame sets of `count` frames: by the count they were extracted with, not by the frames they
 * hold. A set stores each frame once (lib/frames/vbench-uniform.ts), so a video shorter than `count` frames
 * has a set of `count` with fewer frames.
 */
export function uniformFrameSetWhere(count: number): Prisma.FrameSetWhereInput {
  return { mode: "uniform", parameters: { path: ["count"], equals: count } };
}

export function resizeOfQuery(query: z.output<typeof uniformFramesQuerySchema>): FrameResize | undefined {
  if (query.resize === "quarter") return { mode: "quarter" };
  return query.longestSide ? { mode: "longest_side", px: query.longestSide } : undefined;
}

/**
 * The items whose runs need a uniform frame set, unsized or at a planned size, as the task modules'
 * item set kinds declare them (read at call time): their `item.kind`s, and what the pending page calls
 * them ("captions and questions"; "items" when no kind declares one).
 */
export function uniformFrameItems(
  catalogue: TaskCatalogue,
  atPlannedSize: boolean,
): {
  itemKinds: string[];
  itemsNoun: string;
  runsNoun: string;
} {
  const needs = itemSetKinds(catalogue).flatMap((kind) =>
    kind.uniformFrames && kind.uniformFrames.atPlannedSize === atPlannedSize ? [kind.uniformFrames] : [],
  );
  const nouns = [...new Set(needs.map((need) => need.itemsNoun))];
  const itemsNoun =
    nouns.length === 0
      ? "items"
      : nouns.length === 1
        ? nouns[0]!
        : `${nouns.slice(0, -1).join(", ")} and ${nouns.at(-1)}`;
  const runs = [...new Set(needs.map((need) => need.runsNoun))];
  const runsNoun =
    runs.length === 0
      ? "item runs"
      : runs.length === 1
        ? runs[0]!
        : `${runs.slice(0, -1).join(", ")} and ${runs.at(-1)}`;
  return { itemKinds: [...new Set(needs.map((need) => need.itemKind))], itemsNoun, runsNoun };
}

export interface VideoLackingFrames {
  id: string;
  fileName: string;
  relativePath: string;
  sizeBytes: bigint;
  /** The longest side to extract the set at (a planned size); null: the default; undefined with `problem`. */
  maxSide: number | null;
  /** Why no set can be planned (a quarter of an unknown size). */
  problem?: string;
}

export async function videosLackingUniformFrames(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  count: number,
  resize?: FrameResize,
  everyVideo = false,
  given?: TaskCatalogue,
): Promise<VideoLackingFrames[]> {
  const { projectId } = access;
  if (!resize) {
    // Any item (an unsized uniform set serves every item run that does not plan a size), or any video at all.
    const videos = await prisma.video.findMany({
      where: {
        projectId,
        ...(everyVideo ? { status: "ready" as const } : { items: { some: {} } }),
        frameSets: { none: uniformFrameSetWhere(count) },
      },
      orderBy: { relativePath: "asc" },
      take: 500,
      select: { id: true, fileName: true, relativePath: true, sizeBytes: true },
    });
    return videos.map((video) => ({ ...video, maxSide: null }));
  }
  const videos = await prisma.video.findMany({
    where: {
      projectId,
      items: { some: { kind: { in: uniformFrameItems(await catalogueOf(prisma, projectId, given), true).itemKinds } } },
    },
    orderBy: { relativePath: "asc" },
    select: {
      id: true,
      fileName: true,
      relativePath: true,
      sizeBytes: true,
      width: true,
      height: true,
      frameSets: {
        where: uniformFrameSetWhere(count),
        select: {
          parameters: true,
          frames: { orderBy: { index: "asc" }, take: 1, select: { width: true, height: true } },
        },
      },
    },
  });
  const lacking: VideoLackingFrames[] = [];
  for (const { width, height, frameSets, ...video } of videos) {
    const plan = planFrames({ width, height }, resize);
    if (!plan.ok) {
      lacking.push({ ...video, maxSide: null, problem: plan.reason });
      continue;
    }
    const fits = frameSets.some((set) => {
      const maxSide = (set.parameters as { maxSide?: unknown } | null)?.maxSide;
      const first = set.frames[0];
      return (
        first !== undefined &&
        frameSetFitsPlan(plan, {
          maxSide: typeof maxSide === "number" ? maxSide : null,
          width: first.width,
          height: first.height,
        })
      );
    });
    if (!fits) lacking.push({ ...video, maxSide: plan.maxSide });
    if (lacking.length >= 500) break;
  }
  return lacking;
}
