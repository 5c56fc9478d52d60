/**
 * The pipeline one run runs, as the engine (lib/judge/engine) and the ensemble combiner read it: a built-in task's
 * from the built-in catalogue; a rubric task's built from the version the run pinned (its settings hold it whole,
 * lib/rubrics/rubric-pipeline.ts RubricRunSettings), so a later edit of the task never changes a run under way.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { RegisteredPipeline } from "../judge/engine/pipeline";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { rubricPipeline, type RubricRunSettings } from "./rubric-pipeline";

const RUBRIC_PIPELINE = /^rubric_(\d+)$/;

/** Pipelines built for pinned versions, by task, version and the task's name and archival (the least recent go first). */
const KEPT = 100;
const built = new Map<string, RegisteredPipeline>();

/** The pipeline of a run (undefined for a pipeline neither the built-in tasks nor the run's project has). */
export async function pipelineOfRun(
  prisma: PrismaClient,
  run: { projectId: string; pipeline: string; settings: unknown },
): Promise<RegisteredPipeline | undefined> {
  const builtIn = builtInCatalogue().pipelines[run.pipeline];
  if (builtIn) return builtIn;
  const key = RUBRIC_PIPELINE.exec(run.pipeline)?.[1];
  const pinned = run.settings as Partial<RubricRunSettings> | null;
  if (key === undefined || !pinned?.rubricVersionId || !pinned.definition || pinned.version === undefined)
    return (await catalogFor(prisma, run.projectId)).pipelines[run.pipeline];
  const task = await prisma.rubricTask.findFirst({
    where: { projectId: run.projectId, key: Number(key) },
    select: { id: true, name: true, archivedAt: true },
  });
  if (!task) return undefined;
  // A candidate (an alignment's unsaved definition) is keyed by its definition: candidates share their version's id.
  const candidate = pinned.candidate ? JSON.stringify(pinned.definition) : "";
  const cacheKey = JSON.stringify([task.id, pinned.rubricVersionId, candidate, task.name, task.archivedAt]);
  const found = built.get(cacheKey);
  if (found) return found;
  const pipeline = rubricPipeline({
    id: task.id,
    key: Number(key),
    projectId: run.projectId,
    name: task.name,
    archived: task.archivedAt !== null,
    latest: {
      id: pinned.rubricVersionId,
      number: pinned.version,
      hash: pinned.hash ?? "",
      definition: pinned.definition,
    },
  });
  built.set(cacheKey, pipeline);
  if (built.size > KEPT) built.delete(built.keys().next().value!);
  return pipeline;
}
