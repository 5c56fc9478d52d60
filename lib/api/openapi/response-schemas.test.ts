import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import type { RunEstimate } from "../../judge/runs/cost-estimate";
import type { RunEstimateAnswer } from "../../judge/runs/run-estimate.types";
import { runDryRunAnswerSchema, type RunStatusAnswer } from "../../judge/runs/runs.types";
import { labelSetImportDryRunSchema } from "../../spans/span-files/span-import.types";
import type { SpanRecord } from "../../spans/span-types";
import {
  frameTimesAnswerSchema,
  type FrameTimesPendingAnswer,
  spanListAnswerSchema,
  spanRecordSchema,
} from "../../spans/span-validation";
import type { FrameTimes } from "../../frames/frame-times";
import type { frameTimesOrPending } from "../../videos/video-frame-times";
import type { listLabelSets } from "../../label-sets/label-sets";
import type { LabelSetListAnswer } from "../../label-sets/label-sets.validation";
import type { getRunStatus } from "../../judge/runs/runs";
import type { getQueue } from "../../queues/get-queue";
import type { QueueAnswer } from "../../queues/get-queue.types";
import type { listQueues } from "../../queues/list-queues";
import type { queueListAnswerSchema } from "../../queues/list-queues.types";
import type { getVideoDetail, videoJson } from "../../videos/queries";
import type { VideoAnswer, videoDetailAnswerSchema } from "../../videos/videos.validation";
import type { FieldChange } from "../../videos/video-edits";
import type { videoEditAnswerSchema } from "../../videos/video-edits.validation";
import type { JsonOf } from "@/testkit/testing/declared-answer";
import { buildOpenApiDocument, jsonSchemaOf } from "./document";
import { apiRoutesOf } from "./route-modules";
import type { ApiRoute, RouteResponse } from "./route-spec";

/*
 * Every JSON answer of a route declares its zod schema beside its request schema (RouteResponse.schema): the OpenAPI
 * document shows it and the browser imports its type. The answers listed here have none yet; the list may only
 * shrink: an answer that gains a schema must leave it, so the list stays true.
 */
