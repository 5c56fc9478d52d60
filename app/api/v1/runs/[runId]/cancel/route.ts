import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { cancelRun, getRunStatus } from "@/lib/judge/runs";
import { recordIdSchema } from "@/lib/validation/ids";

export const POST = withActor<{ runId: string }>(async (_request, actor, params) => {
  const runId = recordIdSchema.parse(params.runId);
  await cancelRun(prisma, actor, runId);
  return Response.json(await getRunStatus(prisma, actor, runId));
});
