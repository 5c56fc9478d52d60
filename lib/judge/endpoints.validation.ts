import { z } from "zod";

export const endpointInputSchema = z.object({
  name: z.string().trim().min(1).max(100),
  baseUrl: z.url({ protocol: /^https?$/, message: "baseUrl must be an http(s) URL." }).max(500),
  model: z.string().trim().min(1).max(200),
  apiKey: z.string().max(500).optional().nullable(),
  imageDetail: z.enum(["low", "high", "auto"]).default("auto"),
  temperature: z.number().min(0).max(2).nullable().default(0),
  maxConcurrency: z.number().int().min(1).max(256).default(4),
  requestsPerMinute: z.number().int().min(1).max(100_000).nullable().default(null),
  timeoutSeconds: z.number().int().min(5).max(3600).default(120),
  structuredOutput: z.boolean().default(true),
  pricePer1kInput: z.number().min(0).max(1000).nullable().default(null),
  pricePer1kOutput: z.number().min(0).max(1000).nullable().default(null),
});
export type EndpointInput = z.input<typeof endpointInputSchema>;

export const endpointUpdateSchema = endpointInputSchema.partial();

/** Every pipeline a run can name (lib/judge/pipelines/index.ts registers them; a test keeps the lists equal). */
export const PIPELINE_IDS = ["hallucination", "caption_style", "caption_content"] as const;

export const createRunSchema = z.object({
  pipeline: z.enum(PIPELINE_IDS),
  endpointId: z.string().min(1).max(64),
  videoIds: z.array(z.string().min(1).max(64)).max(100_000).optional(),
  dimension: z.string().max(100).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  /** Item pipelines: the reference set whose captions are judged (or one outputs set). */
  captionSetId: z.string().min(1).max(64).optional(),
  /** Item pipelines: only these models' outputs (default: every model's). */
  models: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional(),
});
