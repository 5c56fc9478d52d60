import type { Readable } from "node:stream";
import type { z } from "zod";
import type { Prisma } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { maxUploadBytes, UPLOAD_CHUNK_BYTES } from "../config/limits";
import { formatBytes } from "../format/numbers";
import {
  AppError,
  ConflictError,
  DuplicateVideoError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from "../errors";
import { StorageIntegrityError, StorageOffsetError, StorageTooLargeError } from "../storage/object-storage";
import { describeImportedVideo } from "./describe-imported-video";
import { registerStoredVideo, type VideoDeps } from "./register-video";
import type {
  createUploadSchema,
  UploadChunkAnswer,
  UploadSessionAnswer,
  UploadStatusAnswer,
  VideoMetadataInput,
} from "./videos.validation";

/**
 * Resumable uploads: the browser declares the file (path, size, SHA-256), appends chunks at the
 * offset the server reports, and completes. A dropped connection resumes from the bytes that
 * arrived instead of restarting a 2 GiB file from zero.
 */
export async function createUploadSession(
  deps: VideoDeps,
  access: ProjectAccess<"videos.import">,
  input: z.output<typeof createUploadSchema>,
) {
  const { prisma } = deps;
  const { actor, projectId } = access;
  const limit = maxUploadBytes();
  if (input.sizeBytes > limit) {
    throw new PayloadTooLargeError(
      `The file is ${formatBytes(input.sizeBytes)}; the limit is ${formatBytes(limit)} (MAX_UPLOAD_BYTES).`,
    );
  }
  if (input.sizeBytes === 0) throw new AppError(422, "empty", "The file is empty (0 bytes).");
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
  return { uploadId: session.id, receivedBytes: 0, chunkBytes: UPLOAD_CHUNK_BYTES } satisfies UploadSessionAnswer;
}

async function openSessionOf(deps: VideoDeps, access: ProjectAccess<"videos.import">, uploadId: string) {
  const session = await deps.prisma.uploadSession.findFirst({ where: { id: uploadId, projectId: access.projectId } });
  // Someone else's upload reads as missing, like any resource outside one's projects.
  if (!session || session.createdById !== access.actor.userId) throw new NotFoundError("No such upload.");
  return session;
}

export async function uploadStatus(deps: VideoDeps, access: ProjectAccess<"videos.import">, uploadId: string) {
  const session = await openSessionOf(deps, access, uploadId);
  const receivedBytes =
    session.status === "open" ? await deps.storage.stagingSize(session.id) : Number(session.receivedBytes);
  return {
    uploadId: session.id,
    status: session.status,
    receivedBytes,
    sizeBytes: Number(session.sizeBytes),
    videoId: session.videoId,
    error: session.error,
  } satisfies UploadStatusAnswer;
}

/** How long an append holds its upload without renewing; it renews at a third of this while bytes arrive. */
export const APPEND_LEASE_SECONDS = 60;

/**
 * Appends one chunk at `offset`. Appends to one upload are serialised across processes by a lease on
 * the session row, taken with a compare-and-set: a second append while one runs (a retry racing the
 * original, or parallel PUTs at the same offset) gets 409 offset_mismatch instead of writing the same
 * bytes twice. `declaredBytes` (the request's Content-Length) lets a chunk that would overrun the
 * declared size be refused before any byte is written; without it, the overrun is cut off on arrival.
 */
export async function appendUploadChunk(
  deps: VideoDeps,
  access: ProjectAccess<"videos.import">,
  uploadId: string,
  offset: number,
  body: Readable,
  declaredBytes?: number,
) {
  const session = await openSessionOf(deps, access, uploadId);
  if (session.status !== "open") throw new ConflictError(`This upload is ${session.status}.`);
  const sizeBytes = Number(session.sizeBytes);
  if (declaredBytes !== undefined && offset + declaredBytes > sizeBytes) {
    body.destroy();
    throw new PayloadTooLargeError(
      `The chunk would end at byte ${offset + declaredBytes}, past the ${sizeBytes} bytes the upload declared.`,
    );
  }
  const lease = await takeAppendLease(deps.prisma, session.id);
  if (!lease) {
    body.destroy();
    throw new AppError(
      409,
      "offset_mismatch",
      `Another chunk of this upload is being written; ask for the upload's status and resume from its receivedBytes.`,
      {
        receivedBytes: await deps.storage.stagingSize(session.id),
      },
    );
  }
  let token = lease;
  const renewal = setInterval(
    () => {
      void renewAppendLease(deps.prisma, session.id, token).then((renewed) => {
        if (renewed) token = renewed;
        // Someone else may append now: stop before two writers share the file.
        else
          body.destroy(
            new ConflictError("This chunk took too long and lost its place; resume from the upload's receivedBytes."),
          );
      });
    },
    (APPEND_LEASE_SECONDS * 1000) / 3,
  );
  try {
    const receivedBytes = await deps.storage.appendToStaging(session.id, offset, body, sizeBytes);
    await deps.prisma.uploadSession.update({
      where: { id: session.id },
      data: { receivedBytes: BigInt(receivedBytes) },
    });
    return { receivedBytes } satisfies UploadChunkAnswer;
  } catch (error) {
    body.destroy();
    if (error instanceof StorageOffsetError) {
      throw new AppError(409, "offset_mismatch", `Resume from byte ${error.actual}.`, { receivedBytes: error.actual });
    }
    if (error instanceof StorageTooLargeError)
      throw new PayloadTooLargeError("More bytes arrived than the upload declared.");
    throw error;
  } finally {
    clearInterval(renewal);
    await releaseAppendLease(deps.prisma, session.id, token);
  }
}

/**
 * The lease's expiry on the database's clock, as text (an exact token to compare with; it is stored
 * with millisecond precision), or null when another append holds a lease that has not run out.
 */
async function takeAppendLease(prisma: VideoDeps["prisma"], uploadId: string): Promise<string | null> {
  const rows = await prisma.$queryRaw<{ token: string }[]>`
    UPDATE "upload_session" SET "appendingUntil" = now() + make_interval(secs => ${APPEND_LEASE_SECONDS}::double precision)
    WHERE "id" = ${uploadId} AND "status" = 'open' AND ("appendingUntil" IS NULL OR "appendingUntil" < now())
    RETURNING "appendingUntil"::text AS token`;
  return rows[0]?.token ?? null;
}

/** Extends a lease still held under `token` → the new token, or null when it was lost. */
async function renewAppendLease(prisma: VideoDeps["prisma"], uploadId: string, token: string): Promise<string | null> {
  try {
    const rows = await prisma.$queryRaw<{ token: string }[]>`
      UPDATE "upload_session" SET "appendingUntil" = now() + make_interval(secs => ${APPEND_LEASE_SECONDS}::double precision)
      WHERE "id" = ${uploadId} AND "appendingUntil"::text = ${token}
      RETURNING "appendingUntil"::text AS token`;
    return rows[0]?.token ?? null;
  } catch {
    return token; // a database hiccup is not a lost lease; the next renewal tries again
  }
}

async function releaseAppendLease(prisma: VideoDeps["prisma"], uploadId: string, token: string): Promise<void> {
  await prisma.$executeRaw`UPDATE "upload_session" SET "appendingUntil" = NULL WHERE "id" = ${uploadId} AND "appendingUntil"::text = ${token}`;
}

export async function completeUpload(deps: VideoDeps, access: ProjectAccess<"videos.import">, uploadId: string) {
  const session = await openSessionOf(deps, access, uploadId);
  if (session.status !== "open") throw new ConflictError(`This upload is ${session.status}.`);
  const incomingKey = `incoming/${session.id}`;
  try {
    await deps.storage.promoteStaging(session.id, incomingKey, {
      expectedSha256: session.sha256,
      expectedSize: Number(session.sizeBytes),
    });
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
    const video = await registerStoredVideo(deps, access, {
      incomingKey,
      sha256: session.sha256,
      sizeBytes: Number(session.sizeBytes),
      relativePath: session.relativePath,
      model: stored.model ?? undefined,
      metadata: stored.metadata ?? undefined,
    });
    await deps.prisma.uploadSession.update({
      where: { id: session.id },
      data: { status: "complete", videoId: video.id },
    });
    return video;
  } catch (error) {
    await deps.prisma.uploadSession.update({
      where: { id: session.id },
      data: { status: "failed", error: error instanceof Error ? error.message : String(error) },
    });
    throw error;
  }
}

export async function cancelUpload(deps: VideoDeps, access: ProjectAccess<"videos.import">, uploadId: string) {
  const session = await openSessionOf(deps, access, uploadId);
  if (session.status === "open") {
    await deps.storage.discardStaging(session.id);
    await deps.prisma.uploadSession.update({ where: { id: session.id }, data: { status: "cancelled" } });
  }
}
