import { z } from "zod";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { AppError, ValidationError } from "../errors";
import type { ObjectStorage } from "../storage/object-storage";
import { removeStoredObjects, type RemovedObjects } from "../storage/remove-objects";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * Deleting a project with everything in it (owners; archiving is the reversible alternative). The
 * confirmation shows what goes, counted here; the deletion needs the project's name typed again.
 * Rows go in one transaction (judgments first, which name the project without a foreign key, then
 * the runs, whose endpoints would otherwise refuse, then the project and its cascade); the videos' and
 * frames' storage objects and the open uploads' staged bytes are removed after it commits. A project
 * with a queued or running run is refused (409) until the run finishes or is cancelled.
 */

export const deleteProjectSchema = z
  .object({
    dryRun: z.boolean().default(false),
    /** The project's name, typed again (required unless dryRun). */
    confirmName: z.string().max(200).optional(),
  })
  .strict();

export interface ProjectDeletionCounts {
  videos: number;
  frames: number;
  runs: number;
  steps: number;
  humanJudgments: number;
  goldJudgments: number;
  queues: number;
  labelSets: number;
  items: number;
  members: number;
  storageObjects: number;
}

export async function deleteProject(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  actor: Actor,
  projectId: string,
  input: z.output<typeof deleteProjectSchema>,
): Promise<{ dryRun: boolean; name: string; counts: ProjectDeletionCounts; storage: RemovedObjects | null }> {
  await requireProjectAccess(deps.prisma, actor, projectId, "project.delete");
  const outcome = await deps.prisma.$transaction(
    async (tx) => {
      const [project] = await tx.$queryRaw<{ name: string }[]>`SELECT name FROM project WHERE id = ${projectId} FOR UPDATE`;
      if (!project) throw new AppError(404, "not_found", "No such project.");
      const busy = await tx.judgeRun.findMany({ where: { projectId, status: { in: ["queued", "running"] } }, select: { id: true, pipeline: true } });
      if (busy.length) {
        throw new AppError(
          409,
          "run_in_progress",
          `Runs of this project are still judging (${busy.map((r) => `${r.pipeline} run ${r.id}`).join(", ")}): cancel them or let them finish first. Nothing was deleted.`,
          {
            runIds: busy.map((r) => r.id),
          },
        );
      }
      const [row] = await tx.$queryRaw<Record<Exclude<keyof ProjectDeletionCounts, "storageObjects">, bigint>[]>`
        SELECT
          (SELECT count(*) FROM video WHERE "projectId" = ${projectId}) AS videos,
          (SELECT count(*) FROM frame f JOIN frame_set fs ON fs.id = f."frameSetId" JOIN video v ON v.id = fs."videoId" WHERE v."projectId" = ${projectId}) AS frames,
          (SELECT count(*) FROM judge_run WHERE "projectId" = ${projectId}) AS runs,
          (SELECT count(*) FROM step_result sr JOIN judge_run r ON r.id = sr."runId" WHERE r."projectId" = ${projectId}) AS steps,
          (SELECT count(*) FROM human_judgment WHERE "projectId" = ${projectId}) AS "humanJudgments",
          (SELECT count(*) FROM gold_judgment WHERE "projectId" = ${projectId}) AS "goldJudgments",
          (SELECT count(*) FROM review_queue WHERE "projectId" = ${projectId}) + (SELECT count(*) FROM curation_queue WHERE "projectId" = ${projectId}) AS queues,
          (SELECT count(*) FROM label_set WHERE "projectId" = ${projectId}) AS "labelSets",
          (SELECT count(*) FROM item WHERE "projectId" = ${projectId}) AS items,
          (SELECT count(*) FROM project_member WHERE "projectId" = ${projectId}) AS members`;
      const n = Object.fromEntries(Object.entries(row!).map(([key, value]) => [key, Number(value)])) as Omit<ProjectDeletionCounts, "storageObjects">;
      const counts: ProjectDeletionCounts = { ...n, storageObjects: n.videos + n.frames };
      if (input.dryRun) return { name: project.name, counts, keys: [] as string[], uploads: [] as string[] };
      if ((input.confirmName ?? "").trim() !== project.name.trim()) {
        throw new ValidationError(`Type the project's name ("${project.name}") to confirm its deletion. Nothing was deleted.`);
      }
      const keys = await tx.$queryRaw<{ key: string }[]>`
        SELECT "storageKey" AS key FROM video WHERE "projectId" = ${projectId}
        UNION ALL
        SELECT f."storageKey" FROM frame f JOIN frame_set fs ON fs.id = f."frameSetId" JOIN video v ON v.id = fs."videoId" WHERE v."projectId" = ${projectId}`;
      const uploads = await tx.uploadSession.findMany({ where: { projectId, status: "open" }, select: { id: true } });
      await tx.humanJudgment.deleteMany({ where: { projectId } });
      await tx.judgeRun.deleteMany({ where: { projectId } });
      await tx.project.delete({ where: { id: projectId } });
      return { name: project.name, counts, keys: keys.map((k) => k.key), uploads: uploads.map((u) => u.id) };
    },
    { timeout: 300_000 },
  );
  if (input.dryRun) return { dryRun: true, name: outcome.name, counts: outcome.counts, storage: null };
  const storage = await removeStoredObjects(deps.storage, outcome.keys);
  for (const uploadId of outcome.uploads) await deps.storage.discardStaging(uploadId).catch(() => undefined);
  return { dryRun: false, name: outcome.name, counts: outcome.counts, storage };
}
