import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../lib/generated/prisma/client";

/** What a test says of a video it adds; the rest is made up (a unique hash, its storage key, status ready). */
export interface ReadyVideoFields {
  projectId: string;
  relativePath: string;
  createdById: string;
  prompt?: string | null;
  sampleIndex?: number | null;
  dimensions?: string[];
  model?: string | null;
}

/** Adds a ready video row (no file behind it) for tests that read videos by path, prompt, dimension or generator. */
export function createReadyVideo(db: PrismaClient, fields: ReadyVideoFields) {
  const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
  return db.video.create({
    data: {
      projectId: fields.projectId,
      sha256: sha,
      sizeBytes: 10n,
      fileName: fields.relativePath.split("/").pop()!,
      relativePath: fields.relativePath,
      storageKey: `projects/${fields.projectId}/videos/${sha}.mp4`,
      contentType: "video/mp4",
      status: "ready",
      prompt: fields.prompt ?? null,
      sampleIndex: fields.sampleIndex ?? null,
      dimensions: fields.dimensions ?? [],
      model: fields.model ?? null,
      createdById: fields.createdById,
    },
  });
}
