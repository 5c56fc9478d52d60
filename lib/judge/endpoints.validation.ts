import { z } from "zod";
import { runPromptVersionsSchema } from "../prompt-versions/prompt-versions.validation";
import { baseUrlProblem } from "./endpoint-url-policy";

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

/** Every pipeline a run can name (lib/judge/pipelines/index.ts registers them; a test keeps the lists equal). */
export const PIPELINE_IDS = ["hallucination", "caption_style", "caption_content", "qa", "qa_generate", "qa_construct"] as const;
/** `?pipeline=` of `GET /api/v1/projects/{projectId}/prompt-versions`. */
export const pipelineQuerySchema = z.object({ pipeline: z.enum(PIPELINE_IDS) });
/** The `{pipeline}` of `PUT …/judge-settings/{pipeline}`: free text, since a pipeline without settings is a 400 naming it. */
export const pipelineParamSchema = z.string().max(64);

export const createRunSchema = z.object({
  pipeline: z.enum(PIPELINE_IDS),
  endpointId: z.string().min(1).max(64),
  videoIds: z.array(z.string().min(1).max(64)).max(100_000).optional(),
  dimension: z.string().max(100).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  /** Item pipelines: the reference set whose captions are judged (or one outputs set). */
  captionSetId: z.string().min(1).max(64).optional(),
  /** The QA pipeline: the question set whose questions the run's endpoint answers. */
  questionSetId: z.string().min(1).max(64).optional(),
  /** Q&A generation (qa_generate): the step annotation set whose clips the generator writes questions for. */
  clipSetId: z.string().min(1).max(64).optional(),
  /** Q&A construction (qa_construct): the candidate set (one generation run's) that is categorised, filtered and transformed. */
  candidateSetId: z.string().min(1).max(64).optional(),
  /** Item pipelines: only these models' outputs (default: every model's). */
  models: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional(),
  /** The prompt version per template (a prompt_version id, or "shipped"); templates not named render the shipped file. */
  promptVersions: runPromptVersionsSchema.optional(),
  /** Send the run's calls through the endpoint's Batch API: half the price, answers within 24 hours. */
  batch: z.boolean().optional(),
});
