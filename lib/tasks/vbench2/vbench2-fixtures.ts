/**
 * TEST TOOL. A project of VBench-2.0-shaped videos for the vbench2 task's tests: each video's generator, dimension,
 * prompt and auxiliary_info as given, a 24 fps clip of `frameCount` frames whose uniform frame set holds VBench's 64
 * frame indices (np.linspace(0, frameCount - 1, 64, dtype=int)).
 */
import type { Actor } from "../../auth/actor";
import type { PrismaClient } from "../../generated/prisma/client";
import { createEndpoint } from "../../judge/endpoints";
import { projectWithFramedVideos } from "../../testing/judge-fixtures";
import { linspaceIndices, VBENCH2_FRAME_COUNT } from "./frames";

export interface Vbench2VideoSpec {
  model: string;
  dimension: string;
  prompt: string;
  auxiliaryInfo?: unknown;
  sampleIndex?: number;
  fps?: number;
  frameCount?: number;
}

export async function vbench2Project(prisma: PrismaClient, owner: Actor, videos: readonly Vbench2VideoSpec[]) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: videos.length, keyFrames: 1, uniformFrames: VBENCH2_FRAME_COUNT, name: "VBench-2.0 test" });
  for (const [v, spec] of videos.entries()) {
    const fps = spec.fps ?? 24;
    const frameCount = spec.frameCount ?? 79;
    const index = spec.sampleIndex ?? 0;
    await prisma.video.update({
      where: { id: videoIds[v]! },
      data: {
        model: spec.model,
        dimensions: [spec.dimension],
        prompt: spec.prompt,
        promptTruncated: spec.prompt.slice(0, 180),
        sampleIndex: index,
        relativePath: `${spec.model}/${spec.dimension}/${spec.prompt.slice(0, 180)}-${index}.mp4`,
        fps,
        frameCount,
        durationS: frameCount / fps,
        auxiliaryInfo: spec.auxiliaryInfo === undefined ? {} : { [spec.dimension]: spec.auxiliaryInfo as object },
      },
    });
    const set = await prisma.frameSet.findFirstOrThrow({ where: { videoId: videoIds[v]!, mode: "uniform" }, select: { id: true } });
    const frames = await prisma.frame.findMany({ where: { frameSetId: set.id }, orderBy: { index: "desc" }, select: { id: true, index: true } });
    const wanted = linspaceIndices(frameCount - 1, VBENCH2_FRAME_COUNT);
    // Highest first: every new index is at least the old one, so no two rows of the set ever share one.
    for (const frame of frames) await prisma.frame.update({ where: { id: frame.id }, data: { index: wanted[frame.index]!, timestampS: wanted[frame.index]! / fps } });
  }
  return { projectId, videoIds };
}

/** An endpoint of the project on the stub LLM, at temperature 0 like VBench's greedy decoding. */
export async function stubEndpoint(prisma: PrismaClient, owner: Actor, projectId: string, baseUrl: string, name: string, model: string) {
  const endpoint = await createEndpoint(prisma, owner, projectId, {
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
