import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoReviews } from "@/lib/reviews/reviews";

const id = z.string().min(1).max(64);

export const GET = withActor<{ videoId: string }>(async (request, actor, params) => {
  const query = new URL(request.url).searchParams;
  const runId = query.get("runId");
  const itemId = query.get("itemId");
  return Response.json(
    await videoReviews(prisma, actor, id.parse(params.videoId), { runId: runId === null ? undefined : id.parse(runId), itemId: itemId === null ? undefined : id.parse(itemId) }),
  );
});
