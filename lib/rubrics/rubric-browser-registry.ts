/**
 * The browser's copy of a project's rubric tasks in the task registry (lib/tasks/registry.ts). The server
 * registers every rubric task per request (rubric-registry.ts); client components (the video page, the review
 * screen, the queue form…) read the registry of their own bundle, which holds only the built-in tasks until the
 * project layout hands it the project's rubric tasks through components/rubrics/rubric-task-registry.tsx.
 *
 * Idempotent, so it can run on every render: an unchanged folder is left alone (the registry's version is not
 * bumped, so memoised schemas keep their identity), a changed one is replaced, and one the project no longer has
 * is taken out. A task the registry already holds from elsewhere (the server's own registration, when the
 * server render shares the module) is left to its owner.
 */
import { registerTaskDeclarations, TASKS } from "../tasks/registry";
import type { TaskDeclarations } from "../tasks/task-module";

const synced = new Map<string, { projectId: string | undefined; signature: string; undo: () => void }>();

/** Makes the registry hold exactly `folders` as the project's rubric tasks (those registered here). */
export function syncProjectTaskFolders(projectId: string, folders: readonly TaskDeclarations[]): void {
  const wanted = new Set(folders.map((folder) => folder.id));
  for (const [id, entry] of synced) {
    if (entry.projectId !== projectId || wanted.has(id)) continue;
    entry.undo();
    synced.delete(id);
  }
  for (const folder of folders) {
    const signature = JSON.stringify(folder);
    const current = synced.get(folder.id);
    if (current?.signature === signature) continue;
    if (!current && folder.tasks.some((task) => TASKS.some((t) => t.id === task.id))) continue;
    current?.undo();
    synced.set(folder.id, {
      projectId: folder.projectId ?? projectId,
      signature,
      undo: registerTaskDeclarations(folder),
    });
  }
}
