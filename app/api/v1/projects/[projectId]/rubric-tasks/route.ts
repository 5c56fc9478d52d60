import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { createRubricTask, listRubricTasks } from "@/lib/rubrics/rubric-tasks";
import { rubricBodySchema } from "@/lib/rubrics/rubrics.validation";

type Params = { projectId: string };

/** The project's rubric tasks, newest first, each with its latest version and run count. */
export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ rubricTasks: await listRubricTasks(prisma, actor, project.id) }));

/** `{"definition"}` or `{"file"}` (JSON or YAML text), owners: the task with its version 1 (201); a bad definition → 400 naming each field. */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const created = await createRubricTask(prisma, actor, project.id, await parseJsonBody(request, rubricBodySchema));
  return Response.json(created, { status: 201 });
});
