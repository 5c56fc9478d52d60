/**
 * The pipeline a rubric task's run pinned: built from the version the run started with (its settings hold it whole,
 * lib/rubrics/rubric-pipeline.ts RubricRunSettings), so a later edit of the task never changes a run under way. The
 * rubric task source hands it to the catalogue layer (ProjectTaskSource.pinnedPipelineOf), which the engine reads.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { RegisteredPipeline } from "../task-modules/pipeline-types";
import type { RunOfPipeline } from "../task-modules/task-catalogue";
import { rubricPipeline, type RubricRunSettings } from "./rubric-pipeline";

const RUBRIC_PIPELINE = /^rubric_(\d+)$/;

/** Pipelines built for pinned versions, by task, version and the task's name and archival (the least recent go first). */
const KEPT = 100;
const built = new Map<string, RegisteredPipeline>();

/**
 * The pipeline a rubric task's run pinned (undefined when its task is gone), or null for a run that pinned no rubric
 * version (another task's, or a rubric run without a pinned version): the project's catalogue answers for it.
 */
export async function pinnedRubricPipeline(
  prisma: PrismaClient,
  run: RunOfPipeline,
): Promise<{ pipeline: RegisteredPipeline | undefined } | null> {
  const key = RUBRIC_PIPELINE.exec(run.pipeline)?.[1];
  const pinned = run.settings as Partial<RubricRunSettings> | null;
  if (key === undefined || !pinned?.rubricVersionId || !pinned.definition || pinned.version === undefined) return null;
  const task = await prisma.rubricTask.findFirst({
    where: { projectId: run.projectId, key: Number(key) },
    select: { id: true, name: true, archivedAt: true },
  });
  if (!task) return { pipeline: undefined };
  // A candidate (an alignment's unsaved definition) is keyed by its definition: candidates share their version's id.
  const candidate = pinned.candidate ? JSON.stringify(pinned.definition) : "";
  const cacheKey = JSON.stringify([task.id, pinned.rubricVersionId, candidate, task.name, task.archivedAt]);
  const found = built.get(cacheKey);
  if (found) return { pipeline: found };
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
  return { pipeline };
}
