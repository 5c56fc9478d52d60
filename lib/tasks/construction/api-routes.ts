import { z } from "zod";
import { created, download, importAnswers, ok, projectParams, runParams, setFileFields } from "../../api/openapi/route-builders";
import type { ApiRoute } from "../../api/openapi/route-spec";
import { referenceSetFieldsSchema } from "../../items/items.validation";
import { recordIdSchema } from "../../validation/ids";
import { restoreCandidateSchema } from "./candidate-restores";
import {
  candidateItemIdSchema,
  candidateSetIdSchema,
  createCurationQueueSchema,
  curationBodySchema,
  curationQueueIdSchema,
  exportFormatSchema,
  makeQaSetSchema,
  nextCurationItemQuerySchema,
} from "./curation-queues.validation";

/**
 * The task's /api/v1 routes for the OpenAPI document: a generate run's candidate set, the step annotations
 * imported as clips, curation queues and decisions, restores, and the accepted questions' export.
 */
export function constructionApiRoutes(): ApiRoute[] {
  return [
    {
      method: "post",
      path: "/api/v1/runs/{runId}/candidates",
      summary: "A finished qa_generate run's pairs as a candidate set (idempotent)",
      params: runParams,
      responses: [ok("The set already made from this run."), created("The candidate set.")],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/step-annotations", summary: "The step annotation sets", params: projectParams, responses: [ok("`{sets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/step-annotations",
      summary: "Import step annotations for Q&A construction as clips (owners)",
      description: setFileFields,
      params: projectParams,
      body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
      responses: importAnswers("the clips"),
      errors: [413, 422],
    },

    // Curation.
    { method: "get", path: "/api/v1/projects/{projectId}/curation-queues", summary: "The project's curation queues", params: projectParams, responses: [ok("`{queues: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/curation-queues",
      summary: "Create a curation queue (owners)",
      params: projectParams,
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
    {
      method: "get",
      path: "/api/v1/items/{itemId}/curation",
      summary: "Every curator's decision on a candidate, its outcome and history",
      params: { itemId: candidateItemIdSchema },
      responses: [ok("The decisions.")],
    },
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
      path: "/api/v1/candidate-sets/{setId}/export/lmms-eval",
      summary: "The accepted questions as an lmms-eval task folder (task yaml, docs JSONL, utils.py; .tar attachment)",
      params: { setId: candidateSetIdSchema },
      query: z.object({ format: exportFormatSchema }),
      responses: [download("The .tar.", ["application/x-tar"])],
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
