import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoReviews } from "@/lib/reviews/reviews";
import { recordIdSchema } from "@/lib/validation/ids";

export const GET = withActor<{ videoId: string }>(async (request, actor, params) => {
  const query = new URL(request.url).searchParams;
  const runId = query.get("runId");
  const itemId = query.get("itemId");
  return Response.json(
    await videoReviews(prisma, actor, recordIdSchema.parse(params.videoId), {
      runId: runId === null ? undefined : recordIdSchema.parse(runId),
      itemId: itemId === null ? undefined : recordIdSchema.parse(itemId),
    }),
  );
});
