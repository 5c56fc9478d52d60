import { withProject } from "@/lib/api/with-project";
import { previewQueue } from "@/lib/queues/preview-queue";
import { queuePreviewQuerySchema } from "@/lib/queues/queues.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/**
 * `?<video-list filter>` (runId included) `&categories=s1,d1` → `{runId, count, targets}`: how many videos a queue
 * would hold, and the targets per video of a queue of the judge's scores of those categories (none: all) (owners).
 */
export const GET = withProject(
  "queues.manage",
  {
    summary: "How many videos a queue with this filter would hold, and the targets each would ask (owners)",
    query: queuePreviewQuerySchema,
    responses: [
      ok(
        "`{runId, count, targets}`: `targets` (null for a run judging items) is `{full, presenceFirst}`, each per video `{min, max, mean}`; `presenceFirst` is `{questions, scores}` counted by the judge's presence, or null.",
      ),
    ],
  },
  async ({ prisma, access, query, catalogue }) => {
    const { categories, ...filter } = query;
    return Response.json(
      await previewQueue(
        prisma,
        access,
        {
          filter,
          categories: (categories ?? "").split(",").filter(Boolean),
        },
        catalogue,
      ),
    );
  },
);
