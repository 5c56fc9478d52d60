import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoScores } from "@/lib/judge/runs";
import { recordIdSchema } from "@/lib/validation/ids";

export const GET = withActor<{ videoId: string }>(async (request, actor, params) => {
  const runId = new URL(request.url).searchParams.get("runId") ?? undefined;
  return Response.json(await videoScores(prisma, actor, recordIdSchema.parse(params.videoId), runId ? z.string().max(64).parse(runId) : undefined));
});
