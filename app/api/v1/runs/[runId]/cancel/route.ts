import { runScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { cancelRun, getRunStatus } from "@/lib/judge/runs";

export const POST = withProjectOf(runScope(), "project.view", async ({ actor, record }) => {
  const runId = record.id;
  await cancelRun(prisma, actor, runId);
  return Response.json(await getRunStatus(prisma, actor, runId));
});
