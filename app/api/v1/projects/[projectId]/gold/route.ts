import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { setGold } from "@/lib/adjudication/adjudication";
import { goldInputSchema } from "@/lib/adjudication/adjudication.validation";
import { prisma } from "@/lib/db/prisma";

/** PUT /api/v1/projects/:id/gold {"targetKey","value","note"?,"expectedVersion"?} — sets a target's gold value (owners); stale version → 409. */
export const PUT = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const projectId = project.id;
  return Response.json(await setGold(prisma, actor, projectId, await parseJsonBody(request, goldInputSchema)));
});
