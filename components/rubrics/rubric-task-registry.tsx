"use client";

import type { ReactNode } from "react";
import { syncProjectTaskFolders } from "@/lib/rubrics/rubric-browser-registry";
import type { TaskDeclarations } from "@/lib/tasks/task-module";

/**
 * Puts the project's rubric tasks into this bundle's task registry before its children render, so a client
 * component's `findTask`/`taskOf` knows a rubric run's pipeline as it knows a built-in one. During render, not in
 * an effect: an effect runs after the children, which would render a rubric run without its task first (and the
 * server's HTML would differ from the browser's). Registration is idempotent, so re-renders cost a comparison.
 */
export function RubricTaskRegistry({
  projectId,
  folders,
  children,
}: {
  projectId: string;
  folders: TaskDeclarations[];
  children: ReactNode;
}) {
  syncProjectTaskFolders(projectId, folders);
  return <>{children}</>;
}
