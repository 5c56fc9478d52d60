import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { reviewScore } from "@/lib/reviews/reviews";
import { reviewInputSchema } from "@/lib/reviews/reviews.validation";
import { recordIdSchema } from "@/lib/validation/ids";

/** Sets the caller's own judgment of a judge score: `{"value", "note"?, "reason"?, "expectedVersion"?}`. */
export const PUT = withActor<{ scoreId: string }>(async (request, actor, params) => {
  const judgment = await reviewScore(prisma, actor, recordIdSchema.parse(params.scoreId), await parseJsonBody(request, reviewInputSchema));
  return Response.json({
    id: judgment.id,
    value: judgment.value,
    note: judgment.note,
    reason: judgment.reason,
    acceptedJudge: judgment.acceptedJudge,
    version: judgment.version,
    updatedAt: judgment.updatedAt,
  });
});
