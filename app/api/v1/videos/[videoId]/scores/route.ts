import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoScores } from "@/lib/judge/runs";

export const GET = withActor<{ videoId: string }>(async (request, actor, params) => {
  const runId = new URL(request.url).searchParams.get("runId") ?? undefined;
  return Response.json(await videoScores(prisma, actor, z.string().min(1).max(64).parse(params.videoId), runId ? z.string().max(64).parse(runId) : undefined));
});
