import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { appAlignmentQueue } from "@/lib/alignment/alignment-queue";
import { listAlignments, startAlignment } from "@/lib/alignment/alignment-runs";
import { startAlignmentSchema } from "@/lib/alignment/alignment.validation";

type Params = { projectId: string };

/** The project's judge alignments, newest first, with their status and progress. */
export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ alignments: await listAlignments(prisma, actor, project.id) }));

/** Owners: `{rubricTaskId, criterionId, …, fewShot?}` or a built-in task's `{pipeline, targetId, …, rewriteStepId?, fewShot?}` (fewShot: a score target's few-shot examples, 4 by default), with `labels: {kind: "labelSet", id} | {kind: "gold"}, judgeEndpointId, optimizerEndpointId, maxCalls, maxCostUsd, heldOutShare?, seed?, rewrites?` → the queued alignment (201). */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const started = await startAlignment(prisma, appAlignmentQueue(), actor, project.id, await parseJsonBody(request, startAlignmentSchema));
  return Response.json(started, { status: 201 });
});
