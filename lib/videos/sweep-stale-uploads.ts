import type { VideoDeps } from "./register-video";

/** Files of interrupted uploads older than this are removed at start-up. */
export const STALE_UPLOAD_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes what crashed or interrupted uploads left in storage (incoming objects, partial writes,
 * staged chunks of uploads that are no longer open) once it is older than `maxAgeMs`. The files of
 * open upload sessions are kept whatever their age: their clients may still resume.
 */
export async function sweepStaleUploads(
  deps: VideoDeps,
  maxAgeMs = STALE_UPLOAD_AGE_MS,
  now = new Date(),
): Promise<string[]> {
  const open = await deps.prisma.uploadSession.findMany({ where: { status: "open" }, select: { id: true } });
  return deps.storage.sweepStale({
    olderThan: new Date(now.getTime() - maxAgeMs),
    keepUploadIds: new Set(open.map((s) => s.id)),
  });
}
