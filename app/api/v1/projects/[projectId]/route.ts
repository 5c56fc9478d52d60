import { withProject } from "@/lib/api/with-project";
import { parseJsonBody, parseOptionalJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { deleteProject, deleteProjectSchema } from "@/lib/projects/project-deletion";
import { appDeletionQueue } from "@/lib/deletions/deletion-queues";
import { getProject, renameProject, setProjectArchived, setProjectGuidelines, setProjectSsoDefaultRole } from "@/lib/projects/projects";
import { updateProjectSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

export const GET = withProject<Params>("project.view", async ({ actor, project }) => {
  const details = await getProject(prisma, actor, project.id);
  return Response.json({
    id: details.id,
    name: details.name,
    role: details.role,
    archived: details.archivedAt !== null,
    guidelines: details.guidelines,
    ssoDefaultRole: details.ssoDefaultRole,
    createdAt: details.createdAt,
  });
});

export const PATCH = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const projectId = project.id;
  const body = await parseJsonBody(request, updateProjectSchema);
  if (body.name !== undefined) await renameProject(prisma, actor, { projectId, name: body.name });
  if (body.archived !== undefined) await setProjectArchived(prisma, actor, { projectId, archived: body.archived });
  if (body.guidelines !== undefined) await setProjectGuidelines(prisma, actor, { projectId, guidelines: body.guidelines });
  if (body.ssoDefaultRole !== undefined) await setProjectSsoDefaultRole(prisma, actor, { projectId, ssoDefaultRole: body.ssoDefaultRole });
  const saved = await getProject(prisma, actor, projectId);
  return Response.json({ id: saved.id, name: saved.name, archived: saved.archivedAt !== null, guidelines: saved.guidelines, ssoDefaultRole: saved.ssoDefaultRole });
});

/**
 * Deletes the project with everything in it (owners): `{"dryRun": true}` counts it (200); `{"confirmName": <its name>}`
 * hides it at once and queues its deletion for a worker (202, with the deletion to follow at
 * /api/v1/me/project-deletions/{id}).
 */
export const DELETE = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const answer = await deleteProject({ prisma, queue: appDeletionQueue("project") }, actor, project.id, await parseOptionalJsonBody(request, deleteProjectSchema));
  return Response.json(answer, { status: answer.dryRun ? 200 : 202 });
});
