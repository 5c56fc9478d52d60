import { parseJsonBody } from "@/lib/api/handler";
import { rubricTaskScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteRubricTask, getRubricTask, saveRubricVersion, setRubricTaskArchived } from "@/lib/rubrics/rubric-tasks";
import { rubricArchiveSchema, rubricBodySchema } from "@/lib/rubrics/rubrics.validation";

// Members pass the scope's check; lib/rubrics checks the narrower action (owners' rubrics.manage) itself.

/** The task with every version, newest first (members). */
export const GET = withProjectOf(rubricTaskScope(), "project.view", async ({ actor, record }) => Response.json(await getRubricTask(prisma, actor, record.id)));

/** `{"definition"}` or `{"file"}` (owners): a new version (201), or none when the latest already has this definition (200, `created: false`). */
export const PUT = withProjectOf(rubricTaskScope(), "project.view", async ({ actor, record, request }) => {
  const saved = await saveRubricVersion(prisma, actor, record.id, await parseJsonBody(request, rubricBodySchema));
  return Response.json(saved, { status: saved.created ? 201 : 200 });
});

/** `{"archived": true|false}` (owners): an archived task starts no runs; its runs stay readable. */
export const PATCH = withProjectOf(rubricTaskScope(), "project.view", async ({ actor, record, request }) => {
  const { archived } = await parseJsonBody(request, rubricArchiveSchema);
  return Response.json(await setRubricTaskArchived(prisma, actor, record.id, archived));
});

/** Deletes a task no run used (owners) → 204; one with runs → 409 (archive it instead). */
export const DELETE = withProjectOf(rubricTaskScope(), "project.view", async ({ actor, record }) => {
  await deleteRubricTask(prisma, actor, record.id);
  return new Response(null, { status: 204 });
});
