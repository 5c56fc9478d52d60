import { z } from "zod";
import { runPromptVersionsSchema } from "../../prompt-versions/prompt-versions.validation";
import type { TaskCatalogue } from "../../task-modules/task-catalogue";
import { ensembleRequestSchema } from "./ensemble-settings";
import { inputModeSchema } from "../input-modes/index";
import { runSweepSchema } from "./run-sweep.validation";

/** Every pipeline a run can name: the catalogue's (the built-in tasks' and the project's rubric tasks'). */
export function pipelineIds(catalogue: TaskCatalogue): string[] {
  return Object.keys(catalogue.pipelines);
}

/**
 * The message z.enum gives for an unknown pipeline, so the API's 400 reads as it did when the ids were listed here.
 * It lists the built-in pipelines: the message names what every project has.
 */
const unknownPipelineMessage = (catalogue: TaskCatalogue) => () =>
  `Invalid option: expected one of ${pipelineIds(catalogue)
    .filter((id) => !catalogue.pipelines[id]!.projectId)
    .map((id) => JSON.stringify(id))
    .join("|")}`;

/** A pipeline id of the catalogue. */
export function pipelineIdSchema(catalogue: TaskCatalogue) {
  return catalogue.derived("judge.pipelineId", () =>
    z
      .string({ error: unknownPipelineMessage(catalogue) })
      .refine((id) => Object.hasOwn(catalogue.pipelines, id), { error: unknownPipelineMessage(catalogue) }),
  );
}
/** `?pipeline=` of `GET /api/v1/projects/{projectId}/prompt-versions`. */
export function pipelineQuerySchema(catalogue: TaskCatalogue) {
  return catalogue.derived("judge.pipelineQuery", () => z.object({ pipeline: pipelineIdSchema(catalogue) }));
}
/** The `{pipeline}` of `PUT …/judge-settings/{pipeline}`: free text, since a pipeline without settings is a 400 naming it. */
export const pipelineParamSchema = z.string().max(64);

/**
 * The createRun fields older clients name an item set with (captionSetId, questionSetId, …): each item
 * pipeline's registration names its own (ItemRequirement.setField), in registry order. They are aliases of
 * `itemSetId`; the first one given counts when `itemSetId` is not.
 */
export function itemSetIdAliases(catalogue: TaskCatalogue): string[] {
  return [
    ...new Set(
      Object.values(catalogue.pipelines).flatMap((pipeline) =>
        pipeline.items?.setField ? [pipeline.items.setField] : [],
      ),
    ),
  ];
}

const setIdSchema = z.string().min(1).max(64);

function foldItemSetIdAliases(catalogue: TaskCatalogue, raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const body = raw as Record<string, unknown>;
  if (body.itemSetId !== undefined) return raw;
  const alias = itemSetIdAliases(catalogue).find((field) => body[field] !== undefined);
  return alias ? { ...body, itemSetId: body[alias] } : raw;
}

/** A run request, its pipeline one of the catalogue's (kept with the catalogue). */
export function createRunSchema(catalogue: TaskCatalogue) {
  return catalogue.derived("judge.createRun", () => buildCreateRunSchema(catalogue));
}

function buildCreateRunSchema(catalogue: TaskCatalogue) {
  return z.preprocess(
    (raw) => foldItemSetIdAliases(catalogue, raw),
    z.object({
      pipeline: pipelineIdSchema(catalogue),
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
      /** Answer with the run's cost estimate (lib/judge/runs/cost-estimate.ts) and start nothing. */
      dryRun: z.boolean().optional(),
      /** How the run shows videos to the judge (lib/judge/input-modes.ts); default: the endpoint's input mode. */
      inputMode: inputModeSchema.optional(),
      /** Stop the run, resumable, once its calls have cost this many US dollars. */
      budgetUsd: z.number().positive().max(1_000_000).optional(),
      /** One run per value of one setting, saved together (lib/judge/runs/run-sweep.ts): input modes or frame counts. */
      sweep: runSweepSchema.optional(),
      /** A request with a manifest is a manifest's run request (lib/judge/runs/run-manifest.ts), never this one. */
      manifest: z.never().optional(),
    }),
  );
}
/** A run request as createRun takes it (aliases folded into itemSetId). */
export type CreateRunInput = z.output<ReturnType<typeof buildCreateRunSchema>>;
