import { z } from "zod";
import { adjudicationQuerySchema, goldInputSchema } from "../../adjudication/adjudication";
import { agreementQuerySchema, exportQuerySchema } from "../../agreement/scope";
import { createApiKeySchema } from "../../auth/api-keys";
import { compareSetupsQuerySchema, paperTableQuerySchema } from "../../calibration/calibration.validation";
import { restoreCandidateSchema } from "../../tasks/construction/candidate-restores";
import {
  candidateItemIdSchema,
  candidateSetIdSchema,
  createCurationQueueSchema,
  curationBodySchema,
  curationQueueIdSchema,
  exportFormatSchema,
  makeQaSetSchema,
  nextCurationItemQuerySchema,
} from "../../tasks/construction/curation-queues.validation";
import { frameManifestSchema, frameSetParametersSchema } from "../../frames/frame-set-parameters";
import { itemFilterSchema, itemIdSchema, outputsFieldsSchema, referenceSetFieldsSchema } from "../../items/items.validation";
import { endpointIdSchema } from "../../judge/endpoint-lifecycle";
import { createRunSchema, endpointInputSchema, endpointUpdateSchema, pipelineParamSchema, pipelineQuerySchema } from "../../judge/endpoints.validation";
import { PIPELINES } from "../../tasks/modules";
import { captionLeaderboardQuerySchema, captionResultsQuerySchema } from "../../tasks/captions/caption-results";
import { qaAccuracyQuerySchema, qaRunResultsQuerySchema, questionListQuerySchema } from "../../tasks/qa/qa-results";
import { labelNextQuerySchema, labelNextRunIdSchema } from "../../label-next/label-next.validation";
import { labelSetIdSchema, labelSetImportFieldsSchema } from "../../label-sets/label-sets.validation";
import { deleteProjectSchema } from "../../projects/delete-project";
import { addMemberBodySchema, createProjectSchema, projectIdSchema, updateProjectSchema } from "../../projects/projects.validation";
import { savePromptVersionSchema } from "../../prompt-versions/prompt-versions.validation";
import { queueStateSchema } from "../../queues/queue-states";
import { archivedFlagSchema, createQueueSchema, queueFlagSchema, queueGuidelinesSchema, queueIdSchema, submitItemSchema } from "../../queues/queues.validation";
import { reviewedMetricIdSchema } from "../../reviews/reviewed-metric";
import { reviewInputSchema, withdrawInputSchema } from "../../reviews/reviews.validation";
import { recordIdSchema } from "../../validation/ids";
import { applyMetadataSchema } from "../../videos/apply-metadata";
import { compareQuerySchema } from "../../videos/compare-samples.validation";
import { deleteOneVideoSchema, deleteVideosSchema } from "../../videos/delete-videos";
import { videoEditSchema } from "../../videos/video-edits";
import { videoFilterSchema, videoListQuerySchema } from "../../videos/video-filter";
import { createUploadSchema, extractionErrorSchema, uploadIdSchema, uploadOffsetSchema, videoMetadataSchema } from "../../videos/videos.validation";
import {
  createdProjectResponseSchema,
  createdQueueResponseSchema,
  idResponseSchema,
  judgmentResponseSchema,
  meResponseSchema,
  nextItemResponseSchema,
  projectResponseSchema,
  releasedResponseSchema,
  updatedProjectResponseSchema,
  withdrawnJudgmentResponseSchema,
} from "./responses";
import type { ApiRoute, RouteResponse } from "./route-spec";

/*
 * Every (path, method) of /api/v1, described with the zod schemas the route handlers parse (imported from
 * the same lib modules, so a change to a schema changes the document). lib/api/openapi/route-catalogue.test.ts
 * fails when a route file exports a method that has no entry here, or an entry names no route.
 * Summaries follow the README's HTTP API table.
 */

