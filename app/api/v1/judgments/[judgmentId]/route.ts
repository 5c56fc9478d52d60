import { judgmentScope } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { withdrawJudgment } from "@/lib/reviews/reviews";
import { withdrawInputSchema } from "@/lib/reviews/reviews.validation";
import { ok } from "@/lib/api/openapi/route-builders";
import { withdrawnJudgmentResponseSchema } from "@/lib/api/openapi/responses";

/** Withdraws the caller's own judgment: `{"expectedVersion"}`; kept in history, it counts nowhere until saved again. */
export const DELETE = withProjectOf(
  judgmentScope,
  "scores.review",
  {
    summary: "Withdraw the caller's own judgment",
    description: "Kept in history; it counts nowhere until saved again.",
    body: { kind: "json", schema: withdrawInputSchema },
    responses: [ok("The withdrawn judgment.", withdrawnJudgmentResponseSchema)],
    errors: [409],
  },
  async ({ prisma, access, record, body }) => {
    const judgment = await withdrawJudgment(prisma, access, record.id, body);
    return Response.json({
      id: judgment.id,
      withdrawn: judgment.withdrawn,
      version: judgment.version,
      updatedAt: judgment.updatedAt,
    });
  },
);
