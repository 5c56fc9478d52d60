import { z } from "zod";
import { adjudicationQuerySchema } from "../../adjudication/adjudication";
import { goldInputSchema } from "../../adjudication/adjudication.validation";
import { agreementQuerySchema, exportQuerySchema } from "../../agreement/scope";
import { createApiKeySchema } from "../../auth/api-keys";
import { hfDatasetQuerySchema } from "../../export/hf-splits.validation";
import { compareSetupsQuerySchema, paperTableQuerySchema } from "../../calibration/calibration.validation";
import { frameManifestSchema, frameSetParametersSchema } from "../../frames/frame-set-parameters";
import { endpointIdSchema } from "../../judge/endpoint-lifecycle";
import { copyEndpointSchema, endpointInputSchema, endpointUpdateSchema } from "../../judge/endpoint-input.validation";
import { REUSABLE_ENDPOINTS_LIMIT } from "../../judge/endpoint-reuse";
import { createRunSchema, pipelineParamSchema, pipelineQuerySchema } from "../../judge/endpoints.validation";
import { installedPipelines, installedTaskModules } from "../../task-modules/installed-task-modules";
import { labelNextQuerySchema, labelNextRunIdSchema } from "../../label-next/label-next.validation";
import { labelSetIdSchema, labelSetImportFieldsSchema } from "../../label-sets/label-sets.validation";
import { runLeaderboardQuerySchema } from "../../leaderboard/run-leaderboard.validation";
import { deleteProjectSchema } from "../../projects/project-deletion";
import { addMemberBodySchema, createProjectSchema, projectIdSchema, updateProjectSchema } from "../../projects/projects.validation";
import { savePromptVersionSchema } from "../../prompt-versions/prompt-versions.validation";
import { queueStateSchema } from "../../queues/queue-states.validation";
import { archivedFlagSchema, createQueueSchema, queueFlagSchema, queueGuidelinesSchema, queueIdSchema, queuePreviewQuerySchema } from "../../queues/queues.validation";
import { submitItemSchema } from "../../queues/submit-item.validation";
import { reviewedMetricIdSchema } from "../../reviews/reviewed-metric";
import { reviewInputSchema, withdrawInputSchema } from "../../reviews/reviews.validation";
import { rubricArchiveSchema, rubricBodySchema, rubricExportQuerySchema, rubricPreviewSchema, rubricTaskIdSchema } from "../../rubrics/rubrics.validation";
import { recordIdSchema } from "../../validation/ids";
import { referenceSetFieldsSchema } from "../../items/items.validation";
import { applyMetadataSchema } from "../../videos/apply-metadata";
import { compareQuerySchema } from "../../videos/compare-samples.validation";
import { deleteOneVideoSchema, deleteVideosSchema } from "../../videos/delete-videos";
import { promptListQuerySchema } from "../../videos/prompt-list-store";
import { videoEditSchema } from "../../videos/video-edits.validation";
import { videoListQuerySchema } from "../../videos/video-filter";
import { startAlignmentSchema } from "../../alignment/alignment.validation";
import { createWebhookSchema, deliveryListQuerySchema, updateWebhookSchema, webhookIdSchema } from "../../webhooks/webhooks.validation";
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
import { accepted, created, download, importAnswers, noContent, ok, projectParams, runParams, setFileFields } from "./route-builders";
import type { ApiRoute } from "./route-spec";

/*
 * Every (path, method) of /api/v1, described with the zod schemas the route handlers parse (imported from
 * the same lib modules, so a change to a schema changes the document): the core's routes here, each task's
 * own routes in its folder (lib/tasks/<id>/api-routes.ts, given by its module's apiRoutes).
 * lib/api/openapi/route-catalogue.test.ts fails when a route file exports a method that has no entry, or an
 * entry names no route. Summaries follow the README's HTTP API table.
 */

