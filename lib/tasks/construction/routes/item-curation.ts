import { parseJsonBody } from "@/lib/api/handler";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { candidateCuration, saveCandidateCuration } from "@/lib/tasks/construction/curation-queues";
import { curationBodySchema } from "@/lib/tasks/construction/curation-queues.validation";
import { candidateItemScope } from "@/lib/tasks/construction/project-scopes";

/** Every curator's decision on the candidate, its outcome and the append-only history. */
export const GET = withProjectOf(candidateItemScope(), "project.view", async ({ actor, record }) => Response.json(await candidateCuration(prisma, actor, record.id)));

/**
 * `{"decision": "accept"|"reject", "edits"?: {question?, options?, answer?, category?}, "reason"?, "expectedVersion"?}`
 * (reviewers and owners) → the decision with its new version; 409 with `details.current` on a stale version.
 */
export const PUT = withProjectOf(candidateItemScope(), "project.view", async ({ actor, record, request }) => {
  const body = await parseJsonBody(request, curationBodySchema);
  return Response.json(await saveCandidateCuration(prisma, actor, record.id, body));
});
