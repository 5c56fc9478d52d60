import { withActor } from "@/lib/api/handler";
import { createCandidatesFromRun } from "@/lib/tasks/construction/candidates";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";

/** A finished qa_generate run's pairs as a candidate set (idempotent: the same set on every call). */
export const POST = withActor<{ runId: string }>(async (_request, actor, params) => {
  const runId = recordIdSchema.parse(params.runId);
  const made = await createCandidatesFromRun(prisma, actor, runId);
  return Response.json(made, { status: made.existed ? 200 : 201 });
});
