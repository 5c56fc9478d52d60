import type { ProjectRole } from "../../lib/generated/prisma/client";
import { roleCan } from "../../lib/authz/permissions";
import { placedNav, type ProjectNavItem } from "../../lib/projects/project-nav";
import type { DeclarationCatalogue } from "../../lib/task-modules/declaration-catalogue";

/** Every link of the bar in order (placedNav), without the folder each belongs to. */
export function projectNav(catalogue: DeclarationCatalogue): ProjectNavItem[] {
  return placedNav(catalogue).map(({ id, label, path, action }) => ({ id, label, path, action }));
}

/** Every link of a project's bar a role sees, in the bar's order, as one list (the app splits it: projectNavGroups). */
export function projectNavItems(
  projectId: string,
  role: ProjectRole,
  catalogue: DeclarationCatalogue,
): { id: string; label: string; href: string }[] {
  return projectNav(catalogue)
    .filter((item) => roleCan(role, item.action))
    .map((item) => ({ id: item.id, label: item.label, href: `/projects/${projectId}${item.path}` }));
}
