import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { candidateCuration, saveCandidateCuration } from "@/lib/tasks/construction/curation-queues";
import { candidateItemIdSchema, curationBodySchema } from "@/lib/tasks/construction/curation-queues.validation";

type Params = { itemId: string };

/** Every curator's decision on the candidate, its outcome and the append-only history. */
export const GET = withActor<Params>(async (_request, actor, params) => Response.json(await candidateCuration(prisma, actor, candidateItemIdSchema.parse(params.itemId))));

/**
 * `{"decision": "accept"|"reject", "edits"?: {question?, options?, answer?, category?}, "reason"?, "expectedVersion"?}`
 * (reviewers and owners) → the decision with its new version; 409 with `details.current` on a stale version.
 */
export const PUT = withActor<Params>(async (request, actor, params) => {
  const body = await parseJsonBody(request, curationBodySchema);
  return Response.json(await saveCandidateCuration(prisma, actor, candidateItemIdSchema.parse(params.itemId), body));
});