const project = projectParams;
const run = runParams;
const video = { videoId: recordIdSchema };
const queue = { queueId: queueIdSchema };
const queueItem = { queueId: queueIdSchema, itemId: queueIdSchema };
const upload = { uploadId: uploadIdSchema };
const webhook = { webhookId: webhookIdSchema };

/** The settings of one pipeline (`PUT …/judge-settings/{pipeline}`): each pipeline's own schema. */
function pipelineSettingsSchema(): z.ZodType {
  const schemas = Object.entries(installedPipelines()).flatMap(([id, pipeline]) => (pipeline.settingsSchema ? [pipeline.settingsSchema.describe(`The settings of ${id}.`)] : []));
  return schemas.length > 1 ? z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]) : (schemas[0] ?? z.unknown());
}

/** The catalogue: the core's routes, then each registered task's (read at call time, so a test's toy task is in it). */
export function apiRoutes(): ApiRoute[] {
  return [...coreApiRoutes(), ...installedTaskModules().flatMap((task) => task.apiRoutes?.() ?? [])];
}

function coreApiRoutes(): ApiRoute[] {
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
    {
      method: "get",
      path: "/api/v1/me/api-keys",
      summary: "The caller's API keys",
      description: "Never the keys themselves: only their names, prefixes and dates.",
      responses: [ok("`{apiKeys: [...]}`.")],
    },
    {
      method: "post",
      path: "/api/v1/me/api-keys",
      summary: "Create an API key",
      description: "The answer holds the key, shown this once; only a hash is stored.",
      body: { kind: "json", schema: createApiKeySchema },
      responses: [created("The new key, with its secret.")],
    },
    { method: "delete", path: "/api/v1/me/api-keys/{keyId}", summary: "Revoke one of the caller's API keys", params: { keyId: recordIdSchema }, responses: [noContent("Revoked.")] },
    {
      method: "get",
      path: "/api/v1/me/project-deletions",
      summary: "The caller's project deletions",
      description: "Those still going or ended in the last day, newest first (a site admin: everyone's), with their progress.",
      responses: [ok("`{deletions: [{id, projectId, projectName, status, counts, videosTotal, videosDeleted, storageRemoved, cancelRequested, error, createdAt, finishedAt}]}`.")],
    },
    {
      method: "get",
      path: "/api/v1/me/project-deletions/{deletionId}",
      summary: "One project deletion and its progress",
      description: "`status`: queued, running, done or cancelled; `error` is the last attempt's while a worker retries.",
      params: { deletionId: recordIdSchema },
      responses: [ok("The deletion.")],
    },
    {
      method: "post",
      path: "/api/v1/me/project-deletions/{deletionId}/cancel",
      summary: "Cancel a project deletion",
      description:
        "One no worker has started, or whose worker has not finished a batch for five minutes, gives the project back at once (status cancelled); a running one stops after its current batch (`cancelRequested`) and gives back the project with its members and the videos not yet deleted. An ended one → 409.",
      params: { deletionId: recordIdSchema },
      responses: [ok("The deletion.")],
      errors: [409],
    },

    // Projects and members.
    { method: "get", path: "/api/v1/projects", summary: "The caller's projects", responses: [ok("`{projects: [...]}`.")] },
    { method: "post", path: "/api/v1/projects", summary: "Create a project", body: { kind: "json", schema: createProjectSchema }, responses: [created("The project.", createdProjectResponseSchema)] },
    { method: "get", path: "/api/v1/projects/{projectId}", summary: "One project", params: project, responses: [ok("The project, with its guidelines (Markdown).", projectResponseSchema)] },
    {
      method: "patch",
      path: "/api/v1/projects/{projectId}",
      summary: "Rename, archive, write the reviewers' guidelines or set the default role of accounts made by single sign-on (owners)",
      params: project,
      body: { kind: "json", schema: updateProjectSchema },
      responses: [ok("The project.", updatedProjectResponseSchema)],
    },
    {
      method: "delete",
      path: "/api/v1/projects/{projectId}",
      summary: "Delete a project with everything in it (owners)",
      description:
        '`{"dryRun": true}` only counts what would go; else `confirmName` must be the project\'s name: the project is gone for everyone at once and a worker deletes it in batches (follow it at /api/v1/me/project-deletions/{deletionId}). A queued or running run → 409 run_in_progress.',
      params: project,
      body: { kind: "json", schema: deleteProjectSchema, optional: true },
      responses: [ok("A dry run: `{dryRun: true, name, counts}`."), accepted("`{dryRun: false, name, counts, deletion}`: the deletion, queued.")],
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
      description:
        "`min.<metric>`, `max.<metric>` and `is.<metric>` exist for every metric of the registered tasks; a filter the run's task does not declare is a 400 naming it. Page with `cursor` (`nextCursor`/`prevCursor` of the answer) or `page`.",
      params: project,
      query: videoListQuerySchema(),
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
      description: "Up to 200 are deleted in the request; more are checked and counted, then deleted by a worker in batches (202: follow `deletion` at video-deletions/{deletionId}).",
      params: project,
      body: { kind: "json", schema: deleteVideosSchema },
      responses: [ok("`{dryRun, counts, storage, deletion: null}`."), accepted("`{dryRun: false, counts, storage: null, deletion}`: the deletion, queued.")],
      errors: [409],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/video-deletions/{deletionId}",
      summary: "A queued deletion of videos and its progress (owners)",
      params: { ...project, deletionId: recordIdSchema },
      responses: [ok("`{id, projectId, status: queued|running|done|cancelled, counts, videosTotal, videosDeleted, storageRemoved, cancelRequested, error, createdAt, finishedAt}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/video-deletions/{deletionId}/cancel",
      summary: "Cancel a queued deletion of videos (owners)",
      description: "One no worker has taken ends at once; a running one after its current batch (`cancelRequested`). The videos not deleted yet stay. An ended one → 409.",
      params: { ...project, deletionId: recordIdSchema },
      responses: [ok("The deletion.")],
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
      description:
        "A VBench prompt file (prompt/<Dimension>.txt, VBench2_full_text_info.json, VBench2_full_info.json or meta_info/<Dimension>.json, whose auxiliary_info each matching video keeps by dimension), or txt/CSV/JSONL. The project's videos already there get the dimensions and auxiliary info the list gives them. The answer: `{id, name, format, entryCount, withAuxiliaryInfo, matchedVideos, videosUpdated, unmatchedPrompts: {count, byDimension: {<dimension>: {count, first}}}, unmatchedVideos: {count, first}}`; `dryRun=true` saves nothing and answers 200 with `id: null`.",
      params: project,
      query: promptListQuerySchema,
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
      description: 'Only the fields given change; null or "" clears one; with `expectedUpdatedAt` a video changed since → 409.',
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
        fields: z.object({
          decoder: z.string().optional().describe('What decoded the video: "webcodecs", "ffmpeg.wasm" or "ffmpeg" (kept up to 40 characters).'),
          decoderVersion: z.string().optional().describe('Its build, e.g. "Chrome 156.0.0.0" or "ffmpeg 5.1.4" (kept up to 60 characters).'),
        }),
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
      query: z.object({ archived: z.string().optional().describe('"1": archived ones too.') }),
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
      method: "get",
      path: "/api/v1/projects/{projectId}/endpoints/reusable",
      summary: "The endpoints of the caller's other projects that can be copied here (owners; never their keys)",
      description: `Endpoints (not archived) of the projects where the caller may manage endpoints, the newest first, at most ${REUSABLE_ENDPOINTS_LIMIT}.`,
      params: project,
      responses: [ok("`{endpoints: [{id, name, baseUrl, model, hasApiKey, project: {id, name}, alreadyHere}]}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/endpoints/reusable",
      summary: "Copy an endpoint of another of the caller's projects into this one, key included (owners of both)",
      description:
        "Every setting, the last probe's findings and the key (decrypted and encrypted again on the server, never answered) are copied in one transaction. The caller must manage endpoints in both projects: an endpoint of a project they are not a member of → 404, one where they may not manage endpoints → 403. A base URL the endpoint policy refuses → 400 endpoint_not_allowed; a key APP_SECRET can no longer decrypt → 409 key_undecryptable.",
      params: project,
      body: { kind: "json", schema: copyEndpointSchema },
      responses: [created("The new endpoint's id.", idResponseSchema)],
      errors: [409],
    },
    {
      method: "patch",
      path: "/api/v1/endpoints/{endpointId}",
      summary: "Change, archive or restore an endpoint (owners)",
      description: 'Only the fields sent change; an omitted `apiKey` keeps the stored one, "" removes it.',
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
      summary: "Test an endpoint with one small image, then probe it (owners); the probe's findings are stored on the endpoint",
      params: { endpointId: endpointIdSchema },
      responses: [ok("`{answered, latencyMs, tookImage, colour, colourNamed, answer, error, status, capabilities, probedAt}` (`capabilities.topLogprobs`: whether logprobs come back).")],
    },
    // Aligning a judge to labels (lib/alignment).
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/alignments",
      summary: "The project's judge alignments, newest first",
      params: project,
      responses: [ok("`{alignments: [{id, status, progress, …}]}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/alignments",
      summary: "Align a rubric task's or a built-in task's judge to a label set (owners)",
      description:
        "Splits the labelled videos into train and held-out (seeded, stratified), tries candidate judges on train, then runs the baseline and the best on held-out. A rubric task is named by `rubricTaskId` and `criterionId`; a built-in task by `pipeline` and `targetId`: a video-level target a step scores with its own prompt template, or a reviewed metric (a verdict) whose run settings the pipeline offers to tune, with `rewriteStepId` naming the step whose template the optimizer rewrites (the Align a judge page lists both). Its candidates are prompt versions of that template and, for a metric, run settings tried on the stored train answers without a call. A pg-boss job: poll its status; cancel stops it.",
      params: project,
      body: { kind: "json", schema: startAlignmentSchema },
      responses: [created("The queued alignment `{id, status}`.")],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/alignments/{alignmentId}",
      summary: "One alignment: input, progress and report",
      params: { ...project, alignmentId: recordIdSchema },
      responses: [ok("The split, every candidate with its train κ/F1, held-out κ/F1 of the baseline and the best with the paired-bootstrap interval and p-value, calls and cost.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/alignments/{alignmentId}/cancel",
      summary: "Stop a queued or running alignment (owners)",
      params: { ...project, alignmentId: recordIdSchema },
      responses: [ok('`{id, status: "cancelled"}`.')],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/alignments/{alignmentId}/apply-settings",
      summary: "Make a built-in alignment's chosen run settings and tuned threshold the project's defaults for new runs (owners), as a new settings version",
      params: { ...project, alignmentId: recordIdSchema },
      responses: [ok("The new version of the pipeline's defaults: `{id, number, settings, thresholds, alignmentRunId, …}`.")],
    },
    // Webhooks (owners).
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/webhooks",
      summary: "The project's webhooks (owners), never their secrets",
      params: project,
      responses: [ok("`{webhooks: [{id, url, description, events, enabled, createdAt, lastDelivery}]}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/webhooks",
      summary: "Register a webhook (owners)",
      description:
        "Events: run.finished, run.failed, queue.finished, label_set.imported, alignment.finished. The answer's `secret` (Standard Webhooks, `whsec_…`) is shown this once. The URL follows the judge endpoints' address policy.",
      params: project,
      body: { kind: "json", schema: createWebhookSchema },
      responses: [created("The webhook with its `secret`.")],
    },
    {
      method: "patch",
      path: "/api/v1/webhooks/{webhookId}",
      summary: "Change a webhook, or rotate its secret (owners)",
      params: webhook,
      body: { kind: "json", schema: updateWebhookSchema },
      responses: [ok("The webhook (with the new `secret` after `rotateSecret`).")],
    },
    { method: "delete", path: "/api/v1/webhooks/{webhookId}", summary: "Delete a webhook and its delivery log (owners)", params: webhook, responses: [noContent("Deleted.")] },
    {
      method: "get",
      path: "/api/v1/webhooks/{webhookId}/deliveries",
      summary: "A webhook's delivery log, newest first (owners)",
      params: webhook,
      query: deliveryListQuerySchema,
      responses: [ok("`{deliveries: [{id, event, status, attempts, nextAttemptAt, lastAttemptAt, lastStatusCode, lastResponse, deliveredAt, createdAt, payload}]}`.")],
    },
    {
      method: "post",
      path: "/api/v1/webhooks/{webhookId}/ping",
      summary: "Send a signed test delivery (owners)",
      params: webhook,
      responses: [accepted("`{deliveryId}`; a worker sends it within seconds.")],
    },
    {
      method: "post",
      path: "/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
      summary: "Send a delivery again, same body and webhook-id (owners)",
      params: { ...webhook, deliveryId: recordIdSchema },
      responses: [accepted('`{id, status: "pending"}`.')],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/runs", summary: "The project's runs", params: project, responses: [ok("`{runs: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/runs",
      summary: "Start a run",
      description: "No `videoIds`: every video with the frame set the pipeline needs. `batch` needs an endpoint that supports the Batch API.",
      params: project,
      body: { kind: "json", schema: createRunSchema },
      responses: [created("`{id, videos, withoutFrames, withoutFramesCount}` (runs of an item pipeline also `items`, `excludedItems`).")],
    },
    {
      method: "put",
      path: "/api/v1/projects/{projectId}/judge-settings/{pipeline}",
      summary: "The project's default settings for new runs of a pipeline (owners)",
      description: "The body is the settings schema of the pipeline the path names; a pipeline without settings → 400.",
      params: { projectId: projectIdSchema, pipeline: pipelineParamSchema },
      body: { kind: "json", schema: pipelineSettingsSchema() },
      responses: [ok("The settings saved (as a new version of the pipeline's defaults).")],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/judge-settings/{pipeline}/versions",
      summary: "Every saved version of the project's defaults for a pipeline, newest first",
      params: { projectId: projectIdSchema, pipeline: pipelineParamSchema },
      responses: [ok("`{versions: [{id, pipeline, number, settings, thresholds, alignmentRunId, note, createdById, createdAt}]}`: thresholds are tuned positive thresholds by target id.")],
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
    {
      method: "post",
      path: "/api/v1/runs/{runId}/cancel",
      summary: "Cancel a run (an ensemble's parent and members cancel together)",
      params: run,
      responses: [ok("The run's status after cancelling.")],
    },
    {
      method: "get",
      path: "/api/v1/runs/{runId}/ensemble",
      summary: "An ensemble run's members, cost per member, and the members' agreement per target",
      params: run,
      responses: [
        ok(
          "`{ensemble}`: `{kind, combine, members: [{runId, memberIndex, endpoint, temperature, status, calls, costUsd}], costUsd, targets: [{target, scores, unstable, unstableAt, meanSd, alpha}]}`, or null for a plain run.",
        ),
      ],
    },
    {
      method: "get",
      path: "/api/v1/runs/{runId}/videos/{videoId}/ensemble",
      summary: "One video's combined scores with each member's value and reason",
      params: { runId: recordIdSchema, videoId: recordIdSchema },
      responses: [ok("`{ensemble}`: `{kind, combine, blind, scores: [{category, value, n, sd, range, entropy, unstable, members: [{memberIndex, runId, value, reason}]}]}`, or null for a plain run.")],
    },
    {
      method: "get",
      path: "/api/v1/runs/{runId}/label-next",
      summary: "What to label next (owners)",
      params: { runId: labelNextRunIdSchema },
      query: labelNextQuerySchema,
      responses: [ok("`{eligible, excluded, strata, current, expected, videos, scoreMetric, verdictMetric, criterion, queue}`.")],
    },
    {
      method: "get",
      path: "/api/v1/runs/{runId}/leaderboard",
      summary: "The run's generator models ranked by one metric, with bootstrap 95% intervals and paired differences",
      params: run,
      query: runLeaderboardQuerySchema,
      responses: [
        download(
          "`{run, metric, metrics, videos: {withValue, ranked, withoutModel, withheld}, leaderboard: {dimensions, generators: [{model, rank, dimensions, total}], pairs: [{a, b, n, difference, lower, upper, p}], ranking, bootstrap}}`, or the CSV or LaTeX table.",
          ["application/json", "text/csv", "application/x-latex"],
        ),
      ],
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

    // Rubric tasks: a project's own video judges, defined as data (lib/rubrics).
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/rubric-tasks",
      summary: "The project's rubric tasks",
      params: project,
      responses: [ok("`{rubricTasks: [...]}`, each with its latest version and run count.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/rubric-tasks",
      summary: "Create a rubric task (owners)",
      description: "From a definition, or a JSON or YAML file's text. A definition that does not hold → 400 invalid_rubric with `error.details.problems` `[{path, message}]`, nothing saved.",
      params: project,
      body: { kind: "json", schema: rubricBodySchema },
      responses: [created("`{id, key, name, pipeline, version}`.")],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/rubric-tasks/preview",
      summary: "Judge one video (one key frame or cluster) with a definition before a run (owners)",
      description:
        "The request a run would send: the same frames, prompt and response format, and so the same response-cache key (`cached: true` when answered from it). A bad definition → 400 invalid_rubric; a video without the frames the definition needs → 400; the endpoint timing out → 504 endpoint_timeout, rate limiting → 502 endpoint_rate_limited, any other failure → 502 endpoint_error.",
      params: project,
      body: { kind: "json", schema: rubricPreviewSchema },
      responses: [ok("`{prompt, frames, scope, rawAnswer, parsed, parseError, cached, latencyMs}`.")],
      errors: [502, 504],
    },
    {
      method: "get",
      path: "/api/v1/rubric-tasks/{rubricTaskId}",
      summary: "A rubric task with every version",
      params: { rubricTaskId: rubricTaskIdSchema },
      responses: [ok("The task and its versions, newest first.")],
    },
    {
      method: "put",
      path: "/api/v1/rubric-tasks/{rubricTaskId}",
      summary: "Save a new version of a rubric task (owners)",
      description: "Runs keep the version they started with. The latest version's definition again saves nothing.",
      params: { rubricTaskId: rubricTaskIdSchema },
      body: { kind: "json", schema: rubricBodySchema },
      responses: [ok("That definition is already the latest version (`created: false`)."), created("The new version (`created: true`).")],
    },
    {
      method: "patch",
      path: "/api/v1/rubric-tasks/{rubricTaskId}",
      summary: "Archive or restore a rubric task (owners)",
      description: "An archived task starts no runs; its runs and results stay.",
      params: { rubricTaskId: rubricTaskIdSchema },
      body: { kind: "json", schema: rubricArchiveSchema },
      responses: [ok("`{id, archived}`.")],
    },
    {
      method: "delete",
      path: "/api/v1/rubric-tasks/{rubricTaskId}",
      summary: "Delete a rubric task no run used (owners)",
      params: { rubricTaskId: rubricTaskIdSchema },
      responses: [noContent("Deleted.")],
      errors: [409],
    },
    {
      method: "get",
      path: "/api/v1/rubric-tasks/{rubricTaskId}/export",
      summary: "A version of a rubric task as a YAML file",
      params: { rubricTaskId: rubricTaskIdSchema },
      query: rubricExportQuerySchema,
      responses: [download("The YAML file, as an attachment.", ["application/yaml"])],
    },

    {
      method: "get",
      path: "/api/v1/rubric-tasks/{rubricTaskId}/item-sets",
      summary: "The item sets of a rubric task whose subject is an item",
      description: "A task that judges videos → 400.",
      params: { rubricTaskId: rubricTaskIdSchema },
      responses: [ok("`{sets: [...]}`, in import order.")],
    },
    {
      method: "post",
      path: "/api/v1/rubric-tasks/{rubricTaskId}/item-sets",
      summary: "Import items for a rubric task whose subject is an item (owners, editors)",
      description: `${setFileFields} Each row (JSONL, JSON array or CSV) names its video by path or file name in \`video\`, an optional \`id\`, and the fields the rubric's latest version declares. A file with a row that cannot be read → 422 invalid_file, every problem in \`error.details.errors\` \`[{line, message}]\` and nothing written. A task that judges videos → 400.`,
      params: { rubricTaskId: rubricTaskIdSchema },
      body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
      responses: importAnswers("the item set"),
      errors: [413, 422],
    },

    // Label sets, agreement, calibration, export, adjudication.
    { method: "get", path: "/api/v1/projects/{projectId}/label-sets", summary: "The label sets", params: project, responses: [ok("`{labelSets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/label-sets",
      summary: "Import a label set (owners)",
      description:
        '`dryRun` is "true" by default: the plan and every interpreted or skipped cell, nothing written. With `format=generic`, `columns` (JSON `{video, annotator?, item?, targets: {column: target}}`) reads a wide file: one column per target (a rubric criterion), categorical values by label name.',
      params: project,
      body: { kind: "multipart", fields: labelSetImportFieldsSchema(), files: { file: "The label sheet (.xlsx), VBench results (JSON), or generic CSV/JSONL." } },
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
      query: agreementQuerySchema(),
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
      query: exportQuerySchema(),
      responses: [download("The export, as an attachment.", ["text/csv", "application/x-ndjson"])],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/export/hf-dataset",
      summary: "A run as a Hugging Face dataset (.tar: JSONL shards per split, frames, dataset card), streamed; split by seed, metadata field or label set",
      params: project,
      query: hfDatasetQuerySchema,
      responses: [download("The dataset, as a .tar attachment.", ["application/x-tar"])],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/export/label-studio",
      summary: "A run's videos as Label Studio tasks with the judge's predictions, or the labelling config",
      params: project,
      query: z.object({ runId: z.string().min(1).max(100), part: z.enum(["tasks", "config"]).default("tasks") }),
      responses: [download("The tasks JSON or the config XML, as an attachment.", ["application/json", "application/xml"])],
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
      body: { kind: "json", schema: createQueueSchema() },
      responses: [created("The queue.", createdQueueResponseSchema)],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/queues/preview",
      summary: "How many videos a queue with this filter would hold, and the targets each would ask (owners)",
      params: project,
      query: queuePreviewQuerySchema(),
      responses: [
        ok(
          "`{runId, count, targets}`: `targets` (null for a run judging items) is `{full, presenceFirst}`, each per video `{min, max, mean}`; `presenceFirst` is `{questions, scores}` counted by the judge's presence, or null.",
        ),
      ],
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
    {
      method: "post",
      path: "/api/v1/queues/{queueId}/next",
      summary: "Claim the caller's next item (or return their open claim)",
      params: queue,
      responses: [ok("The item's id.", nextItemResponseSchema)],
    },
    { method: "get", path: "/api/v1/queues/{queueId}/items/{itemId}", summary: "One of the caller's items", params: queueItem, responses: [ok("The item's review payload.")] },
    {
      method: "post",
      path: "/api/v1/queues/{queueId}/items/{itemId}/ahead",
      summary: "Claim the item after this one while the caller works on it",
      params: queueItem,
      query: z.object({ payload: queueFlagSchema }),
      responses: [ok("`{itemId}` (null when none), with `payload=1` also `item`.")],
    },
    {
      method: "post",
      path: "/api/v1/queues/{queueId}/items/{itemId}/release",
      summary: "Let go of the caller's unsubmitted claim",
      params: queueItem,
      responses: [ok("Whether it was released.", releasedResponseSchema)],
    },
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
  ];
}
