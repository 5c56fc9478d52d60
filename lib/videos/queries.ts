import type { Prisma } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import { findProjectVideo } from "./frame-sets";
import type { VideoDeps } from "./register-video";

type Video = Prisma.VideoGetPayload<object>;

/** The JSON shape of a video in the API (BigInt sizes as numbers). */
export function videoJson(video: Video) {
  return {
    id: video.id,
    projectId: video.projectId,
    fileName: video.fileName,
    relativePath: video.relativePath,
    sha256: video.sha256,
    sizeBytes: Number(video.sizeBytes),
    contentType: video.contentType,
    status: video.status,
    error: video.error,
    prompt: video.prompt,
    promptTruncated: video.promptTruncated,
    matchedPrompt: video.matchedPrompt,
    dimensions: video.dimensions,
    model: video.model,
    sampleIndex: video.sampleIndex,
    seed: video.seed,
    extra: video.extra,
    durationS: video.durationS,
    fps: video.fps,
    width: video.width,
    height: video.height,
    codec: video.codec,
    container: video.container,
    frameCount: video.frameCount,
    createdAt: video.createdAt,
    /** Send it back as `expectedUpdatedAt` with an edit: a video changed since is then refused. */
    updatedAt: video.updatedAt,
    url: `/api/v1/videos/${video.id}/file`,
  };
}

export async function getVideoDetail(deps: VideoDeps, access: ProjectAccess, videoId: string) {
  const video = await findProjectVideo(deps, access, videoId);
  const frameSets = await deps.prisma.frameSet.findMany({
    where: { videoId },
    orderBy: { createdAt: "asc" },
    include: { frames: { orderBy: { index: "asc" } } },
  });
  return {
    ...videoJson(video),
    frameSets: frameSets.map((set) => ({
      id: set.id,
      mode: set.mode,
      parameters: set.parameters,
      decoder: set.decoder,
      decoderVersion: set.decoderVersion,
      frameCount: set.frameCount,
      keyFrameCount: set.keyFrameCount,
      createdAt: set.createdAt,
      frames: set.frames.map((frame) => ({
        id: frame.id,
        index: frame.index,
        timestampS: frame.timestampS,
        isKeyFrame: frame.isKeyFrame,
        cluster: frame.cluster,
        width: frame.width,
        height: frame.height,
        sha256: frame.sha256,
        url: `/api/v1/frames/${frame.id}/image`,
      })),
    })),
  };
}

/** The frame `frameId` of a video of the access's project; a frame of another project is "No such frame." as a missing one. */
export async function projectFrame(deps: VideoDeps, access: ProjectAccess, frameId: string) {
  const frame = await deps.prisma.frame.findFirst({
    where: { id: frameId, frameSet: { video: { projectId: access.projectId } } },
  });
  if (!frame) throw new NotFoundError("No such frame.");
  return frame;
}
