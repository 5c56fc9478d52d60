/**
 * TEST TOOL. A project of VBench-2.0-shaped videos for the vbench2 task's tests: each video's generator, dimension,
 * prompt and auxiliary_info as given, a 24 fps clip of `frameCount` frames whose uniform frame set holds VBench's 64
 * frame indices (np.linspace(0, frameCount - 1, 64, dtype=int)).
 */
import type { Actor } from "../../../lib/auth/actor";
import type { PrismaClient } from "../../../lib/generated/prisma/client";
import { createEndpoint } from "../../../lib/judge/endpoints/endpoints";
import { projectWithFramedVideos } from "../../testing/judge-fixtures";
import { vbenchUniformIndices } from "../../../lib/frames/vbench-uniform";
import { VBENCH2_FRAME_COUNT } from "../../../lib/tasks/vbench2/frames";
import { projectAccess } from "@/lib/authz/permissions";

export interface Vbench2VideoSpec {
  model: string;
  /** The video's dimension (its folder); more than one when `auxiliaryInfo` is given by dimension. */
  dimension: string | string[];
  prompt: string;
  /** The dimension's auxiliary_info; with several dimensions, an object of each one's. */
  auxiliaryInfo?: unknown;
  sampleIndex?: number;
  fps?: number;
  frameCount?: number;
}

/** A new project of these videos, or (with `into`) these videos added to a project. */
export async function vbench2Project(
  prisma: PrismaClient,
  owner: Actor,
  videos: readonly Vbench2VideoSpec[],
  into?: string,
) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: videos.length,
    keyFrames: 1,
    uniformFrames: VBENCH2_FRAME_COUNT,
    name: "VBench-2.0 test",
    ...(into ? { projectId: into } : {}),
  });
  for (const [v, spec] of videos.entries()) {
    const fps = spec.fps ?? 24;
    const frameCount = spec.frameCount ?? 79;
    const index = spec.sampleIndex ?? 0;
    const dimensions = Array.isArray(spec.dimension) ? spec.dimension : [spec.dimension];
    const auxiliaryInfo =
      spec.auxiliaryInfo === undefined
        ? {}
        : Array.isArray(spec.dimension)
          ? (spec.auxiliaryInfo as object)
          : { [spec.dimension]: spec.auxiliaryInfo as object };
    await prisma.video.update({
      where: { id: videoIds[v]! },
      data: {
        model: spec.model,
        dimensions,
        prompt: spec.prompt,
        promptTruncated: spec.prompt.slice(0, 180),
        sampleIndex: index,
        relativePath: `${spec.model}/${dimensions[0]}/${spec.prompt.slice(0, 180)}-${index}.mp4`,
        fps,
        frameCount,
        durationS: frameCount / fps,
        auxiliaryInfo,
      },
    });
    const set = await prisma.frameSet.findFirstOrThrow({
      where: { videoId: videoIds[v]!, mode: "uniform" },
      select: { id: true },
    });
    const wanted = vbenchUniformIndices(frameCount, VBENCH2_FRAME_COUNT);
    // Position i becomes frame index wanted[i], through negative indices so no two rows of the set ever share one.
    await prisma.$executeRaw`UPDATE frame SET index = -1 - index WHERE "frameSetId" = ${set.id}`;
    await prisma.$executeRaw`UPDATE frame f SET index = (${wanted}::int[])[-f.index], "timestampS" = (${wanted}::int[])[-f.index] / ${fps}::float8 WHERE f."frameSetId" = ${set.id}`;
  }
  return { projectId, videoIds };
}

/** An endpoint of the project on the stub LLM, at temperature 0 like VBench's greedy decoding. */
export async function stubEndpoint(
  prisma: PrismaClient,
  owner: Actor,
  projectId: string,
  baseUrl: string,
  name: string,
  model: string,
) {
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name,
    baseUrl,
    model,
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 8,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: false,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  return endpoint.id;
}
