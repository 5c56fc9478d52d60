import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { deleteRubricTask, getRubricTask, saveRubricVersion, setRubricTaskArchived } from "@/lib/rubrics/rubric-tasks";
import { rubricArchiveSchema, rubricBodySchema, rubricTaskIdSchema } from "@/lib/rubrics/rubrics.validation";

type Params = { rubricTaskId: string };

/** The task with every version, newest first (members). */
export const GET = withActor<Params>(async (_request, actor, params) => Response.json(await getRubricTask(prisma, actor, rubricTaskIdSchema.parse(params.rubricTaskId))));

/** `{"definition"}` or `{"file"}` (owners): a new version (201), or none when the latest already has this definition (200, `created: false`). */
export const PUT = withActor<Params>(async (request, actor, params) => {
  const saved = await saveRubricVersion(prisma, actor, rubricTaskIdSchema.parse(params.rubricTaskId), await parseJsonBody(request, rubricBodySchema));
  return Response.json(saved, { status: saved.created ? 201 : 200 });
});

/** `{"archived": true|false}` (owners): an archived task starts no runs; its runs stay readable. */
export const PATCH = withActor<Params>(async (request, actor, params) => {
  const { archived } = await parseJsonBody(request, rubricArchiveSchema);
  return Response.json(await setRubricTaskArchived(prisma, actor, rubricTaskIdSchema.parse(params.rubricTaskId), archived));
});

/** Deletes a task no run used (owners) → 204; one with runs → 409 (archive it instead). */
export const DELETE = withActor<Params>(async (_request, actor, params) => {
  await deleteRubricTask(prisma, actor, rubricTaskIdSchema.parse(params.rubricTaskId));
  return new Response(null, { status: 204 });
});
