import { download, importAnswers, ok, projectParams, runParams, setFileFields } from "../../api/openapi/route-builders";
import type { ApiRoute } from "../../api/openapi/route-spec";
import { itemFilterSchemaOf, itemIdSchema, outputsFieldsSchema, referenceSetFieldsSchema } from "../../items/items.validation";
import { projectIdSchema } from "../../projects/projects.validation";
import { captionItemList, referenceItemList } from "./caption-items";
import { captionLeaderboardQuerySchema, captionResultsQuerySchema } from "./caption-results";

/** The task's /api/v1 routes (caption sets, captions, results, the leaderboard) for the OpenAPI document. */
export function captionApiRoutes(): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/api/v1/runs/{runId}/captions",
      summary: "A caption run's results per caption",
      description: "csv/jsonl: every caption, as an attachment.",
      params: runParams,
      query: captionResultsQuerySchema,
      responses: [download("The results.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/caption-sets", summary: "The caption sets", params: projectParams, responses: [ok("`{sets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/caption-sets",
      summary: "Import an AnyCapEval reference JSONL (owners)",
      description: setFileFields,
      params: projectParams,
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
      params: projectParams,
      query: itemFilterSchemaOf([referenceItemList, captionItemList]),
      responses: [ok("`{total, page, pageSize, items}`.")],
    },
    { method: "get", path: "/api/v1/captions/{captionId}", summary: "One caption with its reference", params: { captionId: itemIdSchema }, responses: [ok("The caption.")] },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/caption-leaderboard",
      summary: "Caption scores per model × caption type, with bootstrap 95% intervals",
      description: "`runId` twice: the style run and the content run.",
      params: projectParams,
      query: captionLeaderboardQuerySchema,
      responses: [download("The leaderboard.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
  ];
}
