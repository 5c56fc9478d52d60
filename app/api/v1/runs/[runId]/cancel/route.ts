import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { cancelRun, getRunStatus } from "@/lib/judge/runs";

export const POST = withActor<{ runId: string }>(async (_request, actor, params) => {
  const runId = z.string().min(1).max(64).parse(params.runId);
  await cancelRun(prisma, actor, runId);
  return Response.json(await getRunStatus(prisma, actor, runId));
});
