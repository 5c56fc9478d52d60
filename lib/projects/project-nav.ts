import type { ProjectRole } from "../generated/prisma/client";
import { roleCan, type ProjectAction } from "../authz/permissions";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";

/**
 * The project navigation bar's links, in order, each with the action its page asks of the member
 * (the same action the page checks, e2e/pages.ts lists it too). A role sees only the pages it may open.
 */
export interface ProjectNavItem {
  /** Stable id for tests and the active-link match. */
  id: string;
  label: string;
  /** Relative to the project: "" is the project's overview. */
  path: string;
  action: ProjectAction;
}

/** The core's links, in order; each task's links (TaskFolderDeclarations.navLinks) go after the one they name. */
export const CORE_PROJECT_NAV: readonly ProjectNavItem[] = [
  { id: "overview", label: "Overview", path: "", action: "project.view" },
  { id: "videos", label: "Videos", path: "/videos", action: "project.view" },
  { id: "import", label: "Import", path: "/import", action: "videos.import" },
  { id: "judge", label: "Judge", path: "/judge", action: "project.view" },
  { id: "queues", label: "Review queues", path: "/queues", action: "project.view" },
  { id: "pairs", label: "Pairs", path: "/pairs", action: "project.view" },
  { id: "agreement", label: "Agreement", path: "/agreement", action: "export.read" },
  { id: "adjudication", label: "Adjudication", path: "/adjudication", action: "gold.set" },
  { id: "calibration", label: "Calibration", path: "/calibration", action: "export.read" },
  { id: "prompts", label: "Prompts", path: "/prompts", action: "project.view" },
  { id: "rubrics", label: "Rubric tasks", path: "/rubrics", action: "project.view" },
  { id: "settings", label: "Settings", path: "/settings", action: "project.view" },
];

export interface PlacedNavItem extends ProjectNavItem {
  /** The task folder whose link it is; null for the core's. */
  folderId: string | null;
}

/**
 * Every link of the bar, in order, with the task folder it belongs to: the core's, each followed by the catalogue's
 * tasks' links placed after it (in catalogue order); a task link naming no core link goes last.
 */
export function placedNav(catalogue: DeclarationCatalogue): PlacedNavItem[] {
  const taskLinks = catalogue.folders.flatMap((folder) =>
    (folder.navLinks ?? []).map((link) => ({ ...link, folderId: folder.id })),
  );
  const placed = CORE_PROJECT_NAV.flatMap((core) => [
    { ...core, folderId: null },
    ...taskLinks.filter((link) => link.after === core.id),
  ]);
  const orphans = taskLinks.filter((link) => !CORE_PROJECT_NAV.some((core) => core.id === link.after));
  return [...placed, ...orphans].map(({ id, label, path, action, folderId }) => ({
    id,
    label,
    path,
    action,
    folderId,
  }));
}

export interface ProjectNavLink {
  id: string;
  label: string;
  href: string;
}

/**
 * The bar split for a project: the core's links and those of the tasks the project uses (`usedFolderIds`,
 * lib/projects/used-task-folders.ts) in the bar, the other tasks' links under one "More tasks" menu, so a
 * project of one task does not show every task's tab. Both in the bar's order; a role sees only what it may open.
 */
export function projectNavGroups(
  projectId: string,
  role: ProjectRole,
  usedFolderIds: ReadonlySet<string>,
  catalogue: DeclarationCatalogue,
): { main: ProjectNavLink[]; moreTasks: ProjectNavLink[] } {
  const main: ProjectNavLink[] = [];
  const moreTasks: ProjectNavLink[] = [];
  for (const item of placedNav(catalogue)) {
    if (!roleCan(role, item.action)) continue;
    const link = { id: item.id, label: item.label, href: `/projects/${projectId}${item.path}` };
    (item.folderId === null || usedFolderIds.has(item.folderId) ? main : moreTasks).push(link);
  }
  return { main, moreTasks };
}
