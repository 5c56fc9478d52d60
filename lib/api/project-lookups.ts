import type { z } from "zod";
import { prisma } from "../db/prisma";
import type { Span, Video } from "../generated/prisma/client";
import { itemIdSchema } from "../items/items.validation";
import { endpointIdSchema } from "../judge/endpoints/endpoint-lifecycle";
import { queueIdSchema } from "../queues/queues.validation";
import { recordIdSchema } from "../validation/ids";
import { uploadIdSchema } from "../videos/videos.validation";
import { rubricTaskIdSchema } from "../rubrics/rubrics.validation";
import { webhookIdSchema } from "../webhooks/webhooks.validation";
import type { ProjectLookup } from "./with-project";

/** The record a scope found: its id (validated from the path) and the project it lives in. */
export interface FoundRecord {
  id: string;
  projectId: string;
}

/**
 * A `withProjectOf` scope for a route whose path names one record by `param`: validates it with `idSchema`
 * (the route's own, so a malformed id answers as before) and reads its project with `projectIdOf` (one query).
 */
export function projectLookup(
  param: string,
  idSchema: z.ZodType<string>,
  notFound: string,
  projectIdOf: (id: string) => Promise<string | null | undefined>,
): ProjectLookup<FoundRecord> {
  return {
    notFound,
    async find(params) {
      const id = idSchema.parse(params[param]);
      const projectId = await projectIdOf(id);
      return projectId ? { id, projectId } : null;
    },
  };
}

export const runLookup = (notFound = "No such run.", idSchema: z.ZodType<string> = recordIdSchema) =>
  projectLookup(
    "runId",
    idSchema,
    notFound,
    async (id) => (await prisma.judgeRun.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const videoLookup = (notFound = "No such video.") =>
  projectLookup(
    "videoId",
    recordIdSchema,
    notFound,
    async (id) => (await prisma.video.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

/**
 * A `withProjectOf` scope that reads the whole video row in its one query: for routes whose lib operation works on the
 * video itself (span saves, frame times), so the route hands `record` on and reads nothing of its own.
 */
export const wholeVideoLookup = (notFound = "No such video."): ProjectLookup<Video> => ({
  notFound,
  find: async (params) => prisma.video.findUnique({ where: { id: recordIdSchema.parse(params.videoId) } }),
});

export const frameLookup = projectLookup(
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

export const queueLookup = projectLookup(
  "queueId",
  queueIdSchema,
  "No such queue.",
  async (id) => (await prisma.reviewQueue.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

/** An item (of any task's kind) by `param`; `notFound` names what the route calls it. */
export const itemLookup = (param: string, notFound: string, idSchema: z.ZodType<string> = itemIdSchema) =>
  projectLookup(
    param,
    idSchema,
    notFound,
    async (id) => (await prisma.item.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

/** An item set (of any task's kind) by `param`. */
export const itemSetLookup = (param: string, notFound: string, idSchema: z.ZodType<string>) =>
  projectLookup(
    param,
    idSchema,
    notFound,
    async (id) => (await prisma.itemSet.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const uploadLookup = (idSchema: z.ZodType<string> = uploadIdSchema) =>
  projectLookup(
    "uploadId",
    idSchema,
    "No such upload.",
    async (id) => (await prisma.uploadSession.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const endpointLookup = projectLookup(
  "endpointId",
  endpointIdSchema,
  "No such endpoint.",
  async (id) => (await prisma.judgeEndpoint.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

export const scoreScope = projectLookup(
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

export const judgmentScope = projectLookup(
  "judgmentId",
  recordIdSchema,
  "No such judgment of yours.",
  async (id) => (await prisma.humanJudgment.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

export const rubricTaskLookup = (notFound = "No such rubric task.") =>
  projectLookup(
    "rubricTaskId",
    rubricTaskIdSchema,
    notFound,
    async (id) => (await prisma.rubricTask.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
  );

export const webhookLookup = projectLookup(
  "webhookId",
  webhookIdSchema,
  "No such webhook.",
  async (id) => (await prisma.webhook.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

export const spanLookup = projectLookup(
  "spanId",
  recordIdSchema,
  "No such span of yours.",
  async (id) => (await prisma.span.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

/** `spanLookup`, reading the whole span row: for the route that shows the span itself. */
export const wholeSpanLookup: ProjectLookup<Span> = {
  notFound: "No such span of yours.",
  find: async (params) => prisma.span.findUnique({ where: { id: recordIdSchema.parse(params.spanId) } }),
};

/** A pair set (lib/pairwise) by `pairSetId`. */
export const pairSetLookup = projectLookup(
  "pairSetId",
  recordIdSchema,
  "No such pair set.",
  async (id) => (await prisma.pairSet.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

/** A pair named under its set's path (`/pair-sets/{pairSetId}/pairs/{pairId}`): a pair of another set is not found. */
export const pairInSetLookup: ProjectLookup<FoundRecord> = {
  notFound: "No such pair in this pair set.",
  async find(params) {
    const id = recordIdSchema.parse(params.pairId);
    const pairSetId = recordIdSchema.parse(params.pairSetId);
    const pair = await prisma.pair.findFirst({ where: { id, pairSetId }, select: { projectId: true } });
    return pair ? { id, projectId: pair.projectId } : null;
  },
};
