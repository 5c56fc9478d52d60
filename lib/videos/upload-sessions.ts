import type { Readable } from "node:stream";
import type { z } from "zod";
import type { Prisma } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { maxUploadBytes, UPLOAD_CHUNK_BYTES } from "../config/limits";
import { AppError, ConflictError, DuplicateVideoError, NotFoundError, PayloadTooLargeError, ValidationError } from "../errors";
import { StorageIntegrityError, StorageOffsetError, StorageTooLargeError } from "../storage/object-storage";
import { describeImportedVideo } from "./describe-imported-video";
import { registerStoredVideo, type VideoDeps } from "./register-video";
import type { createUploadSchema, VideoMetadataInput } from "./videos.validation";

/**
 * Resumable uploads: the browser declares the file (path, size, SHA-256), appends chunks at the
 * offset the server reports, and completes. A dropped connection resumes from the bytes that
 * arrived instead of restarting a 2 GiB file from zero.
 */
export async function createUploadSession(deps: VideoDeps, actor: Actor, projectId: string, input: z.output<typeof createUploadSchema>) {
  const { prisma } = deps;
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  const limit = maxUploadBytes();
  if (input.sizeBytes > limit) {
    throw new PayloadTooLargeError(`The file is ${formatBytes(input.sizeBytes)}; the limit is ${formatBytes(limit)} (MAX_UPLOAD_BYTES).`);
  }
  if (input.sizeBytes === 0) throw new AppError(422, "empty", "The file is empty (0 bytes).");
  const described = await describeImportedVideo(prisma, projectId, input.relativePath, { model: input.model, metadata: input.metadata });
  if (!described.ok) throw new ValidationError(described.error);
  const existing = await prisma.video.findUnique({ where: { projectId_sha256: { projectId, sha256: input.sha256 } }, select: { id: true } });
  if (existing) throw new DuplicateVideoError(existing.id, described.value.fileName);

  const session = await prisma.uploadSession.create({
    data: {
      projectId,
      createdById: actor.userId,
      relativePath: input.relativePath,
      sizeBytes: BigInt(input.sizeBytes),
      sha256: input.sha256,
      metadata: { model: input.model ?? null, metadata: input.metadata ?? null } as Prisma.InputJsonValue,
    },
  });
  return { uploadId: session.id, receivedBytes: 0, chunkBytes: UPLOAD_CHUNK_BYTES };
}

async function openSessionOf(deps: VideoDeps, actor: Actor, uploadId: string) {
  const session = await deps.prisma.uploadSession.findUnique({ where: { id: uploadId } });
  // Someone else's upload reads as missing, like any resource outside one's projects.
  if (!session || session.createdById !== actor.userId) throw new NotFoundError("No such upload.");
  await requireProjectAccess(deps.prisma, actor, session.projectId, "videos.import");
  return session;
}

export async function uploadStatus(deps: VideoDeps, actor: Actor, uploadId: string) {
  const session = await openSessionOf(deps, actor, uploadId);
  const receivedBytes = session.status === "open" ? await deps.storage.stagingSize(session.id) : Number(session.receivedBytes);
  return { uploadId: session.id, status: session.status, receivedBytes, sizeBytes: Number(session.sizeBytes), videoId: session.videoId, error: session.error };
}

export async function appendUploadChunk(deps: VideoDeps, actor: Actor, uploadId: string, offset: number, body: Readable) {
  const session = await openSessionOf(deps, actor, uploadId);
  if (session.status !== "open") throw new ConflictError(`This upload is ${session.status}.`);
  try {
    const receivedBytes = await deps.storage.appendToStaging(session.id, offset, body, Number(session.sizeBytes));
    await deps.prisma.uploadSession.update({ where: { id: session.id }, data: { receivedBytes: BigInt(receivedBytes) } });
    return { receivedBytes };
  } catch (error) {
    if (error instanceof StorageOffsetError) {
      throw new AppError(409, "offset_mismatch", `Resume from byte ${error.actual}.`);
    }
    if (error instanceof StorageTooLargeError) throw new PayloadTooLargeError("More bytes arrived than the upload declared.");
    throw error;
  }
}

export async function completeUpload(deps: VideoDeps, actor: Actor, uploadId: string) {
  const session = await openSessionOf(deps, actor, uploadId);
  if (session.status !== "open") throw new ConflictError(`This upload is ${session.status}.`);
  const incomingKey = `incoming/${session.id}`;
  try {
    await deps.storage.promoteStaging(session.id, incomingKey, { expectedSha256: session.sha256, expectedSize: Number(session.sizeBytes) });
  } catch (error) {
    if (error instanceof StorageIntegrityError) {
      // Keep the session open: the client may resend missing bytes. A hash mismatch restarts it.
      if (/mismatch/.test(error.message)) await deps.storage.discardStaging(session.id);
      throw new AppError(422, "integrity", error.message);
    }
    throw error;
  }
  const stored = session.metadata as { model?: string | null; metadata?: VideoMetadataInput | null };
  try {
    const video = await registerStoredVideo(deps, actor, {
      projectId: session.projectId,
      incomingKey,
      sha256: session.sha256,
      sizeBytes: Number(session.sizeBytes),
      relativePath: session.relativePath,
      model: stored.model ?? undefined,
      metadata: stored.metadata ?? undefined,
    });
    await deps.prisma.uploadSession.update({ where: { id: session.id }, data: { status: "complete", videoId: video.id } });
    return video;
  } catch (error) {
    await deps.prisma.uploadSession.update({
      where: { id: session.id },
      data: { status: "failed", error: error instanceof Error ? error.message : String(error) },
    });
    throw error;
  }
}

export async function cancelUpload(deps: VideoDeps, actor: Actor, uploadId: string) {
  const session = await openSessionOf(deps, actor, uploadId);
  if (session.status === "open") {
    await deps.storage.discardStaging(session.id);
    await deps.prisma.uploadSession.update({ where: { id: session.id }, data: { status: "cancelled" } });
  }
}

export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
