import { z } from "zod";
import { runPromptVersionsSchema } from "../prompt-versions/prompt-versions.validation";
import { baseUrlProblem } from "./endpoint-url-policy";
import { PIPELINES } from "../tasks/modules";
import { ensembleRequestSchema } from "../ensembles/ensemble-settings";

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
        .regex(/^\d{4}-\d{2}-\d{2}(?:-preview)?$|^(?:latest|preview)$/, "apiVersion looks like 2024-10-21 or 2025-04-01-preview."),
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

/** Every pipeline a run can name: the registered tasks' pipelines, read when a request is parsed (a task registered later counts). */
export function pipelineIds(): string[] {
  return Object.keys(PIPELINES);
}

/**
 * The message z.enum gives for an unknown pipeline, so the API's 400 reads as it did when the ids were listed here.
 * It lists the built-in pipelines: a project's own (data-defined) ones are no business of another project's caller.
 */
const unknownPipelineMessage = () =>
  `Invalid option: expected one of ${pipelineIds()
    .filter((id) => !PIPELINES[id]!.projectId)
    .map((id) => JSON.stringify(id))
    .join("|")}`;

/** A registered pipeline's id. */
export const pipelineIdSchema = z.string({ error: unknownPipelineMessage }).refine((id) => Object.hasOwn(PIPELINES, id), { error: unknownPipelineMessage });
/** `?pipeline=` of `GET /api/v1/projects/{projectId}/prompt-versions`. */
export const pipelineQuerySchema = z.object({ pipeline: pipelineIdSchema });
/** The `{pipeline}` of `PUT …/judge-settings/{pipeline}`: free text, since a pipeline without settings is a 400 naming it. */
export const pipelineParamSchema = z.string().max(64);

/**
 * The createRun fields older clients name an item set with (captionSetId, questionSetId, …): each item
 * pipeline's registration names its own (ItemRequirement.setField), in registry order. They are aliases of
 * `itemSetId`; the first one given counts when `itemSetId` is not.
 */
export function itemSetIdAliases(): string[] {
  return [...new Set(Object.values(PIPELINES).flatMap((pipeline) => (pipeline.items?.setField ? [pipeline.items.setField] : [])))];
}

const setIdSchema = z.string().min(1).max(64);

function foldItemSetIdAliases(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const body = raw as Record<string, unknown>;
  if (body.itemSetId !== undefined) return raw;
  const alias = itemSetIdAliases().find((field) => body[field] !== undefined);
  return alias ? { ...body, itemSetId: body[alias] } : raw;
}

export const createRunSchema = z.preprocess(
  foldItemSetIdAliases,
  z.object({
    pipeline: pipelineIdSchema,
    endpointId: z.string().min(1).max(64),
    videoIds: z.array(z.string().min(1).max(64)).max(100_000).optional(),
    dimension: z.string().max(100).optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
    /**
     * Item pipelines: the item set the run judges (a reference set whose captions are judged, a question set, a
     * step annotation set, a candidate set…). Older clients name it by its kind (see itemSetIdAliases).
     */
    itemSetId: setIdSchema.optional(),
    /** Item pipelines: only these models' outputs (default: every model's). */
    models: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional(),
    /** The prompt version per template (a prompt_version id, or "shipped"); templates not named render the shipped file. */
    promptVersions: runPromptVersionsSchema.optional(),
    /** Send the run's calls through the endpoint's Batch API: half the price, answers within 24 hours. */
    batch: z.boolean().optional(),
    /** Self-consistency samples or a judge panel (lib/ensembles): the run's scores are combined from member runs. */
    ensemble: ensembleRequestSchema.optional(),
  }),
);
/** A run request as createRun takes it (aliases folded into itemSetId). */
export type CreateRunInput = z.output<typeof createRunSchema>;