const WITHOUT_SCHEMA: readonly string[] = [
  "GET /api/v1/candidate-sets/{setId}/letter-histogram 200",
  "POST /api/v1/candidate-sets/{setId}/qa-sets 201",
  "GET /api/v1/captions/{captionId} 200",
  "GET /api/v1/curation-queues/{queueId} 200",
  "GET /api/v1/curation-queues/{queueId}/items/{itemId} 200",
  "PATCH /api/v1/endpoints/{endpointId} 200",
  "POST /api/v1/endpoints/{endpointId}/test 200",
  "GET /api/v1/items/{itemId}/curation 200",
  "PUT /api/v1/items/{itemId}/curation 200",
  "POST /api/v1/items/{itemId}/restore 201",
  "GET /api/v1/me/api-keys 200",
  "POST /api/v1/me/api-keys 201",
  "GET /api/v1/me/project-deletions 200",
  "GET /api/v1/me/project-deletions/{deletionId} 200",
  "POST /api/v1/me/project-deletions/{deletionId}/cancel 200",
  "GET /api/v1/openapi.json 200",
  "GET /api/v1/projects 200",
  "DELETE /api/v1/projects/{projectId} 200",
  "DELETE /api/v1/projects/{projectId} 202",
  "GET /api/v1/projects/{projectId}/adjudication 200",
  "GET /api/v1/projects/{projectId}/adjudication/spans 200",
  "GET /api/v1/projects/{projectId}/agreement 200",
  "GET /api/v1/projects/{projectId}/agreement/spans 200",
  "GET /api/v1/projects/{projectId}/alignments 200",
  "POST /api/v1/projects/{projectId}/alignments 201",
  "GET /api/v1/projects/{projectId}/alignments/{alignmentId} 200",
  "POST /api/v1/projects/{projectId}/alignments/{alignmentId}/apply-settings 200",
  "POST /api/v1/projects/{projectId}/alignments/{alignmentId}/cancel 200",
  "GET /api/v1/projects/{projectId}/calibration 200",
  "GET /api/v1/projects/{projectId}/calibration/compare 200",
  "GET /api/v1/projects/{projectId}/caption-leaderboard 200",
  "GET /api/v1/projects/{projectId}/caption-sets 200",
  "POST /api/v1/projects/{projectId}/caption-sets 200",
  "POST /api/v1/projects/{projectId}/caption-sets 201",
  "DELETE /api/v1/projects/{projectId}/caption-sets/{setId} 200",
  "POST /api/v1/projects/{projectId}/caption-sets/{setId}/outputs 200",
  "POST /api/v1/projects/{projectId}/caption-sets/{setId}/outputs 201",
  "GET /api/v1/projects/{projectId}/captions 200",
  "GET /api/v1/projects/{projectId}/compare 200",
  "GET /api/v1/projects/{projectId}/completeness 200",
  "GET /api/v1/projects/{projectId}/curation-queues 200",
  "POST /api/v1/projects/{projectId}/curation-queues 201",
  "GET /api/v1/projects/{projectId}/endpoints 200",
  "GET /api/v1/projects/{projectId}/endpoints/reusable 200",
  "GET /api/v1/projects/{projectId}/export/label-studio 200",
  "GET /api/v1/projects/{projectId}/export/spans 200",
  "PUT /api/v1/projects/{projectId}/gold 200",
  "PUT /api/v1/projects/{projectId}/judge-settings/{pipeline} 200",
  "GET /api/v1/projects/{projectId}/judge-settings/{pipeline}/versions 200",
  "GET /api/v1/projects/{projectId}/members 200",
  "POST /api/v1/projects/{projectId}/members 201",
  "GET /api/v1/projects/{projectId}/prompt-lists 200",
  "POST /api/v1/projects/{projectId}/prompt-lists 201",
  "DELETE /api/v1/projects/{projectId}/prompt-lists/{promptListId} 200",
  "GET /api/v1/projects/{projectId}/prompt-versions 200",
  "POST /api/v1/projects/{projectId}/prompt-versions 200",
  "POST /api/v1/projects/{projectId}/prompt-versions 201",
  "GET /api/v1/projects/{projectId}/qa-accuracy 200",
  "GET /api/v1/projects/{projectId}/question-sets 200",
  "POST /api/v1/projects/{projectId}/question-sets 200",
  "POST /api/v1/projects/{projectId}/question-sets 201",
  "DELETE /api/v1/projects/{projectId}/question-sets/{setId} 200",
  "POST /api/v1/projects/{projectId}/question-sets/{setId}/harness-runs 200",
  "POST /api/v1/projects/{projectId}/question-sets/{setId}/harness-runs 201",
  "GET /api/v1/projects/{projectId}/questions 200",
  "GET /api/v1/projects/{projectId}/queues/preview 200",
  "GET /api/v1/projects/{projectId}/rubric-tasks 200",
  "POST /api/v1/projects/{projectId}/rubric-tasks 201",
  "POST /api/v1/projects/{projectId}/rubric-tasks/preview 200",
  "GET /api/v1/projects/{projectId}/runs 200",
  "POST /api/v1/projects/{projectId}/runs 201",
  "GET /api/v1/projects/{projectId}/runs/compare 200",
  "GET /api/v1/projects/{projectId}/step-annotations 200",
  "POST /api/v1/projects/{projectId}/step-annotations 200",
  "POST /api/v1/projects/{projectId}/step-annotations 201",
  "GET /api/v1/projects/{projectId}/vbench2-frames 200",
  "GET /api/v1/projects/{projectId}/vbench2-leaderboard 200",
  "GET /api/v1/projects/{projectId}/video-deletions/{deletionId} 200",
  "POST /api/v1/projects/{projectId}/video-deletions/{deletionId}/cancel 200",
  "GET /api/v1/projects/{projectId}/videos 200",
  "POST /api/v1/projects/{projectId}/videos 201",
  "POST /api/v1/projects/{projectId}/videos/delete 200",
  "POST /api/v1/projects/{projectId}/videos/delete 202",
  "POST /api/v1/projects/{projectId}/videos/metadata 200",
  "GET /api/v1/projects/{projectId}/webhooks 200",
  "POST /api/v1/projects/{projectId}/webhooks 201",
  "GET /api/v1/questions/{questionId} 200",
  "PATCH /api/v1/queues/{queueId} 200",
  "GET /api/v1/queues/{queueId}/items/{itemId} 200",
  "POST /api/v1/queues/{queueId}/items/{itemId}/ahead 200",
  "POST /api/v1/queues/{queueId}/items/{itemId}/submit 200",
  "GET /api/v1/rubric-tasks/{rubricTaskId} 200",
  "PUT /api/v1/rubric-tasks/{rubricTaskId} 200",
  "PUT /api/v1/rubric-tasks/{rubricTaskId} 201",
  "PATCH /api/v1/rubric-tasks/{rubricTaskId} 200",
  "GET /api/v1/rubric-tasks/{rubricTaskId}/item-sets 200",
  "POST /api/v1/rubric-tasks/{rubricTaskId}/item-sets 200",
  "POST /api/v1/rubric-tasks/{rubricTaskId}/item-sets 201",
  "POST /api/v1/runs/{runId}/calls/{callId}/replay 200",
  "POST /api/v1/runs/{runId}/cancel 200",
  "POST /api/v1/runs/{runId}/candidates 200",
  "POST /api/v1/runs/{runId}/candidates 201",
  "GET /api/v1/runs/{runId}/captions 200",
  "GET /api/v1/runs/{runId}/ensemble 200",
  "POST /api/v1/runs/{runId}/judge-spans 200",
  "GET /api/v1/runs/{runId}/label-next 200",
  "GET /api/v1/runs/{runId}/leaderboard 200",
  "GET /api/v1/runs/{runId}/manifest 200",
  "GET /api/v1/runs/{runId}/qa 200",
  "GET /api/v1/runs/{runId}/vbench2 200",
  "GET /api/v1/runs/{runId}/videos/{videoId}/ensemble 200",
  "DELETE /api/v1/videos/{videoId} 200",
  "GET /api/v1/videos/{videoId}/edits 200",
  "POST /api/v1/videos/{videoId}/frame-sets 200",
  "POST /api/v1/videos/{videoId}/frame-sets 201",
  "GET /api/v1/videos/{videoId}/reviews 200",
  "GET /api/v1/videos/{videoId}/scores 200",
  "PATCH /api/v1/webhooks/{webhookId} 200",
  "GET /api/v1/webhooks/{webhookId}/deliveries 200",
  "POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver 202",
  "POST /api/v1/webhooks/{webhookId}/ping 202",
];

