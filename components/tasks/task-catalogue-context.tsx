"use client";

/**
 * The browser's task catalogue: the declaration catalogue of the project a page belongs to, through a React
 * context. The project layout (app/(app)/projects/[projectId]/layout.tsx) gives the provider the project's own task
 * folders (its rubric tasks; the built-in ones are in the bundle already); a client component reads the catalogue with
 * useTaskCatalogue(). Outside a project, or with no provider, it is the built-in catalogue.
 */
import { createContext, type ReactNode, useContext, useMemo } from "react";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import type { TaskFolderDeclarations } from "@/lib/task-modules/task-module";

const TaskCatalogueContext = createContext<DeclarationCatalogue>(BUILT_IN_DECLARATIONS);

export function TaskCatalogueProvider({
  folders,
  children,
}: {
  /** The project's own task folders (DeclarationCatalogue.projectFolders), added after the built-in ones. */
  folders: readonly TaskFolderDeclarations[];
  children: ReactNode;
}) {
  // By content: the server renders the layout afresh per request, and an unchanged project keeps its catalogue (and
  // what is derived from it).
  const signature = JSON.stringify(folders);
  const catalogue = useMemo(
    () => (folders.length === 0 ? BUILT_IN_DECLARATIONS : BUILT_IN_DECLARATIONS.withFolders(folders)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the folders' content, not their identity, decides
    [signature],
  );
  return <TaskCatalogueContext.Provider value={catalogue}>{children}</TaskCatalogueContext.Provider>;
}

/** The task catalogue of the page's project (the built-in one outside a project). */
export function useTaskCatalogue(): DeclarationCatalogue {
  return useContext(TaskCatalogueContext);
}
