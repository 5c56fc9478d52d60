import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { reviewVideoOutcome } from "@/lib/reviews/reviews";
import { reviewInputSchema } from "@/lib/reviews/reviews.validation";
import { reviewedMetricIdSchema } from "@/lib/reviews/reviewed-metric";
import { recordIdSchema } from "@/lib/validation/ids";

type Params = { runId: string; videoId: string; target: string };

/** The caller's own value of one of the run's reviewed per-video metrics (hallucination: `/verdict` 1 or 0, `/overall` 0–100) for a video. */
export const PUT = withActor<Params>(async (request, actor, params) => {
  const judgment = await reviewVideoOutcome(
    prisma,
    actor,
    recordIdSchema.parse(params.runId),
    recordIdSchema.parse(params.videoId),
    // A reviewed metric of some registered task; reviewVideoOutcome checks it is one of this run's.
    reviewedMetricIdSchema().parse(params.target),
    await parseJsonBody(request, reviewInputSchema),
  );
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
