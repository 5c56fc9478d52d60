import { parseJsonBody } from "@/lib/api/handler";
import { scoreScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { reviewScore } from "@/lib/reviews/reviews";
import { reviewInputSchema } from "@/lib/reviews/reviews.validation";

/** Sets the caller's own judgment of a judge score: `{"value", "note"?, "reason"?, "expectedVersion"?}`. */
export const PUT = withProjectOf(scoreScope, "project.view", async ({ actor, record, request }) => {
  const judgment = await reviewScore(prisma, actor, record.id, await parseJsonBody(request, reviewInputSchema));
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
