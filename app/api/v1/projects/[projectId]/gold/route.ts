import { parseJsonBody, withActor } from "@/lib/api/handler";
import { goldInputSchema, setGold } from "@/lib/adjudication/adjudication";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";

/** PUT /api/v1/projects/:id/gold {"targetKey","value","note"?,"expectedVersion"?} — sets a target's gold value (owners); stale version → 409. */
export const PUT = withActor<{ projectId: string }>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  return Response.json(await setGold(prisma, actor, projectId, await parseJsonBody(request, goldInputSchema)));
});
