/**
 * What `GET /curation-queues/{queueId}/next` answers (curation-queues.ts nextCurationItem): the route names this
 * schema, the answer is checked against it, and the curation screen imports the type. Plain data: no server-only
 * import.
 */
import { z } from "zod";

/** The caller's next candidate (null: none left for them), and how many are left. */
export const nextCurationItemAnswerSchema = z.object({
  itemId: z.string().nullable().describe("null when nothing is left for the caller."),
  left: z.number().int().describe("The candidates still waiting for the caller's decision."),
});
export type NextCurationItemAnswer = z.infer<typeof nextCurationItemAnswerSchema>;
