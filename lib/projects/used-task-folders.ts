import type { PrismaClient } from "../generated/prisma/client";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";

/**
 * The task folders a project uses: a judge run of one of the folder's pipelines, saved defaults for one
 * (the Judge page's defaults card), or a label set in one of the folder's formats. The navigation bar shows
 * these tasks' links; the others go under its "More tasks" menu. The caller has checked the member's access.
 */
export async function usedTaskFolderIds(
  prisma: PrismaClient,
  projectId: string,
  given?: TaskCatalogue,
): Promise<Set<string>> {
  const [runs, project, labelSets] = await Promise.all([
    prisma.judgeRun.findMany({ where: { projectId }, distinct: ["pipeline"], select: { pipeline: true } }),
    prisma.project.findUnique({ where: { id: projectId }, select: { judgeSettings: true } }),
    prisma.labelSet.findMany({ where: { projectId }, distinct: ["format"], select: { format: true } }),
  ]);
  const pipelines = new Set(runs.map((run) => run.pipeline));
  const settings = project?.judgeSettings;
  if (settings && typeof settings === "object" && !Array.isArray(settings))
    for (const pipeline of Object.keys(settings)) pipelines.add(pipeline);
  const formats = new Set(labelSets.map((set) => set.format));
  const used = new Set<string>();
  for (const folder of (await catalogueOf(prisma, projectId, given)).folders) {
    if (
      folder.tasks.some((task) => pipelines.has(task.id)) ||
      (folder.labelSetFormats ?? []).some((format) => formats.has(format.id))
    )
      used.add(folder.id);
  }
  return used;
}
