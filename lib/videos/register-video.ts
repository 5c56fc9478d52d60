import path from "node:path";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { DuplicateVideoError, UnusableVideoError, ValidationError } from "../errors";
import type { ObjectStorage } from "../storage/object-storage";
import { videoKey } from "../storage/storage";
import { probeVideoFile } from "../video/probe-video-file";
import { describeImportedVideo } from "./describe-imported-video";
import type { VideoMetadataInput } from "./videos.validation";
import { isPrismaError, UNIQUE_VIOLATION } from "../db/prisma-errors";

export interface VideoDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
}

const CONTENT_TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".m4v": "video/mp4",
  ".mov": "video/quicktime",
  ".webm": "video/webm",
  ".mkv": "video/x-matroska",
};

/**
 * Turns bytes already in storage (under `incomingKey`) into a project's video: refuses a
 * duplicate, probes the container, moves the file to its final key and records it. On any
 * refusal the incoming object is deleted, so nothing is half-stored.
 */
export async function registerStoredVideo(
  deps: VideoDeps,
  access: ProjectAccess<"videos.import">,
  input: {
    incomingKey: string;
    sha256: string;
    sizeBytes: number;
    relativePath: string;
    model?: string;
    metadata?: VideoMetadataInput;
  },
) {
  const { prisma, storage } = deps;
  const { actor, projectId } = access;
  let moved = false;
  try {
    const described = await describeImportedVideo(prisma, projectId, input.relativePath, {
      model: input.model,
      metadata: input.metadata,
    });
    if (!described.ok) throw new ValidationError(described.error);
    const existing = await prisma.video.findUnique({
      where: { projectId_sha256: { projectId, sha256: input.sha256 } },
      select: { id: true },
    });
    if (existing) throw new DuplicateVideoError(existing.id, described.value.fileName);

    const probed = await storage.withLocalFile(input.incomingKey, probeVideoFile);
    if (!probed.ok) throw new UnusableVideoError(probed.reason, `${described.value.fileName}: ${probed.message}`);

    const extension = path.extname(described.value.fileName).toLowerCase();
    const key = videoKey(projectId, input.sha256, extension);
    await storage.move(input.incomingKey, key);
    moved = true;
    const fields = described.value;
    try {
      return await prisma.video.create({
        data: {
          projectId,
          sha256: input.sha256,
          sizeBytes: BigInt(input.sizeBytes),
          fileName: fields.fileName,
          relativePath: fields.relativePath,
          storageKey: key,
          contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
          prompt: fields.prompt,
          promptTruncated: fields.promptTruncated,
          dimensions: fields.dimensions,
          model: fields.model,
          sampleIndex: fields.sampleIndex,
          seed: fields.seed,
          extra: fields.extra as Prisma.InputJsonValue,
          matchedPrompt: fields.matchedPromptList,
          auxiliaryInfo: fields.auxiliaryInfo as Prisma.InputJsonValue,
          container: probed.probe.container,
          codec: probed.probe.codec,
          width: probed.probe.width,
          height: probed.probe.height,
          durationS: probed.probe.durationS,
          fps: probed.probe.fps,
          frameCount: probed.probe.frameCount,
          createdById: actor.userId,
        },
      });
    } catch (error) {
      // Two uploads of the same bytes at once: the other one won. The stored file is that one's too.
      if (isPrismaError(error, UNIQUE_VIOLATION)) {
        const winner = await prisma.video.findUniqueOrThrow({
          where: { projectId_sha256: { projectId, sha256: input.sha256 } },
          select: { id: true },
        });
        throw new DuplicateVideoError(winner.id, fields.fileName);
      }
      await storage.delete(key);
      throw error;
    }
  } finally {
    if (!moved) await storage.delete(input.incomingKey);
  }
}
