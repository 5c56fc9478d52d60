import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { previewRubric } from "@/lib/rubrics/preview-rubric";
import { rubricPreviewSchema } from "@/lib/rubrics/rubrics.validation";

/** `{"definition","videoId","endpointId","scopeIndex"?}` (owners): one scope judged as a run would, answered from the response cache when it can. */
export const POST = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) =>
  Response.json(await previewRubric(prisma, actor, project.id, await parseJsonBody(request, rubricPreviewSchema), { signal: request.signal })),
);
