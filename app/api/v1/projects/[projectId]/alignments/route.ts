import { withProject } from "@/lib/api/with-project";
import { appAlignmentQueue } from "@/lib/alignment/alignment-queue";
import { listAlignments, startAlignment } from "@/lib/alignment/alignment-runs";
import { startAlignmentSchema } from "@/lib/alignment/alignment.validation";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { ok, created } from "@/lib/api/openapi/route-builders";

/** The project's judge alignments, newest first, with their status and progress. */
export const GET = withProject(
  "project.view",
  {
    summary: "The project's judge alignments, newest first",
    responses: [ok("`{alignments: [{id, status, progress, …}]}`.")],
  },
  async ({ prisma, access }) => Response.json({ alignments: await listAlignments(prisma, access) }),
);

/**
 * Owners: `{rubricTaskId, criterionId, …, fewShot?}` or a built-in task's `{pipeline, targetId, …, rewriteStepId?,
 * fewShot?}` (fewShot: a score target's few-shot examples, 4 by default), with `labels: {kind: "labelSet", id} | {kind:
 * "gold"}, judgeEndpointId, optimizerEndpointId, maxCalls, maxCostUsd, heldOutShare?, seed?, rewrites?` → the queued
 * alignment (201).
 */
export const POST = withProject(
  "rubrics.manage",
  {
    summary: "Align a rubric task's or a built-in task's judge to a label set (owners)",
    description:
      "Splits the labelled videos into train and held-out (seeded, stratified), tries candidate judges on train, then runs the baseline and the best on held-out. A rubric task is named by `rubricTaskId` and `criterionId`; a built-in task by `pipeline` and `targetId`: a video-level target a step scores with its own prompt template, or a reviewed metric (a verdict) whose run settings the pipeline offers to tune, with `rewriteStepId` naming the step whose template the optimizer rewrites (the Align a judge page lists both). Its candidates are prompt versions of that template and, for a metric, run settings tried on the stored train answers without a call. A pg-boss job: poll its status; cancel stops it.",
    body: { kind: "json", schema: startAlignmentSchema },
    responses: [created("The queued alignment `{id, status}`.")],
  },
  async ({ prisma, access, body }) => {
    const started = await startAlignment(prisma, appAlignmentQueue(), access, body, builtInCatalogue().pipelines);
    return Response.json(started, { status: 201 });
  },
);
