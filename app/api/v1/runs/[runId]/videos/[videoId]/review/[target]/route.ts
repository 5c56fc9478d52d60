import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { reviewedMetricIdSchema } from "@/lib/reviews/reviewed-metric";
import { reviewVideoOutcome, savedJudgmentAnswer } from "@/lib/reviews/reviews";
import { reviewInputSchema } from "@/lib/reviews/reviews.validation";
import { recordIdSchema } from "@/lib/validation/ids";
import { ok } from "@/lib/api/openapi/route-builders";
import { judgmentResponseSchema } from "@/lib/api/openapi/responses";

/** The caller's own value of one of the run's reviewed per-video metrics (as its task declares them, say `/verdict` 1 or 0) for a video. */
export const PUT = withProjectOf(
  runLookup("No such video in that run."),
  "scores.review",
  {
    summary: "The caller's own value of one of the run's reviewed per-video metrics",
    params: { target: reviewedMetricIdSchema },
    body: { kind: "json", schema: reviewInputSchema },
    responses: [ok("The judgment.", judgmentResponseSchema)],
    errors: [409],
  },
  async ({ prisma, access, record, params, body, catalogue }) => {
    const judgment = await reviewVideoOutcome(
      prisma,
      access,
      record.id,
      recordIdSchema.parse(params.videoId),
      // A reviewed metric of a task of the project's catalogue; reviewVideoOutcome checks it is one of this run's.
      reviewedMetricIdSchema(catalogue).parse(params.target),
      body,
    );
    return Response.json(savedJudgmentAnswer(judgment));
  },
);
