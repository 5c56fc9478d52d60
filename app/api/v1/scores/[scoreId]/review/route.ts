import { scoreScope } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { reviewScore, savedJudgmentAnswer } from "@/lib/reviews/reviews";
import { reviewInputSchema } from "@/lib/reviews/reviews.validation";
import { ok } from "@/lib/api/openapi/route-builders";
import { judgmentResponseSchema } from "@/lib/api/openapi/responses";

/** Sets the caller's own judgment of a judge score: `{"value", "note"?, "reason"?, "expectedVersion"?}`. */
export const PUT = withProjectOf(
  scoreScope,
  "scores.review",
  {
    summary: "The caller's own judgment of a judge score",
    body: { kind: "json", schema: reviewInputSchema },
    responses: [ok("The judgment.", judgmentResponseSchema)],
    errors: [409],
  },
  async ({ prisma, access, record, body }) => {
    const judgment = await reviewScore(prisma, access, record.id, body);
    return Response.json(savedJudgmentAnswer(judgment));
  },
);
