/**
 * Rows written with the columns every schema version since the table's creation has, and nothing else, so
 * that fixtures also seed a database held at an older migration (the migration tests). Prisma's create
 * writes every column the current schema has defaults for, which an older table lacks.
 */
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../lib/generated/prisma/client";

let sequence = 0;
/** Ids that sort in creation order, as Prisma's cuid() ids do (tests list rows by id as a tie-break). */
const newId = () =>
  `r${Date.now().toString(36).padStart(9, "0")}${(sequence++).toString(36).padStart(4, "0")}${randomUUID().slice(0, 8)}`;

export async function insertProject(prisma: PrismaClient, name: string, ownerId: string): Promise<string> {
  const id = newId();
  await prisma.$executeRaw`INSERT INTO "project" ("id", "name", "updatedAt") VALUES (${id}, ${name}, now())`;
  await prisma.$executeRaw`INSERT INTO "project_member" ("projectId", "userId", "role", "updatedAt") VALUES (${id}, ${ownerId}, 'owner'::"ProjectRole", now())`;
  return id;
}

export async function insertEndpoint(
  prisma: PrismaClient,
  row: { projectId: string; name: string; baseUrl: string; model: string; createdById: string },
): Promise<string> {
  const id = newId();
  await prisma.$executeRaw`INSERT INTO "judge_endpoint" ("id", "projectId", "name", "baseUrl", "model", "createdById", "updatedAt") VALUES (${id}, ${row.projectId}, ${row.name}, ${row.baseUrl}, ${row.model}, ${row.createdById}, now())`;
  return id;
}

export async function insertFinishedRun(
  prisma: PrismaClient,
  row: { projectId: string; pipeline: string; endpointId: string; createdById: string; endpointSnapshot: unknown },
): Promise<string> {
  const id = newId();
  await prisma.$executeRaw`INSERT INTO "judge_run" ("id", "projectId", "pipeline", "endpointId", "createdById", "status", "endpointSnapshot") VALUES (${id}, ${row.projectId}, ${row.pipeline}, ${row.endpointId}, ${row.createdById}, 'done'::"RunStatus", ${JSON.stringify(row.endpointSnapshot)}::jsonb)`;
  return id;
}

export async function insertVideo(
  prisma: PrismaClient,
  row: {
    projectId: string;
    sha256: string;
    sizeBytes: bigint;
    fileName: string;
    relativePath: string;
    storageKey: string;
    contentType: string;
    status: string;
    prompt?: string | null;
    dimensions: string[];
    createdById: string;
  },
): Promise<string> {
  const id = newId();
  await prisma.$executeRaw`INSERT INTO "video" ("id", "projectId", "sha256", "sizeBytes", "fileName", "relativePath", "storageKey", "contentType", "status", "prompt", "dimensions", "createdById", "updatedAt")
    VALUES (${id}, ${row.projectId}, ${row.sha256}, ${row.sizeBytes}, ${row.fileName}, ${row.relativePath}, ${row.storageKey}, ${row.contentType}, ${row.status}::"VideoStatus", ${row.prompt ?? null}, ${row.dimensions}::text[], ${row.createdById}, now())`;
  return id;
}

export async function insertFrameSet(
  prisma: PrismaClient,
  row: {
    id: string;
    videoId: string;
    identity: string;
    parameters: unknown;
    mode: string;
    frameCount: number;
    keyFrameCount: number;
    createdById: string;
  },
): Promise<void> {
  await prisma.$executeRaw`INSERT INTO "frame_set" ("id", "videoId", "identity", "parameters", "mode", "frameCount", "keyFrameCount", "createdById")
    VALUES (${row.id}, ${row.videoId}, ${row.identity}, ${JSON.stringify(row.parameters)}::jsonb, ${row.mode}, ${row.frameCount}, ${row.keyFrameCount}, ${row.createdById})`;
}