const routes = apiRoutesOf(documentedRoutes);
/** Whether every A is a B (a union A case by case too). */
type Extends<A, B> = [A] extends [B] ? true : false;
const key = (route: ApiRoute, answer: RouteResponse) => `${route.method.toUpperCase()} ${route.path} ${answer.status}`;
const isJsonSuccess = (answer: RouteResponse) =>
  answer.status >= 200 &&
  answer.status < 300 &&
  answer.status !== 204 &&
  (answer.contentTypes ?? ["application/json"]).includes("application/json");
const jsonAnswers = routes.flatMap((route) =>
  route.responses.filter(isJsonSuccess).map((answer) => ({ key: key(route, answer), route, answer })),
);

describe("response schemas", () => {
  it("declares a schema on every JSON success answer but the listed ones", () => {
    const missing = jsonAnswers.filter(({ answer }) => !answer.schema).map((a) => a.key);
    expect(missing.filter((k) => !WITHOUT_SCHEMA.includes(k))).toEqual([]);
  });

  it("lists only answers that exist and still have no schema (a route that gained one leaves the list)", () => {
    const byKey = new Map(jsonAnswers.map((a) => [a.key, a.answer]));
    expect(WITHOUT_SCHEMA.filter((k) => !byKey.has(k))).toEqual([]);
    expect(WITHOUT_SCHEMA.filter((k) => byKey.get(k)?.schema)).toEqual([]);
    expect(new Set(WITHOUT_SCHEMA).size).toBe(WITHOUT_SCHEMA.length);
  });
});