const project = { projectId: projectIdSchema };
const run = { runId: recordIdSchema };
const video = { videoId: recordIdSchema };
const queue = { queueId: queueIdSchema };
const queueItem = { queueId: queueIdSchema, itemId: queueIdSchema };
const upload = { uploadId: uploadIdSchema };

const ok = (description: string, schema?: z.ZodType): RouteResponse => ({ status: 200, description, schema });
const created = (description: string, schema?: z.ZodType): RouteResponse => ({ status: 201, description, schema });
const noContent = (description: string): RouteResponse => ({ status: 204, description });
const download = (description: string, contentTypes: string[]): RouteResponse => ({ status: 200, description, contentTypes });
/** The answer of an import that can be a dry run: 200 when it only checked, 201 when it wrote. */
const importAnswers = (what: string): RouteResponse[] => [ok(`The dry run: what ${what} would import, nothing written.`), created(`${what} imported.`)];

const setFileFields = "Multipart: `file`, `name`?, `citation`?, `dryRun`? (\"true\": check only, write nothing).";

/** The settings of one pipeline (`PUT …/judge-settings/{pipeline}`): each pipeline's own schema. */
function pipelineSettingsSchema(): z.ZodType {
  const schemas = Object.entries(PIPELINES).flatMap(([id, pipeline]) => (pipeline.settingsSchema ? [pipeline.settingsSchema.describe(`The settings of ${id}.`)] : []));
  return schemas.length > 1 ? z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]) : (schemas[0] ?? z.unknown());
}

