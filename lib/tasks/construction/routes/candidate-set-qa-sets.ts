import { parseJsonBody } from "@/lib/api/handler";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { makeQaSetSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { makeQaSet } from "@/lib/tasks/construction/export-benchmark";
import { candidateSetScope } from "@/lib/tasks/construction/project-scopes";

/** `{"projectId","format": "mc"|"open"|"both","name"}` → `{questionSetId, projectId, count}`: the export imported as a question set. */
export const POST = withProjectOf(candidateSetScope, "project.view", async ({ actor, record, request }) => {
  const input = await parseJsonBody(request, makeQaSetSchema);
  return Response.json(await makeQaSet(prisma, actor, record.id, input), { status: 201 });
});
