import type { ProjectRole } from "../generated/prisma/client";
import { roleCan, type ProjectAction } from "../authz/permissions";

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

export const PROJECT_NAV: readonly ProjectNavItem[] = [
  { id: "overview", label: "Overview", path: "", action: "project.view" },
  { id: "videos", label: "Videos", path: "/videos", action: "project.view" },
  { id: "import", label: "Import", path: "/import", action: "videos.import" },
  { id: "judge", label: "Judge", path: "/judge", action: "project.view" },
  { id: "queues", label: "Review queues", path: "/queues", action: "project.view" },
  { id: "agreement", label: "Agreement", path: "/agreement", action: "export.read" },
  { id: "adjudication", label: "Adjudication", path: "/adjudication", action: "gold.set" },
  { id: "captions", label: "Captions", path: "/captions", action: "project.view" },
  { id: "qa", label: "QA", path: "/qa", action: "project.view" },
  { id: "calibration", label: "Calibration", path: "/calibration", action: "export.read" },
  { id: "construction", label: "Construction", path: "/construction", action: "project.view" },
  { id: "prompts", label: "Prompts", path: "/prompts", action: "project.view" },
  { id: "settings", label: "Settings", path: "/settings", action: "project.view" },
];

export function projectNavItems(projectId: string, role: ProjectRole): { id: string; label: string; href: string }[] {
  return PROJECT_NAV.filter((item) => roleCan(role, item.action)).map((item) => ({ id: item.id, label: item.label, href: `/projects/${projectId}${item.path}` }));
}