export function apiRoutes(): ApiRoute[] {
  return [
    // The document itself.
    {
      method: "get",
      path: "/api/v1/openapi.json",
      summary: "This OpenAPI 3.1 document",
      description: "Public: the document describes the API and holds no data or secrets. Covers /api/v1 only; /api/auth/* (better-auth), /api/health and /api/metrics are described in the README.",
      access: "public",
      responses: [ok("The OpenAPI 3.1 document.")],
    },

    // The caller.
    { method: "get", path: "/api/v1/me", summary: "The caller", responses: [ok("The caller.", meResponseSchema)] },
    { method: "get", path: "/api/v1/me/api-keys", summary: "The caller's API keys", description: "Never the keys themselves: only their names, prefixes and dates.", responses: [ok("`{apiKeys: [...]}`.")] },
    { method: "post", path: "/api/v1/me/api-keys", summary: "Create an API key", description: "The answer holds the key, shown this once; only a hash is stored.", body: { kind: "json", schema: createApiKeySchema }, responses: [created("The new key, with its secret.")] },
    { method: "delete", path: "/api/v1/me/api-keys/{keyId}", summary: "Revoke one of the caller's API keys", params: { keyId: recordIdSchema }, responses: [noContent("Revoked.")] },

    // Projects and members.
    { method: "get", path: "/api/v1/projects", summary: "The caller's projects", responses: [ok("`{projects: [...]}`.")] },
    { method: "post", path: "/api/v1/projects", summary: "Create a project", body: { kind: "json", schema: createProjectSchema }, responses: [created("The project.", createdProjectResponseSchema)] },
    { method: "get", path: "/api/v1/projects/{projectId}", summary: "One project", params: project, responses: [ok("The project, with its guidelines (Markdown).", projectResponseSchema)] },
    {
      method: "patch",
      path: "/api/v1/projects/{projectId}",
      summary: "Rename, archive or write the reviewers' guidelines (owners)",
      params: project,
      body: { kind: "json", schema: updateProjectSchema },
      responses: [ok("The project.", updatedProjectResponseSchema)],
    },
    {
      method: "delete",
      path: "/api/v1/projects/{projectId}",
      summary: "Delete a project with everything in it (owners)",
      description: "`{\"dryRun\": true}` only counts what would go; else `confirmName` must be the project's name. A queued or running run → 409 run_in_progress.",
      params: project,
      body: { kind: "json", schema: deleteProjectSchema, optional: true },
      responses: [ok("`{dryRun, name, counts, storage}`.")],
      errors: [409],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/members", summary: "The project's members", params: project, responses: [ok("`{members: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/members",
      summary: "Add or change a member (owners)",
      description: "An unknown email is refused.",
      params: project,
      body: { kind: "json", schema: addMemberBodySchema },
      responses: [created("`{members: [...]}`, the members after the change.")],
    },

    // Videos, uploads, frames.
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/videos",
      summary: "The video list, filtered, sorted and paginated",
      description: "`min.<metric>`, `max.<metric>` and `is.<metric>` exist for every metric of the registered tasks; a filter the run's task does not declare is a 400 naming it. Page with `cursor` (`nextCursor`/`prevCursor` of the answer) or `page`.",
      params: project,
      query: videoListQuerySchema,
      responses: [ok("`{run, page, pageSize, total, totalExact, nextCursor, prevCursor, videos}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/videos",
      summary: "Register one video (owners), streamed to storage",
      params: project,
      body: {
        kind: "multipart",
        fields: z.object({ path: z.string().optional().describe("The video's relative path; default its file name."), model: z.string().optional().describe("The generator model.") }),
        jsonFields: { metadata: videoMetadataSchema },
        files: { file: "The video." },
      },
      responses: [created("The video.")],
      errors: [409, 413, 422],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/videos/delete",
      summary: "Delete up to 5,000 videos with what depends on them (owners)",
      params: project,
      body: { kind: "json", schema: deleteVideosSchema },
      responses: [ok("`{dryRun, counts, storage}`.")],
      errors: [409],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/videos/metadata",
      summary: "Apply metadata rows (and prompt lists) to videos already imported (owners)",
      description: "A dry run by default; overwriting a value already set needs `confirmOverwrites`, else 409 overwrite_unconfirmed.",
      params: project,
      body: { kind: "json", schema: applyMetadataSchema },
      responses: [ok("`{dryRun, matchedVideos, changes, overwrites, unmatchedRows, unmatchedRowCount, applied}`.")],
      errors: [409],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/completeness", summary: "The VBench-2.0 completeness report", params: project, responses: [ok("The report.")] },
    { method: "get", path: "/api/v1/projects/{projectId}/prompt-lists", summary: "The project's prompt lists", params: project, responses: [ok("`{promptLists: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/prompt-lists",
      summary: "Store a prompt list (owners)",
      description: "A VBench prompt file (prompt/<Dimension>.txt, VBench2_full_text_info.json), or txt/CSV/JSONL.",
      params: project,
      body: { kind: "multipart", files: { file: "The prompt list." } },
      responses: [created("The stored list.")],
      errors: [413],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/uploads",
      summary: "Start a resumable upload",
      params: project,
      body: { kind: "json", schema: createUploadSchema },
      responses: [created("`{uploadId, receivedBytes, chunkBytes}`.")],
      errors: [409],
    },
    { method: "get", path: "/api/v1/uploads/{uploadId}", summary: "An upload's status", params: upload, responses: [ok("The upload's status and received bytes.")] },
    {
      method: "put",
      path: "/api/v1/uploads/{uploadId}",
      summary: "Append a chunk at `?offset=`",
      description: "A wrong offset, or another chunk of the upload being written, → 409 offset_mismatch with `error.details.receivedBytes`; a chunk past the declared size → 413, nothing of it kept.",
      params: upload,
      query: z.object({ offset: uploadOffsetSchema }),
      body: { kind: "bytes", description: "The chunk's bytes." },
      responses: [ok("The upload's status after the chunk.")],
      errors: [409, 413],
    },
    { method: "delete", path: "/api/v1/uploads/{uploadId}", summary: "Cancel an upload", params: upload, responses: [noContent("Cancelled.")] },
    {
      method: "post",
      path: "/api/v1/uploads/{uploadId}/complete",
      summary: "Finish an upload (its SHA-256 is checked)",
      params: { uploadId: recordIdSchema },
      responses: [created("The video.")],
      errors: [409, 422],
    },
    { method: "get", path: "/api/v1/videos/{videoId}", summary: "A video's metadata and frame sets with frames", params: video, responses: [ok("The video.")] },
    {
      method: "patch",
      path: "/api/v1/videos/{videoId}",
      summary: "Change a video's fields (owners)",
      description: "Only the fields given change; null or \"\" clears one; with `expectedUpdatedAt` a video changed since → 409.",
      params: video,
      body: { kind: "json", schema: videoEditSchema },
      responses: [ok("The video with `changes` `[{field, before, after, overwrite}]`.")],
      errors: [409],
    },
    {
      method: "delete",
      path: "/api/v1/videos/{videoId}",
      summary: "Delete a video with what depends on it (owners)",
      params: video,
      body: { kind: "json", schema: deleteOneVideoSchema, optional: true },
      responses: [ok("`{dryRun, counts, storage}`.")],
      errors: [409],
    },
    { method: "get", path: "/api/v1/videos/{videoId}/edits", summary: "The video's field edits, newest first", params: video, responses: [ok("`{edits: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/videos/{videoId}/extraction-error",
      summary: "Record that the browser could not extract frames",
      params: video,
      body: { kind: "json", schema: extractionErrorSchema },
      responses: [noContent("Recorded.")],
    },
    {
      method: "get",
      path: "/api/v1/videos/{videoId}/file",
      summary: "The video file, with Range support",
      params: video,
      responses: [download("The video's bytes (206 for a range).", ["video/*"]), { status: 206, description: "The requested range.", contentTypes: ["video/*"] }],
      errors: [416],
    },
    {
      method: "post",
      path: "/api/v1/videos/{videoId}/frame-sets",
      summary: "Frames extracted by a client, all-or-nothing (owners)",
      params: video,
      body: {
        kind: "multipart",
        fields: z.object({ decoder: z.string().optional().describe("What decoded the video (kept up to 40 characters).") }),
        jsonFields: { parameters: frameSetParametersSchema, manifest: frameManifestSchema },
        files: {},
        otherFiles: "One JPEG per frame, named as in the manifest.",
      },
      responses: [ok("The frame set already stored with these parameters."), created("The frame set.")],
      errors: [413],
    },
    {
      method: "get",
      path: "/api/v1/videos/{videoId}/reviews",
      summary: "The reviewers' judgments of a video",
      params: video,
      query: z.object({ runId: recordIdSchema.optional(), itemId: recordIdSchema.optional() }),
      responses: [ok("The judgments.")],
    },
    {
      method: "get",
      path: "/api/v1/videos/{videoId}/scores",
      summary: "The judge's scores of a video",
      description: "From `runId`, or the latest run.",
      params: video,
      query: z.object({ runId: z.string().max(64).optional() }),
      responses: [ok("The scores.")],
    },
    {
      method: "get",
      path: "/api/v1/frames/{frameId}/image",
      summary: "One frame (JPEG), with Range support",
      params: { frameId: recordIdSchema },
      responses: [download("The JPEG.", ["image/jpeg"]), { status: 206, description: "The requested range.", contentTypes: ["image/jpeg"] }],
      errors: [416],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/compare",
      summary: "Every sample of one prompt, grouped by model and sample index",
      params: { projectId: recordIdSchema },
      query: compareQuerySchema,
      responses: [ok("The samples.")],
    },

    // Judge endpoints and runs.
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/endpoints",
      summary: "The project's judge endpoints (never their keys)",
      params: project,
      query: z.object({ archived: z.string().optional().describe("\"1\": archived ones too.") }),
      responses: [ok("`{endpoints: [...]}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/endpoints",
      summary: "Add an OpenAI-compatible judge endpoint (owners)",
      description: "The key is encrypted with APP_SECRET. A base URL the endpoint policy refuses → 400 endpoint_not_allowed.",
      params: project,
      body: { kind: "json", schema: endpointInputSchema },
      responses: [created("The endpoint's id.", idResponseSchema)],
    },
    {
      method: "patch",
      path: "/api/v1/endpoints/{endpointId}",
      summary: "Change, archive or restore an endpoint (owners)",
      description: "Only the fields sent change; an omitted `apiKey` keeps the stored one, \"\" removes it.",
      params: { endpointId: endpointIdSchema },
      body: { kind: "json", schema: endpointUpdateSchema },
      responses: [ok("The endpoint.")],
    },
    {
      method: "delete",
      path: "/api/v1/endpoints/{endpointId}",
      summary: "Delete an endpoint no run uses (owners)",
      params: { endpointId: endpointIdSchema },
      responses: [noContent("Deleted.")],
      errors: [409],
    },
    {
      method: "post",
      path: "/api/v1/endpoints/{endpointId}/test",
      summary: "Test an endpoint with one small image (owners); nothing is stored",
      params: { endpointId: endpointIdSchema },
      responses: [ok("`{answered, latencyMs, tookImage, colour, colourNamed, answer, error, status}`.")],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/runs", summary: "The project's runs", params: project, responses: [ok("`{runs: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/runs",
      summary: "Start a run",
      description: "No `videoIds`: every video with the frame set the pipeline needs. `batch` needs an endpoint that supports the Batch API.",
      params: project,
      body: { kind: "json", schema: createRunSchema },
      responses: [created("`{id, videos, withoutFrames, withoutFramesCount}` (caption runs also `items`, `excludedItems`).")],
    },
    {
      method: "put",
      path: "/api/v1/projects/{projectId}/judge-settings/{pipeline}",
      summary: "The project's default settings for new runs of a pipeline (owners)",
      description: "The body is the settings schema of the pipeline the path names; a pipeline without settings → 400.",
      params: { projectId: projectIdSchema, pipeline: pipelineParamSchema },
      body: { kind: "json", schema: pipelineSettingsSchema() },
      responses: [ok("The settings saved.")],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/prompt-versions",
      summary: "Each template a pipeline renders, its shipped text and the project's versions",
      params: project,
      query: pipelineQuerySchema,
      responses: [ok("`{pipeline, templates}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/prompt-versions",
      summary: "Save a prompt version (owners)",
      params: project,
      body: { kind: "json", schema: savePromptVersionSchema },
      responses: [ok("That text is already a version (`created: false`)."), created("The new version (`created: true`).")],
    },
    { method: "get", path: "/api/v1/runs/{runId}", summary: "A run's status and progress", params: run, responses: [ok("The run.")] },
    { method: "post", path: "/api/v1/runs/{runId}/cancel", summary: "Cancel a run", params: run, responses: [ok("The run's status after cancelling.")] },
    {
      method: "post",
      path: "/api/v1/runs/{runId}/candidates",
      summary: "A finished qa_generate run's pairs as a candidate set (idempotent)",
      params: run,
      responses: [ok("The set already made from this run."), created("The candidate set.")],
    },
    {
      method: "get",
      path: "/api/v1/runs/{runId}/captions",
      summary: "A caption run's results per caption",
      description: "csv/jsonl: every caption, as an attachment.",
      params: run,
      query: captionResultsQuerySchema,
      responses: [download("The results.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
    {
      method: "get",
      path: "/api/v1/runs/{runId}/qa",
      summary: "A QA run's results per question",
      description: "csv/jsonl: every question, as an attachment.",
      params: run,
      query: qaRunResultsQuerySchema,
      responses: [download("The results.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
    {
      method: "get",
      path: "/api/v1/runs/{runId}/label-next",
      summary: "What to label next (owners)",
      params: { runId: labelNextRunIdSchema },
      query: labelNextQuerySchema,
      responses: [ok("`{eligible, excluded, strata, current, expected, videos, scoreMetric, verdictMetric}`.")],
    },
    {
      method: "put",
      path: "/api/v1/runs/{runId}/videos/{videoId}/review/{target}",
      summary: "The caller's own value of one of the run's reviewed per-video metrics",
      params: { runId: recordIdSchema, videoId: recordIdSchema, target: reviewedMetricIdSchema() },
      body: { kind: "json", schema: reviewInputSchema },
      responses: [ok("The judgment.", judgmentResponseSchema)],
      errors: [409],
    },
    {
      method: "put",
      path: "/api/v1/scores/{scoreId}/review",
      summary: "The caller's own judgment of a judge score",
      params: { scoreId: recordIdSchema },
      body: { kind: "json", schema: reviewInputSchema },
      responses: [ok("The judgment.", judgmentResponseSchema)],
      errors: [409],
    },
    {
      method: "delete",
      path: "/api/v1/judgments/{judgmentId}",
      summary: "Withdraw the caller's own judgment",
      description: "Kept in history; it counts nowhere until saved again.",
      params: { judgmentId: recordIdSchema },
      body: { kind: "json", schema: withdrawInputSchema },
      responses: [ok("The withdrawn judgment.", withdrawnJudgmentResponseSchema)],
      errors: [409],
    },

    // Captions and questions.
    { method: "get", path: "/api/v1/projects/{projectId}/caption-sets", summary: "The caption sets", params: project, responses: [ok("`{sets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/caption-sets",
      summary: "Import an AnyCapEval reference JSONL (owners)",
      description: setFileFields,
      params: project,
      body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "The reference JSONL." } },
      responses: importAnswers("the reference set"),
      errors: [413, 422],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/caption-sets/{setId}/outputs",
      summary: "Import one model's outputs against a reference set (owners)",
      params: { projectId: projectIdSchema, setId: itemIdSchema },
      body: { kind: "multipart", fields: outputsFieldsSchema, files: { file: "JSONL or CSV: {id, output} or {video, type, output}." } },
      responses: importAnswers("the outputs"),
      errors: [409, 413, 422],
    },
    {
      method: "delete",
      path: "/api/v1/projects/{projectId}/caption-sets/{setId}",
      summary: "Delete a caption set and exactly its items (owners)",
      params: { projectId: projectIdSchema, setId: itemIdSchema },
      responses: [ok("`{id, deletedItems}`.")],
      errors: [409],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/captions",
      summary: "One page of the project's captions (or references)",
      params: project,
      query: itemFilterSchema,
      responses: [ok("`{total, page, pageSize, items}`.")],
    },
    { method: "get", path: "/api/v1/captions/{captionId}", summary: "One caption with its reference", params: { captionId: itemIdSchema }, responses: [ok("The caption.")] },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/caption-leaderboard",
      summary: "Caption scores per model × caption type, with bootstrap 95% intervals",
      description: "`runId` twice: the style run and the content run.",
      params: project,
      query: captionLeaderboardQuerySchema,
      responses: [download("The leaderboard.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/question-sets", summary: "The question sets", params: project, responses: [ok("`{sets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/question-sets",
      summary: "Import a question set (owners)",
      description: setFileFields,
      params: project,
      body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
      responses: importAnswers("the question set"),
      errors: [413, 422],
    },
    {
      method: "delete",
      path: "/api/v1/projects/{projectId}/question-sets/{setId}",
      summary: "Delete a question set and exactly its questions (owners)",
      params: { projectId: projectIdSchema, setId: itemIdSchema },
      responses: [ok("`{id, deletedItems}`.")],
      errors: [409],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/questions",
      summary: "One page of the project's questions",
      params: project,
      query: questionListQuerySchema,
      responses: [ok("`{total, page, pageSize, items}`.")],
    },
    { method: "get", path: "/api/v1/questions/{questionId}", summary: "One question with every QA run that answered it", params: { questionId: itemIdSchema }, responses: [ok("The question.")] },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/qa-accuracy",
      summary: "QA accuracy per run × format × category × granularity, with Wilson 95% intervals",
      params: project,
      query: qaAccuracyQuerySchema,
      responses: [download("The overview.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/step-annotations", summary: "The step annotation sets", params: project, responses: [ok("`{sets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/step-annotations",
      summary: "Import step annotations for Q&A construction as clips (owners)",
      description: setFileFields,
      params: project,
      body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
      responses: importAnswers("the clips"),
      errors: [413, 422],
    },

    // Label sets, agreement, calibration, export, adjudication.
    { method: "get", path: "/api/v1/projects/{projectId}/label-sets", summary: "The label sets", params: project, responses: [ok("`{labelSets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/label-sets",
      summary: "Import a label set (owners)",
      description: "`dryRun` is \"true\" by default: the plan and every interpreted or skipped cell, nothing written.",
      params: project,
      body: { kind: "multipart", fields: labelSetImportFieldsSchema, files: { file: "The label sheet (.xlsx), VBench results (JSON), or generic CSV/JSONL." } },
      responses: importAnswers("the label set"),
      errors: [413],
    },
    {
      method: "delete",
      path: "/api/v1/projects/{projectId}/label-sets/{labelSetId}",
      summary: "Delete a label set and exactly its judgments (owners)",
      params: { projectId: projectIdSchema, labelSetId: labelSetIdSchema },
      responses: [ok("What was deleted.")],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/agreement",
      summary: "Agreement between reviewers and with the judge",
      params: project,
      query: agreementQuerySchema,
      responses: [download("The report.", ["application/json", "text/csv"])],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/calibration",
      summary: "The paper's table: the judge against a label set",
      params: project,
      query: paperTableQuerySchema,
      responses: [download("The report.", ["application/json", "text/csv", "application/x-latex"])],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/calibration/compare",
      summary: "Judge setups compared against a reference",
      params: project,
      query: compareSetupsQuerySchema,
      responses: [download("The comparison.", ["application/json", "text/csv"])],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/export",
      summary: "Every judged item of the filtered videos with each reviewer's judgment, streamed",
      params: project,
      query: exportQuerySchema,
      responses: [download("The export, as an attachment.", ["text/csv", "application/x-ndjson"])],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/adjudication",
      summary: "The targets live reviewers disagree on (owners)",
      params: project,
      query: adjudicationQuerySchema,
      responses: [ok("`{total, settled, items}`.")],
    },
    {
      method: "put",
      path: "/api/v1/projects/{projectId}/gold",
      summary: "Set the gold value of a judged target (owners)",
      description: "A stale or missing version when gold exists → 409 with `error.details.current`.",
      params: project,
      body: { kind: "json", schema: goldInputSchema },
      responses: [ok("The gold with its history.")],
      errors: [409],
    },

    // Review queues.
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/queues",
      summary: "The project's queues with progress",
      params: project,
      query: z.object({ archived: archivedFlagSchema }),
      responses: [ok("`{queues: [...]}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/queues",
      summary: "Create a review queue (owners)",
      params: project,
      body: { kind: "json", schema: createQueueSchema },
      responses: [created("The queue.", createdQueueResponseSchema)],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/queues/preview",
      summary: "How many videos a queue with this filter would hold (owners)",
      params: project,
      query: videoFilterSchema,
      responses: [ok("`{runId, count}`.")],
    },
    { method: "get", path: "/api/v1/queues/{queueId}", summary: "A queue with its progress and the caller's own counts", params: queue, responses: [ok("The queue.")] },
    {
      method: "patch",
      path: "/api/v1/queues/{queueId}",
      summary: "Archive / restore, assign, or change the guidelines of a queue (owners)",
      params: queue,
      body: { kind: "json", schema: z.union([queueGuidelinesSchema.strict(), queueStateSchema]) },
      responses: [ok("The queue.")],
    },
    { method: "post", path: "/api/v1/queues/{queueId}/next", summary: "Claim the caller's next item (or return their open claim)", params: queue, responses: [ok("The item's id.", nextItemResponseSchema)] },
    { method: "get", path: "/api/v1/queues/{queueId}/items/{itemId}", summary: "One of the caller's items", params: queueItem, responses: [ok("The item's review payload.")] },
    {
      method: "post",
      path: "/api/v1/queues/{queueId}/items/{itemId}/ahead",
      summary: "Claim the item after this one while the caller works on it",
      params: queueItem,
      query: z.object({ payload: queueFlagSchema }),
      responses: [ok("`{itemId}` (null when none), with `payload=1` also `item`.")],
    },
    { method: "post", path: "/api/v1/queues/{queueId}/items/{itemId}/release", summary: "Let go of the caller's unsubmitted claim", params: queueItem, responses: [ok("Whether it was released.", releasedResponseSchema)] },
    {
      method: "post",
      path: "/api/v1/queues/{queueId}/items/{itemId}/submit",
      summary: "Save the judgments and mark the item done for the caller",
      description: "With `?next=1` it then claims the caller's next item and returns it as `next`.",
      params: queueItem,
      query: z.object({ next: queueFlagSchema }),
      body: { kind: "json", schema: submitItemSchema },
      responses: [ok("The saved judgments (and `next`).")],
      errors: [409],
    },

    // Q&A construction: curation.
    { method: "get", path: "/api/v1/projects/{projectId}/curation-queues", summary: "The project's curation queues", params: project, responses: [ok("`{queues: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/curation-queues",
      summary: "Create a curation queue (owners)",
      params: project,
      body: { kind: "json", schema: createCurationQueueSchema },
      responses: [created("The queue.")],
    },
    { method: "get", path: "/api/v1/curation-queues/{queueId}", summary: "One curation queue", params: { queueId: curationQueueIdSchema }, responses: [ok("The queue.")] },
    {
      method: "get",
      path: "/api/v1/curation-queues/{queueId}/next",
      summary: "The caller's next candidate",
      params: { queueId: curationQueueIdSchema },
      query: nextCurationItemQuerySchema,
      responses: [ok("`{itemId, left}`.")],
    },
    {
      method: "get",
      path: "/api/v1/curation-queues/{queueId}/items/{itemId}",
      summary: "What the curation screen shows for one candidate",
      params: { queueId: curationQueueIdSchema, itemId: candidateItemIdSchema },
      responses: [ok("The candidate.")],
    },
    { method: "get", path: "/api/v1/items/{itemId}/curation", summary: "Every curator's decision on a candidate, its outcome and history", params: { itemId: candidateItemIdSchema }, responses: [ok("The decisions.")] },
    {
      method: "put",
      path: "/api/v1/items/{itemId}/curation",
      summary: "Save the caller's curation decision (reviewers, owners)",
      params: { itemId: candidateItemIdSchema },
      body: { kind: "json", schema: curationBodySchema },
      responses: [ok("The decision with its new version.")],
      errors: [409],
    },
    {
      method: "post",
      path: "/api/v1/items/{itemId}/restore",
      summary: "Restore a candidate a construction filter removed",
      params: { itemId: recordIdSchema },
      body: { kind: "json", schema: restoreCandidateSchema },
      responses: [created("The restore.")],
    },
    {
      method: "get",
      path: "/api/v1/candidate-sets/{setId}/export",
      summary: "The accepted questions as a question set (JSONL attachment)",
      params: { setId: candidateSetIdSchema },
      query: z.object({ format: exportFormatSchema }),
      responses: [download("The JSONL.", ["application/x-ndjson"])],
    },
    {
      method: "get",
      path: "/api/v1/candidate-sets/{setId}/letter-histogram",
      summary: "How many exported mc questions have each correct letter",
      params: { setId: candidateSetIdSchema },
      responses: [ok("`{curatorsPerQuestion, counts, multipleChoice, histogram}`.")],
    },
    {
      method: "post",
      path: "/api/v1/candidate-sets/{setId}/qa-sets",
      summary: "Import the export as a question set of a project",
      params: { setId: candidateSetIdSchema },
      body: { kind: "json", schema: makeQaSetSchema },
      responses: [created("`{questionSetId, projectId, count}`.")],
      errors: [422],
    },
  ];
}
