import { z } from "zod";
import { videoScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { videoScores } from "@/lib/judge/runs";

export const GET = withProjectOf(videoScope(), "project.view", async ({ actor, record, request }) => {
  const runId = new URL(request.url).searchParams.get("runId") ?? undefined;
  return Response.json(await videoScores(prisma, actor, record.id, runId ? z.string().max(64).parse(runId) : undefined));
});
