import type { RegisteredPipeline } from "./engine/pipeline";
import { installedPipelines } from "../task-modules/installed-task-modules";
import { TASK_FOLDERS } from "../tasks/registry";
import type { RunFormDeclaration } from "../tasks/task-module";

/** A pipeline the Judge page's run form offers, with the project's defaults for its new runs. */
export interface RunFormPipeline extends RunFormDeclaration {
  id: string;
  /** The task folder that declares it (its views' state is kept per folder). */
  folderId: string;
  /**
   * The project's saved defaults for the pipeline's runs as its settings schema parses them (the schema's own
   * defaults when what was saved no longer parses); null for a pipeline without settings.
   */
  defaults: unknown;
}

/**
 * The pipelines the run form offers, in registry order: those the task folders' declarations list in
 * `runForm` and a task module registers. Read at call time, so a task registered in a test is offered; a
 * project's own rubric tasks are offered in that project only.
 */
export function runFormPipelines(
  savedDefaults: Readonly<Record<string, unknown>>,
  projectId?: string,
): RunFormPipeline[] {
  return TASK_FOLDERS.filter((folder) => !folder.projectId || folder.projectId === projectId).flatMap((folder) =>
    Object.entries(folder.runForm ?? {}).flatMap(([id, form]) => {
      const pipeline = installedPipelines()[id];
      return pipeline
        ? [{ id, folderId: folder.id, ...form, defaults: settingsDefaults(pipeline, savedDefaults[id]) }]
        : [];
    }),
  );
}

function settingsDefaults(pipeline: RegisteredPipeline, saved: unknown): unknown {
  if (!pipeline.settingsSchema) return null;
  return pipeline.settingsSchema.safeParse(saved ?? {}).data ?? pipeline.settingsSchema.parse({});
}
