import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import type { TaskCatalogue } from "../../task-modules/task-catalogue";
import type { RunFormDeclaration } from "../../task-modules/task-module";

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
 * The pipelines the run form offers, in catalogue order: those the task folders' declarations list in `runForm`
 * and a task module of the catalogue has (a project's catalogue holds its own rubric tasks, no other project's).
 */
export function runFormPipelines(
  catalogue: TaskCatalogue,
  savedDefaults: Readonly<Record<string, unknown>>,
): RunFormPipeline[] {
  return catalogue.folders.flatMap((folder) =>
    Object.entries(folder.runForm ?? {}).flatMap(([id, form]) => {
      const pipeline = catalogue.pipelines[id];
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
