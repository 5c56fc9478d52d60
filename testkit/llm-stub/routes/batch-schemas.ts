/** TEST TOOL. The Batch API's request shapes as the stub LLM reads them: its options, a new batch, a batch's line. */
import { z } from "zod";
import { chatRequestSchema } from "../chat-request";

export const batchOptionsSchema = z.object({
  completionDelayMs: z.number().int().min(0).max(86_400_000).optional(),
  failedShare: z.number().min(0).max(1).optional(),
});
export const createBatchSchema = z.object({
  input_file_id: z.string().min(1),
  endpoint: z.literal("/v1/chat/completions"),
  completion_window: z.literal("24h"),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
export const batchLineSchema = z.object({
  custom_id: z.string().min(1),
  method: z.literal("POST"),
  url: z.literal("/v1/chat/completions"),
  body: chatRequestSchema,
});
