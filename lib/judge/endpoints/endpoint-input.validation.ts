import { z } from "zod";
import { baseUrlProblem } from "./base-url";
import { inputModeSchema } from "../input-modes/index";
import { tokenRuleSchema } from "./token-rules";

/**
 * An endpoint's fields without defaults. The update schema is its `.partial()`: zod 4 fills in a
 * default even for an omitted key of a partial object, so defaults live only on the create schema,
 * and a PATCH changes exactly the fields it sends.
 */
const endpointFields = z.object({
  name: z.string().trim().min(1).max(100),
  baseUrl: z
    .url({ protocol: /^https?$/, message: "baseUrl must be an http(s) URL." })
    .max(500)
    .superRefine((value, ctx) => {
      const problem = baseUrlProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  model: z.string().trim().min(1).max(200),
  apiKey: z.string().max(500).optional().nullable(),
  imageDetail: z.enum(["low", "high", "auto"]),
  temperature: z.number().min(0).max(2).nullable(),
  maxConcurrency: z.number().int().min(1).max(256),
  requestsPerMinute: z.number().int().min(1).max(100_000).nullable(),
  timeoutSeconds: z.number().int().min(5).max(3600),
  structuredOutput: z.boolean(),
  pricePer1kInput: z.number().min(0).max(1000).nullable(),
  pricePer1kOutput: z.number().min(0).max(1000).nullable(),
  /** The endpoint also serves OpenAI's Batch API (/v1/files, /v1/batches); off unless set. */
  supportsBatchApi: z.boolean().optional(),
  /** The most answer tokens a request may ask for (`max_tokens`); null or absent: the server's default. */
  maxTokens: z.number().int().min(16).max(1_000_000).nullable().optional(),
  /** Azure OpenAI's `api-version` (e.g. 2024-10-21); set, the base URL is the resource's `/openai` URL or a deployment URL. */
  apiVersion: z
    .union([
      z.literal(""),
      z
        .string()
        .trim()
        .regex(
          /^\d{4}-\d{2}-\d{2}(?:-preview)?$|^(?:latest|preview)$/,
          "apiVersion looks like 2024-10-21 or 2025-04-01-preview.",
        ),
    ])
    .nullable()
    // An empty field clears it; an omitted one (a PATCH) leaves it as it is.
    .transform((value) => (value === "" ? null : value))
    .optional(),
  /** Send each image's `detail` field; false for servers that reject or ignore it (Gemini, Ollama). */
  sendImageDetail: z.boolean().optional(),
  /** Ask for the answer tokens' logprobs, `topLogprobs` (1–20) alternatives each, for expected scores; off unless set. */
  requestLogprobs: z.boolean().optional(),
  topLogprobs: z.number().int().min(1).max(20).optional(),
  /**
   * How a judge call shows a video (lib/judge/input-modes.ts): images, video-frames or video-file; absent on create:
   * images. The probe's findings (capabilities.inputModes) inform it, never block it.
   */
  inputMode: inputModeSchema.optional(),
  /**
   * The endpoint's own token rule for the cost estimate (lib/judge/endpoints/token-rules.ts); null: the documented provider's
   * default (docs/guide/providers.md); omitted: unchanged (absent on create: the default).
   */
  tokenRule: tokenRuleSchema.nullable().optional(),
});

export const endpointInputSchema = endpointFields.extend({
  imageDetail: endpointFields.shape.imageDetail.default("auto"),
  temperature: endpointFields.shape.temperature.default(0),
  maxConcurrency: endpointFields.shape.maxConcurrency.default(4),
  requestsPerMinute: endpointFields.shape.requestsPerMinute.default(null),
  timeoutSeconds: endpointFields.shape.timeoutSeconds.default(120),
  structuredOutput: endpointFields.shape.structuredOutput.default(true),
  pricePer1kInput: endpointFields.shape.pricePer1kInput.default(null),
  pricePer1kOutput: endpointFields.shape.pricePer1kOutput.default(null),
});

/** A PATCH: any fields, and `archived` (hidden from run forms, refused for new runs; runs keep it). */
export const endpointUpdateSchema = endpointFields.partial().extend({ archived: z.boolean().optional() });

/** What a client sends to create an endpoint (`POST /api/v1/projects/:id/endpoints`): the schema's input, defaults optional. */
export type EndpointInput = z.input<typeof endpointInputSchema>;
/** What a client sends to change one (`PATCH /api/v1/endpoints/:id`). */
export type EndpointUpdate = z.input<typeof endpointUpdateSchema>;

/** Copy an endpoint of another of the caller's projects into this one (`POST /api/v1/projects/:id/endpoints/reusable`). */
export const copyEndpointSchema = z.object({ fromEndpointId: z.string().min(1).max(64) });
/** What a client sends to copy one. */
export type CopyEndpointRequest = z.input<typeof copyEndpointSchema>;
