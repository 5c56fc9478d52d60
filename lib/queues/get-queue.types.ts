/**
 * What GET /queues/{queueId} answers (get-queue.ts): the queue, its progress and the caller's own counts. The route
 * names this schema, the answer's type is checked against it, and the browser imports the type. Plain data: no
 * server-only import.
 */
import { z } from "zod";

const count = z.number().int();

export const queueAnswerSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  runId: z.string().nullable(),
  scope: z.string().describe("The queue type: `scores`, `spans`, or a task's item queue type."),
  mode: z.enum(["full", "presence"]),
  categories: z.array(z.string()).describe('With scope "scores": the categories to review (empty: all).'),
  filter: z.record(z.string(), z.union([z.string(), z.number()])).describe("The video filter it was made with."),
  reviewersPerItem: count,
  handOut: z.string().describe("The hand-out order: `overlap` or `coverage`."),
  blind: z.boolean(),
  localize: z.boolean(),
  guidelines: z.string().describe("Markdown."),
  itemCount: count,
  createdById: z.string(),
  createdAt: z.string().describe("ISO 8601."),
  archivedAt: z.string().nullable(),
  archived: z.boolean(),
  progress: z.object({
    items: count,
    complete: count.describe("Items with all their reviewers."),
    reviewers: z.array(
      z.object({ reviewerId: z.string(), email: z.string(), name: z.string(), done: count, claimed: count }),
    ),
  }),
  mine: z.object({ done: count, claimed: count }).describe("The caller's submitted items and items in progress."),
  finished: z.boolean().describe("Every item has its N reviewers."),
  assignment: z.object({
    assignees: z.array(z.string()).describe("Emails; empty: every reviewer."),
    toMe: z.boolean(),
    open: z.boolean().describe("Whether the caller may claim from it."),
  }),
});
export type QueueAnswer = z.infer<typeof queueAnswerSchema>;
