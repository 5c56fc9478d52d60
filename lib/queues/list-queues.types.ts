/**
 * What GET /projects/{projectId}/queues answers (list-queues.ts): each queue as GET /queues/{queueId} answers it,
 * without the caller's own counts. Plain data: no server-only import.
 */
import { z } from "zod";
import { queueAnswerSchema } from "./get-queue.types";

export const queueListAnswerSchema = z.object({
  queues: z.array(queueAnswerSchema.omit({ mine: true })).describe("Newest first."),
});
