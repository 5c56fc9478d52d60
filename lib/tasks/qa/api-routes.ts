import { download, importAnswers, ok, projectParams, runParams, setFileFields } from "../../api/openapi/route-builders";
import type { ApiRoute } from "../../api/openapi/route-spec";
import { itemIdSchema, referenceSetFieldsSchema } from "../../items/items.validation";
import { projectIdSchema } from "../../projects/projects.validation";
import { harnessUploadFieldsSchema } from "./harness-import";
import { qaAccuracyQuerySchema, qaRunResultsQuerySchema, questionListQuerySchema } from "./qa-results";

/** The task's /api/v1 routes (question sets, questions, run results, accuracy) for the OpenAPI document. */
export function qaApiRoutes(): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/api/v1/runs/{runId}/qa",
      summary: "A QA run's results per question",
      description: "csv/jsonl: every question, as an attachment.",
      params: runParams,
      query: qaRunResultsQuerySchema,
      responses: [download("The results.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
    { method: "get", path: "/api/v1/projects/{projectId}/question-sets", summary: "The question sets", params: projectParams, responses: [ok("`{sets: [...]}`.")] },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/question-sets",
      summary: "Import a question set (owners)",
      description: setFileFields,
      params: projectParams,
      body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
      responses: importAnswers("the question set"),
      errors: [413, 422],
    },
    {
      method: "post",
      path: "/api/v1/projects/{projectId}/question-sets/{setId}/harness-runs",
      summary: "Import an lmms-eval or VLMEvalKit output file as an external QA run of the set (owners)",
      description:
        'Multipart: `file`, `format` ("lmms-eval": a log_samples JSONL; "vlmevalkit": a prediction TSV or XLSX), `model`, `dryRun`? ("true": list every unreadable row with its line, write nothing), `createQuestions`? ("true": create the questions the set lacks, on the project\'s video of the same name), `judgeEndpointId`? (judge the open and letterless answers with this endpoint, as a job: the run is queued until they are judged), `textOnly`? ("true": the answers were given without the video), `baselineRunId`? (a done text-only run of the set, own or external, as the run\'s text-only baseline).',
      params: { projectId: projectIdSchema, setId: itemIdSchema },
      body: { kind: "multipart", fields: harnessUploadFieldsSchema, files: { file: "lmms-eval samples JSONL, or VLMEvalKit predictions (TSV or XLSX)." } },
      responses: importAnswers("the external run"),
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
      params: projectParams,
      query: questionListQuerySchema,
      responses: [ok("`{total, page, pageSize, items}`.")],
    },
    { method: "get", path: "/api/v1/questions/{questionId}", summary: "One question with every QA run that answered it", params: { questionId: itemIdSchema }, responses: [ok("The question.")] },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/qa-accuracy",
      summary: "QA accuracy per run × format × category × granularity, with Wilson 95% intervals",
      params: projectParams,
      query: qaAccuracyQuerySchema,
      responses: [download("The overview.", ["application/json", "text/csv", "application/x-ndjson"])],
    },
  ];
}
