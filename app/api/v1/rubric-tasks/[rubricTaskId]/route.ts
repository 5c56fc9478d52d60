import { rubricTaskLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { deleteRubricTask, getRubricTask, saveRubricVersion, setRubricTaskArchived } from "@/lib/rubrics/rubric-tasks";
import { rubricArchiveSchema, rubricBodySchema, rubricTaskIdSchema } from "@/lib/rubrics/rubrics.validation";
import { ok, created, noContent } from "@/lib/api/openapi/route-builders";

/** The task with every version, newest first (members). */
export const GET = withProjectOf(
  rubricTaskLookup(),
  "project.view",
  {
    summary: "A rubric task with every version",
    params: { rubricTaskId: rubricTaskIdSchema },
    responses: [ok("The task and its versions, newest first.")],
  },
  async ({ prisma, access, record }) => Response.json(await getRubricTask(prisma, access, record.id)),
);

/** `{"definition"}` or `{"file"}` (owners): a new version (201), or none when the latest already has this definition (200, `created: false`). */
export const PUT = withProjectOf(
  rubricTaskLookup(),
  "rubrics.manage",
  {
    summary: "Save a new version of a rubric task (owners)",
    description: "Runs keep the version they started with. The latest version's definition again saves nothing.",
    params: { rubricTaskId: rubricTaskIdSchema },
    body: { kind: "json", schema: rubricBodySchema },
    responses: [
      ok("That definition is already the latest version (`created: false`)."),
      created("The new version (`created: true`)."),
    ],
  },
  async ({ prisma, access, record, body }) => {
    const saved = await saveRubricVersion(prisma, access, record.id, body);
    return Response.json(saved, { status: saved.created ? 201 : 200 });
  },
);

/** `{"archived": true|false}` (owners): an archived task starts no runs; its runs stay readable. */
export const PATCH = withProjectOf(
  rubricTaskLookup(),
  "rubrics.manage",
  {
    summary: "Archive or restore a rubric task (owners)",
    description: "An archived task starts no runs; its runs and results stay.",
    params: { rubricTaskId: rubricTaskIdSchema },
    body: { kind: "json", schema: rubricArchiveSchema },
    responses: [ok("`{id, archived}`.")],
  },
  async ({ prisma, access, record, body }) => {
    const { archived } = body;
    return Response.json(await setRubricTaskArchived(prisma, access, record.id, archived));
  },
);

/** Deletes a task no run used (owners) → 204; one with runs → 409 (archive it instead). */
export const DELETE = withProjectOf(
  rubricTaskLookup(),
  "rubrics.manage",
  {
    summary: "Delete a rubric task no run used (owners)",
    params: { rubricTaskId: rubricTaskIdSchema },
    responses: [noContent("Deleted.")],
    errors: [409],
  },
  async ({ prisma, access, record }) => {
    await deleteRubricTask(prisma, access, record.id);
    return new Response(null, { status: 204 });
  },
);
