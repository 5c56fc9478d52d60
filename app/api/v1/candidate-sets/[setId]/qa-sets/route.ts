import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { candidateSetIdSchema, makeQaSetSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { makeQaSet } from "@/lib/tasks/construction/export-benchmark";

/** `{"projectId","format": "mc"|"open"|"both","name"}` → `{questionSetId, projectId, count}`: the export imported as a question set. */
export const POST = withActor<{ setId: string }>(async (request, actor, params) => {
  const input = await parseJsonBody(request, makeQaSetSchema);
  return Response.json(await makeQaSet(prisma, actor, candidateSetIdSchema.parse(params.setId), input), { status: 201 });
});
