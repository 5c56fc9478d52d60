import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { withdrawJudgment } from "@/lib/reviews/reviews";
import { withdrawInputSchema } from "@/lib/reviews/reviews.validation";
import { recordIdSchema } from "@/lib/validation/ids";

/** Withdraws the caller's own judgment: `{"expectedVersion"}`; kept in history, it counts nowhere until saved again. */
export const DELETE = withActor<{ judgmentId: string }>(async (request, actor, params) => {
  const judgment = await withdrawJudgment(prisma, actor, recordIdSchema.parse(params.judgmentId), await parseJsonBody(request, withdrawInputSchema));
  return Response.json({ id: judgment.id, withdrawn: judgment.withdrawn, version: judgment.version, updatedAt: judgment.updatedAt });
});
