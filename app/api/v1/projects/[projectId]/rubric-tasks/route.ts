import { withProject } from "@/lib/api/with-project";
import { createRubricTask, listRubricTasks } from "@/lib/rubrics/rubric-tasks";
import { rubricBodySchema } from "@/lib/rubrics/rubrics.validation";
import { created, ok } from "@/lib/api/openapi/route-builders";

/** The project's rubric tasks, newest first, each with its latest version and run count. */
export const GET = withProject(
  "project.view",
  {
    summary: "The project's rubric tasks",
    responses: [ok("`{rubricTasks: [...]}`, each with its latest version and run count.")],
  },
  async ({ prisma, access }) => Response.json({ rubricTasks: await listRubricTasks(prisma, access) }),
);

/** `{"definition"}` or `{"file"}` (JSON or YAML text), owners: the task with its version 1 (201); a bad definition → 400 naming each field. */
export const POST = withProject(
  "rubrics.manage",
  {
    summary: "Create a rubric task (owners)",
    description:
      "From a definition, or a JSON or YAML file's text. A definition that does not hold → 400 invalid_rubric with `error.details.problems` `[{path, message}]`, nothing saved.",
    body: { kind: "json", schema: rubricBodySchema },
    responses: [created("`{id, key, name, pipeline, version}`.")],
  },
  async ({ prisma, access, body }) => {
    const task = await createRubricTask(prisma, access, body);
    return Response.json(task, { status: 201 });
  },
);
