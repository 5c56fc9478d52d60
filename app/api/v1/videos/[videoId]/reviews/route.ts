import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoReviews } from "@/lib/reviews/reviews";

const id = z.string().min(1).max(64);

export const GET = withActor<{ videoId: string }>(async (request, actor, params) => {
  const runId = new URL(request.url).searchParams.get("runId");
  return Response.json(await videoReviews(prisma, actor, id.parse(params.videoId), { runId: runId === null ? undefined : id.parse(runId) }));
});
