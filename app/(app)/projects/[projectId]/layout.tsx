import type { ReactNode } from "react";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ProjectNav } from "@/components/projects/project-nav";
import { TaskCatalogueProvider } from "@/components/tasks/task-catalogue-context";
import { prisma } from "@/lib/db/prisma";
import { projectNavGroups } from "@/lib/projects/project-nav";
import { usedTaskFolderIds } from "@/lib/projects/used-task-folders";
import { getProject } from "@/lib/projects/projects";

/**
 * Every project page: the project's name and navigation bar above the page. The member's role is read
 * once per request (the page's own check reuses it); a non-member gets the 404, as every project page answers.
 * The project's task catalogue reaches the browser through a context (its own rubric tasks; the built-in ones are in
 * the bundle).
 */
export default async function ProjectLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ projectId: string }>;
}) {
  const { projectId } = await params;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId);
  const [project, usedFolders] = await Promise.all([
    getProject(prisma, access),
    usedTaskFolderIds(prisma, projectId, catalogue),
  ]);
  // The tasks the project uses have their tabs in the bar; the others go under "More tasks".
  const nav = projectNavGroups(projectId, role, usedFolders, catalogue);
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-2 border-b border-slate-200 pb-3">
        <div className="flex flex-wrap items-baseline gap-2 text-sm">
          {/* Text, not a link: "Overview" links the project, and a name is free text that could read like a page's name. */}
          <span className="font-semibold text-slate-900" data-testid="project-nav-name">
            {project.name}
          </span>
          <span className="text-slate-600">· {role}</span>
          {project.archivedAt && <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">archived</span>}
        </div>
        <ProjectNav projectId={projectId} items={nav.main} moreTasks={nav.moreTasks} />
      </header>
      <TaskCatalogueProvider folders={catalogue.projectFolders()}>{children}</TaskCatalogueProvider>
    </div>
  );
}
