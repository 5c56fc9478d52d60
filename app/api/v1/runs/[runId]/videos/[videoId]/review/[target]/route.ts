import { parseJsonBody } from "@/lib/api/handler";
import { runScope, type ScopedRecord } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { reviewedMetricIdSchema } from "@/lib/reviews/reviewed-metric";
import { reviewVideoOutcome } from "@/lib/reviews/reviews";
import { reviewInputSchema } from "@/lib/reviews/reviews.validation";
import { recordIdSchema } from "@/lib/validation/ids";

type Params = { runId: string; videoId: string; target: string };

/** The caller's own value of one of the run's reviewed per-video metrics (as its task declares them, say `/verdict` 1 or 0) for a video. */
export const PUT = withProjectOf<Params, ScopedRecord>(runScope("No such video in that run."), "project.view", async ({ actor, record, params, request }) => {
  const judgment = await reviewVideoOutcome(
    prisma,
    actor,
    record.id,
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
