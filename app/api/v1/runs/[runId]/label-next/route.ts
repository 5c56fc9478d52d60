import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { labelNextPlan } from "@/lib/label-next/label-next";
import { labelNextRunIdSchema, labelNextQuerySchema } from "@/lib/label-next/label-next.validation";
import { ok, withheldAnswer } from "@/lib/api/openapi/route-builders";

/** `?budget=N&strata=K[&criterion=<target id>]` (owners): the videos to label next and the accuracy interval now and expected after. */
export const GET = withProjectOf(
  runLookup("No such run.", labelNextRunIdSchema),
  "queues.manage",
  {
    summary: "What to label next (owners)",
    params: { runId: labelNextRunIdSchema },
    // Read by the handler as text: labelNextPlan parses it with this schema.
    query: { readBy: "handler", schema: labelNextQuerySchema },
    responses: [
      ok(
        "`{eligible, excluded, strata, current, expected, videos, scoreMetric, verdictMetric, criterion, queue, spans}`; `spans`: `{withSpans, localised, videos}`, the videos where spans disagree most.",
      ),
      withheldAnswer("The plan"),
    ],
  },
  async ({ prisma, actor, record, request }) => {
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return Response.json(
      await labelNextPlan(prisma, actor, record.projectId, record.id, {
        budget: query.budget,
        strata: query.strata,
        criterion: query.criterion,
      }),
    );
  },
);
