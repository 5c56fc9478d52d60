/**
 * What the Rubric tasks page shows: the project's rubric tasks for every member, and for an owner (who may edit
 * and preview) the videos and endpoints the "Preview with a video" picker offers.
 */
import { type ProjectAccess, roleCan } from "../authz/permissions";
import type { PrismaClient } from "../generated/prisma/client";
import { listRubricTasks, type RubricTaskSummary } from "./rubric-tasks";

/** How many videos the preview picker lists (the latest imported with frames). */
export const PREVIEW_VIDEO_LIMIT = 200;

export interface RubricPreviewChoices {
  videos: { id: string; fileName: string; prompt: string | null }[];
  endpoints: { id: string; name: string; model: string }[];
}

export interface RubricTasksPageData {
  tasks: RubricTaskSummary[];
  canManage: boolean;
  /** May import a rubric task's item files (owners and editors). */
  canImportItems: boolean;
  /** Null for a member who may not preview (everyone but owners). */
  preview: RubricPreviewChoices | null;
}

export async function rubricTasksPageData(prisma: PrismaClient, access: ProjectAccess): Promise<RubricTasksPageData> {
  const { projectId, role } = access;
  const tasks = await listRubricTasks(prisma, access);
  const canManage = roleCan(role, "rubrics.manage");
  const canImportItems = roleCan(role, "videos.import");
  if (!canManage) return { tasks, canManage, canImportItems, preview: null };
  const [videos, endpoints] = await Promise.all([
    prisma.video.findMany({
      where: { projectId, frameSets: { some: {} } },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: PREVIEW_VIDEO_LIMIT,
      select: { id: true, fileName: true, prompt: true },
    }),
    prisma.judgeEndpoint.findMany({
      where: { projectId, archivedAt: null },
      orderBy: { createdAt: "asc" },
      select: { id: true, name: true, model: true },
    }),
  ]);
  return { tasks, canManage, canImportItems, preview: { videos, endpoints } };
}