describe("the OpenAPI document's answers", () => {
  const document = buildOpenApiDocument(routes);
  const answerSchema = (method: string, path: string, status: number) =>
    (
      document.paths[path] as Record<
        string,
        { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
      >
    )[method]!.responses[String(status)]!.content?.["application/json"]?.schema;

  it("shows every declared answer schema as the JSON Schema of what the client gets", () => {
    const declared = jsonAnswers.filter(({ answer }) => answer.schema);
    expect(declared.length).toBeGreaterThanOrEqual(20);
    for (const { key, route, answer } of declared)
      expect({ key, schema: answerSchema(route.method, route.path, answer.status) }).toEqual({
        key,
        schema: jsonSchemaOf(answer.schema!, "output"),
      });
  });

  it("shows the run's dry run with its estimate, a span file's plan and the spans as their schemas say", () => {
    const dryRun = answerSchema("post", "/api/v1/projects/{projectId}/runs", 200);
    expect(dryRun).toEqual(jsonSchemaOf(runDryRunAnswerSchema, "output"));
    expect(dryRun).toMatchObject({
      required: expect.arrayContaining(["dryRun", "videos", "estimate", "estimateError"]),
      properties: {
        estimate: { anyOf: [{ type: "object", properties: { calls: { type: "integer" } } }, { type: "null" }] },
      },
    });
    const labelSetDryRun = answerSchema("post", "/api/v1/projects/{projectId}/label-sets", 200);
    expect(labelSetDryRun).toEqual(jsonSchemaOf(labelSetImportDryRunSchema, "output"));
    expect(labelSetDryRun).toMatchObject({
      anyOf: expect.arrayContaining([
        expect.objectContaining({
          properties: expect.objectContaining({
            plan: jsonSchemaOf(labelSetImportDryRunSchema.options[0].shape.plan, "output"),
          }),
        }),
      ]),
    });
    expect(answerSchema("get", "/api/v1/videos/{videoId}/spans", 200)).toEqual(
      jsonSchemaOf(spanListAnswerSchema, "output"),
    );
    expect(answerSchema("patch", "/api/v1/spans/{spanId}", 200)).toEqual(jsonSchemaOf(spanRecordSchema, "output"));
  });

  it("the types the browser imports are the types lib answers with", () => {
    expectTypeOf<z.infer<typeof spanRecordSchema>>().toEqualTypeOf<SpanRecord>();
    expectTypeOf<RunEstimate>().toExtend<RunEstimateAnswer>();
    expectTypeOf<FrameTimes>().toExtend<z.infer<typeof frameTimesAnswerSchema>>();
    type FrameTimesAnswers = z.infer<typeof frameTimesAnswerSchema> | FrameTimesPendingAnswer;
    expectTypeOf<Extends<Awaited<ReturnType<typeof frameTimesOrPending>>, FrameTimesAnswers>>().toEqualTypeOf<true>();
    expectTypeOf<JsonOf<Awaited<ReturnType<typeof listLabelSets>>>>().toExtend<LabelSetListAnswer["labelSets"]>();
    // The stored settings, ensemble and estimate are JSON columns: their schemas say what they hold.
    type Status = Omit<JsonOf<Awaited<ReturnType<typeof getRunStatus>>>, "settings" | "ensemble" | "estimate">;
    expectTypeOf<Status>().toExtend<Omit<RunStatusAnswer, "settings" | "ensemble" | "estimate">>();
    expectTypeOf<JsonOf<Awaited<ReturnType<typeof getQueue>>>>().toExtend<QueueAnswer>();
    type QueueList = z.infer<typeof queueListAnswerSchema>["queues"];
    expectTypeOf<JsonOf<Awaited<ReturnType<typeof listQueues>>>>().toExtend<QueueList>();
    expectTypeOf<JsonOf<ReturnType<typeof videoJson>>>().toExtend<VideoAnswer>();
    type EditAnswer = JsonOf<ReturnType<typeof videoJson> & { changes: FieldChange[] }>;
    expectTypeOf<EditAnswer>().toExtend<z.infer<typeof videoEditAnswerSchema>>();
    expectTypeOf<JsonOf<Awaited<ReturnType<typeof getVideoDetail>>>>().toExtend<
      z.infer<typeof videoDetailAnswerSchema>
    >();
  });
});
