import type { z } from "zod";
import { prisma } from "../db/prisma";
import { itemIdSchema } from "../items/items.validation";
import { endpointIdSchema } from "../judge/endpoint-lifecycle";
import { queueIdSchema } from "../queues/queues.validation";
import { recordIdSchema } from "../validation/ids";
import { uploadIdSchema } from "../videos/videos.validation";
import { rubricTaskIdSchema } from "../rubrics/rubrics.validation";
import { webhookIdSchema } from "../webhooks/webhooks.validation";
import type { ProjectScope } from "./with-project";

/** The record a scope found: its id (validated from the path) and the project it lives in. */
export interface ScopedRecord {
  id: string;
  projectId: string;
}

/**
 * A `withProjectOf` scope for a route whose path names one record by `param`: validates it with `idSchema`
 * (the route's own, so a malformed id answers as before) and reads its project with `projectIdOf` (one query).
 */
export function projectScope(
  param: string,
  idSchema: z.ZodType<string>,
  notFound: string,
  projectIdOf: (id: string) => Promise<string | null | undefined>,
): ProjectScope<ScopedRecord> {
  return {
    notFound,
    async find(params) {
      const id = idSchema.parse(params[param]);
      const projectId = await projectIdOf(id);
      return projectId ? { id, projectId } : null;
    },
  };
}

export const runScope = (notFound = "No such run.", idSchema: z.ZodType<string> = recordIdSchema) =>
  projectScope(
    "runId",
    idSchema,
    notFound,
    async (id) => (await prisma.judgeRun.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const videoScope = (notFound = "No such video.") =>
  projectScope(
    "videoId",
    recordIdSchema,
    notFound,
    async (id) => (await prisma.video.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const frameScope = projectScope(
  "frameId",
  recordIdSchema,
  "No such frame.",
  async (id) =>
    (
      await prisma.frame.findUnique({
        where: { id },
        select: { frameSet: { select: { video: { select: { projectId: true } } } } },
      })
    )?.frameSet.video.projectId,
);

export const queueScope = projectScope(
  "queueId",
  queueIdSchema,
  "No such queue.",
  async (id) => (await prisma.reviewQueue.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

/** An item (of any task's kind) by `param`; `notFound` names what the route calls it. */
export const itemScope = (param: string, notFound: string, idSchema: z.ZodType<string> = itemIdSchema) =>
  projectScope(
    param,
    idSchema,
    notFound,
    async (id) => (await prisma.item.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

/** An item set (of any task's kind) by `param`. */
export const itemSetScope = (param: string, notFound: string, idSchema: z.ZodType<string>) =>
  projectScope(
    param,
    idSchema,
    notFound,
    async (id) => (await prisma.itemSet.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const uploadScope = (idSchema: z.ZodType<string> = uploadIdSchema) =>
  projectScope(
    "uploadId",
    idSchema,
    "No such upload.",
    async (id) => (await prisma.uploadSession.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const endpointScope = projectScope(
  "endpointId",
  endpointIdSchema,
  "No such endpoint.",
  async (id) => (await prisma.judgeEndpoint.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

export const scoreScope = projectScope(
  "scoreId",
  recordIdSchema,
  "No such score.",
  async (id) =>
    (
      await prisma.score.findUnique({
        where: { id },
        select: { stepResult: { select: { run: { select: { projectId: true } } } } },
      })
    )?.stepResult.run.projectId,
);

export const judgmentScope = projectScope(
  "judgmentId",
  recordIdSchema,
  "No such judgment of yours.",
  async (id) => (await prisma.humanJudgment.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

export const rubricTaskScope = (notFound = "No such rubric task.") =>
  projectScope(
    "rubricTaskId",
    rubricTaskIdSchema,
    notFound,
    async (id) => (await prisma.rubricTask.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const webhookScope = projectScope(
  "webhookId",
  webhookIdSchema,
  "No such webhook.",
  async (id) => (await prisma.webhook.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);
