import { withProject } from "@/lib/api/with-project";
import { accessFor } from "@/lib/authz/permissions";
import { deleteProject, deleteProjectSchema } from "@/lib/projects/project-deletion";
import { appDeletionQueue } from "@/lib/deletions/deletion-queues";
import {
  getProject,
  renameProject,
  setProjectArchived,
  setProjectGuidelines,
  setProjectSsoDefaultRole,
} from "@/lib/projects/projects";
import { updateProjectSchema } from "@/lib/projects/projects.validation";
import { ok, accepted } from "@/lib/api/openapi/route-builders";
import { projectResponseSchema, updatedProjectResponseSchema } from "@/lib/api/openapi/responses";

export const GET = withProject(
  "project.view",
  {
    summary: "One project",
    responses: [ok("The project, with its guidelines (Markdown).", projectResponseSchema)],
  },
  async ({ prisma, access }) => {
    const details = await getProject(prisma, access);
    return Response.json({
      id: details.id,
      name: details.name,
      role: details.role,
      archived: details.archivedAt !== null,
      guidelines: details.guidelines,
      ssoDefaultRole: details.ssoDefaultRole,
      createdAt: details.createdAt,
    });
  },
);

export const PATCH = withProject(
  "project.rename",
  {
    summary:
      "Rename, archive, write the reviewers' guidelines or set the default role of accounts made by single sign-on (owners)",
    body: { kind: "json", schema: updateProjectSchema },
    responses: [ok("The project.", updatedProjectResponseSchema)],
  },
  async ({ prisma, access, body }) => {
    const projectId = access.projectId;
    if (body.name !== undefined) await renameProject(prisma, access, { projectId, name: body.name });
    if (body.archived !== undefined)
      await setProjectArchived(prisma, accessFor(access, "project.archive"), { projectId, archived: body.archived });
    if (body.guidelines !== undefined)
      await setProjectGuidelines(prisma, access, { projectId, guidelines: body.guidelines });
    if (body.ssoDefaultRole !== undefined)
      await setProjectSsoDefaultRole(prisma, accessFor(access, "members.manage"), {
        projectId,
        ssoDefaultRole: body.ssoDefaultRole,
      });
    const saved = await getProject(prisma, access);
    return Response.json({
      id: saved.id,
      name: saved.name,
      archived: saved.archivedAt !== null,
      guidelines: saved.guidelines,
      ssoDefaultRole: saved.ssoDefaultRole,
    });
  },
);

/**
 * Deletes the project with everything in it (owners): `{"dryRun": true}` counts it (200); `{"confirmName": <its name>}`
 * hides it at once and queues its deletion for a worker (202, with the deletion to follow at
 * /api/v1/me/project-deletions/{id}).
 */
export const DELETE = withProject(
  "project.delete",
  {
    summary: "Delete a project with everything in it (owners)",
    description:
      '`{"dryRun": true}` only counts what would go; else `confirmName` must be the project\'s name: the project is gone for everyone at once and a worker deletes it in batches (follow it at /api/v1/me/project-deletions/{deletionId}). A queued or running run → 409 run_in_progress.',
    body: { kind: "json", schema: deleteProjectSchema, optional: true },
    responses: [
      ok("A dry run: `{dryRun: true, name, counts}`."),
      accepted("`{dryRun: false, name, counts, deletion}`: the deletion, queued."),
    ],
    errors: [409],
  },
  async ({ prisma, access, body }) => {
    const answer = await deleteProject({ prisma, queue: appDeletionQueue("project") }, access, body);
    return Response.json(answer, { status: answer.dryRun ? 200 : 202 });
  },
);
