/**
 * What the browser's task registry gets for a project: its rubric tasks' declarations (the project layout
 * hands them to components/rubrics/rubric-task-registry.tsx). A member's read; another project's rubric
 * tasks never reach the page.
 */
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import type { PrismaClient } from "../generated/prisma/client";
import type { TaskDeclarations } from "../tasks/task-module";
import { loadRubricTaskRecords, projectRubricFolders } from "./rubric-registry";

export async function projectRubricTaskFolders(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
): Promise<TaskDeclarations[]> {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  return projectRubricFolders(await loadRubricTaskRecords(prisma, { projectId }), projectId);
}
