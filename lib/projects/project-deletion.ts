import { z } from "zod";
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { AppError, ConflictError, NotFoundError, ValidationError } from "../errors";
import type { Prisma, PrismaClient, ProjectRole } from "../generated/prisma/client";
import type { ObjectStorage } from "../storage/object-storage";
import { removeStorageGarbage } from "../storage/storage-garbage";
import { deleteVideosInBatches } from "../videos/delete-video-rows";
import { deletionProgressOf, type DeletionProgress, type DeletionStatus } from "../jobs/deletion-progress";

/**
 * Deleting a project with everything in it (owners; archiving is the reversible alternative), as a worker's job.
 *
 * The request counts what goes (the confirmation shows it) and, once the project's name is typed again, in one
 * transaction: takes the members out (kept on the deletion, to put back if it is cancelled), marks the project as
 * being deleted (gone for everyone, site admins too: lib/authz/permissions.ts) and queues the deletion. A worker
 * then deletes the videos a batch at a time, each batch in a transaction that records its storage objects as
 * garbage (lib/storage/storage-garbage.ts) and removes them after the commit; then the judgments, the runs a few at
 * a time and the project with the rest. Every step reads what is left, so a worker killed at any point is resumed by
 * the job's retry (pg-boss, after its heartbeat stops) from where the rows are, and the keys it had recorded but not
 * removed are removed first: nothing is left in storage that no row names. Cancelling stops between batches and
 * gives the project back, with its members and the videos not yet deleted. A project with a queued or running run
 * is refused (409) until the run finishes or is cancelled.
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

/** queued → running → done, or cancelled (given back) on the way; a failed attempt keeps `running` with its error and is retried. */
export type ProjectDeletionStatus = DeletionStatus;

export interface ProjectDeletionState extends DeletionProgress<ProjectDeletionCounts> {
  projectName: string;
}

/** Sends a deletion to the workers (lib/deletions/deletion-queues.ts; inline in tests). */
export interface ProjectDeletionQueue {
  enqueue(deletionId: string): Promise<void>;
}

type Tx = Prisma.TransactionClient;
type DeletionRow = Awaited<ReturnType<PrismaClient["projectDeletion"]["findUniqueOrThrow"]>>;

const UNFINISHED: ProjectDeletionStatus[] = ["queued", "running"];
/** Videos per batch (PROJECT_DELETION_BATCH_SIZE): each batch is one transaction, its storage removed after it. */
export function projectDeletionBatchSize(): number {
  const value = Number(process.env.PROJECT_DELETION_BATCH_SIZE ?? 200);
  return Number.isInteger(value) && value >= 1 ? value : 200;
}
const RUNS_PER_BATCH = 5;

function stateOf(row: DeletionRow): ProjectDeletionState {
  return { ...deletionProgressOf<ProjectDeletionCounts>(row), projectName: row.projectName };
}

async function countProject(tx: Tx, projectId: string): Promise<ProjectDeletionCounts> {
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
  const n = Object.fromEntries(Object.entries(row!).map(([key, value]) => [key, Number(value)])) as Omit<
    ProjectDeletionCounts,
    "storageObjects"
  >;
  return { ...n, storageObjects: n.videos + n.frames };
}

/**
 * Counts what the project holds (`dryRun`), or starts its deletion once `confirmName` is its name: the project is
 * gone for everyone from the answer on, and a worker deletes it (executeProjectDeletion).
 */
export async function deleteProject(
  deps: { prisma: PrismaClient; queue: ProjectDeletionQueue },
  access: ProjectAccess<"project.delete">,
  input: z.output<typeof deleteProjectSchema>,
): Promise<{ dryRun: boolean; name: string; counts: ProjectDeletionCounts; deletion: ProjectDeletionState | null }> {
  const { actor, projectId } = access;
  const outcome = await deps.prisma.$transaction(
    async (tx) => {
      const [project] = await tx.$queryRaw<
        { name: string }[]
      >`SELECT name FROM project WHERE id = ${projectId} AND "deletingAt" IS NULL FOR UPDATE`;
      if (!project) throw new NotFoundError("No such project.");
      const busy = await tx.judgeRun.findMany({
        where: { projectId, status: { in: ["queued", "running"] } },
        select: { id: true, pipeline: true },
      });
      if (busy.length) {
        throw new AppError(
          409,
          "run_in_progress",
          `Runs of this project are still judging (${busy.map((r) => `${r.pipeline} run ${r.id}`).join(", ")}): cancel them or let them finish first. Nothing was deleted.`,
          { runIds: busy.map((r) => r.id) },
        );
      }
      const counts = await countProject(tx, projectId);
      if (input.dryRun) return { name: project.name, counts, deletion: null };
      if ((input.confirmName ?? "").trim() !== project.name.trim()) {
        throw new ValidationError(
          `Type the project's name ("${project.name}") to confirm its deletion. Nothing was deleted.`,
        );
      }
      const members = await tx.projectMember.findMany({ where: { projectId }, select: { userId: true, role: true } });
      await tx.projectMember.deleteMany({ where: { projectId } });
      await tx.project.update({ where: { id: projectId }, data: { deletingAt: new Date() } });
      // A deletion cancelled before leaves its row (one per project): this one takes its place.
      await tx.projectDeletion.deleteMany({ where: { projectId } });
      const deletion = await tx.projectDeletion.create({
        data: {
          projectId,
          projectName: project.name,
          requestedById: actor.userId,
          counts: counts as unknown as Prisma.InputJsonValue,
          members: members as unknown as Prisma.InputJsonValue,
          videosTotal: counts.videos,
        },
      });
      return { name: project.name, counts, deletion };
    },
    { timeout: 60_000 },
  );
  if (!outcome.deletion) return { dryRun: true, name: outcome.name, counts: outcome.counts, deletion: null };
  // A send that fails leaves the deletion queued: every worker sends the unfinished ones again as it starts.
  await deps.queue.enqueue(outcome.deletion.id);
  return { dryRun: false, name: outcome.name, counts: outcome.counts, deletion: stateOf(outcome.deletion) };
}

/** The deletion, for the account that asked for it or a site admin; anyone else gets a 404. */
async function requireDeletion(prisma: PrismaClient, actor: Actor, deletionId: string): Promise<DeletionRow> {
  const row = await prisma.projectDeletion.findUnique({ where: { id: deletionId } });
  if (!row || (row.requestedById !== actor.userId && !actor.isAdmin))
    throw new NotFoundError("No such project deletion.");
  return row;
}

export async function getProjectDeletion(
  prisma: PrismaClient,
  actor: Actor,
  deletionId: string,
): Promise<ProjectDeletionState> {
  return stateOf(await requireDeletion(prisma, actor, deletionId));
}

/** The actor's deletions (a site admin's: everyone's) still going, or ended in the last day; newest first. */
export async function listProjectDeletions(prisma: PrismaClient, actor: Actor): Promise<ProjectDeletionState[]> {
  const rows = await prisma.projectDeletion.findMany({
    where: {
      ...(actor.isAdmin ? {} : { requestedById: actor.userId }),
      OR: [{ status: { in: UNFINISHED } }, { finishedAt: { gte: new Date(Date.now() - 24 * 3600_000) } }],
    },
    orderBy: { createdAt: "desc" },
    take: 50,
  });
  return rows.map(stateOf);
}

/** Gives the project back: its members (those whose accounts still exist) and whatever was not deleted yet. */
async function restoreProject(tx: Tx, row: DeletionRow): Promise<DeletionRow> {
  const members = row.members as unknown as { userId: string; role: ProjectRole }[];
  const users = new Set(
    (await tx.user.findMany({ where: { id: { in: members.map((m) => m.userId) } }, select: { id: true } })).map(
      (u) => u.id,
    ),
  );
  await tx.projectMember.createMany({
    data: members
      .filter((m) => users.has(m.userId))
      .map((m) => ({ projectId: row.projectId, userId: m.userId, role: m.role })),
    skipDuplicates: true,
  });
  await tx.project.update({ where: { id: row.projectId }, data: { deletingAt: null } });
  return tx.projectDeletion.update({ where: { id: row.id }, data: { status: "cancelled", finishedAt: new Date() } });
}

/** A running deletion whose row has not moved for this long has no worker on it (a batch takes seconds). */
const STALLED_MS = 5 * 60_000;

/**
 * Cancels a deletion: one no worker has started, or one whose worker stopped (no batch for five minutes: workers
 * down, or its retries given up), is given back at once; a running one stops after its current batch (the answer
 * says `cancelRequested`). One that ended is a 409.
 */
export async function cancelProjectDeletion(
  prisma: PrismaClient,
  actor: Actor,
  deletionId: string,
): Promise<ProjectDeletionState> {
  await requireDeletion(prisma, actor, deletionId);
  const row = await prisma.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<
      { status: string }[]
    >`SELECT status FROM project_deletion WHERE id = ${deletionId} FOR UPDATE`;
    if (!locked || !UNFINISHED.includes(locked.status as ProjectDeletionStatus))
      throw new ConflictError(`The deletion has ended (${locked?.status ?? "gone"}): there is nothing to cancel.`);
    const current = await tx.projectDeletion.findUniqueOrThrow({ where: { id: deletionId } });
    if (locked.status === "queued" || Date.now() - current.updatedAt.getTime() > STALLED_MS)
      return restoreProject(tx, current);
    return tx.projectDeletion.update({ where: { id: deletionId }, data: { cancelRequested: true } });
  });
  return stateOf(row);
}

export interface ProjectDeletionDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
  batchSize?: number;
  /** Called after each batch of videos (tests stop or cancel here). */
  afterBatch?: (state: ProjectDeletionState) => Promise<void> | void;
}

/** The storage keys of this project recorded as garbage and not removed yet (by an attempt that was killed). */
async function removeLeftGarbage(deps: ProjectDeletionDeps, row: DeletionRow): Promise<void> {
  for (;;) {
    const left = await deps.prisma.storageGarbage.findMany({
      where: { key: { startsWith: `projects/${row.projectId}/` } },
      take: 1000,
      select: { key: true },
    });
    if (left.length === 0) return;
    const removed = await removeStorageGarbage(
      deps.prisma,
      deps.storage,
      left.map((g) => g.key),
    );
    await deps.prisma.projectDeletion.update({
      where: { id: row.id },
      data: { storageRemoved: { increment: removed.removed } },
    });
    // A key that failed every attempt stays for the sweep (lib/storage/storage-garbage.ts), not for this loop.
    if (removed.failedCount > 0) return;
  }
}

/**
 * Between batches: gives the project back if a cancel was asked for, and says whether to stop (also when the
 * deletion is no longer running: given back by a cancel that found it stalled, or ended by another attempt).
 */
async function stopHere(prisma: PrismaClient, deletionId: string): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM project_deletion WHERE id = ${deletionId} FOR UPDATE`;
    const row = await tx.projectDeletion.findUniqueOrThrow({ where: { id: deletionId } });
    if (row.status !== "running") return true;
    if (!row.cancelRequested) return false;
    await restoreProject(tx, row);
    return true;
  });
}

/**
 * The worker's part: deletes the project a batch of videos at a time, then the rest. Safe to run again at any point
 * (a retry after a kill) and side by side with itself (each batch takes only the videos no one else holds).
 */
export async function executeProjectDeletion(
  deps: ProjectDeletionDeps,
  deletionId: string,
): Promise<ProjectDeletionState | null> {
  const { prisma } = deps;
  const claimed = await prisma.projectDeletion.updateMany({
    where: { id: deletionId, status: { in: UNFINISHED } },
    data: { status: "running" },
  });
  let row = await prisma.projectDeletion.findUnique({ where: { id: deletionId } });
  if (!row || claimed.count === 0) return row ? stateOf(row) : null;
  const { projectId } = row;
  const batchSize = deps.batchSize ?? projectDeletionBatchSize();
  try {
    await removeLeftGarbage(deps, row);
    const videos = await deleteVideosInBatches(deps, {
      projectId,
      batchSize,
      stop: () => stopHere(prisma, deletionId),
      counted: (tx, n) =>
        tx.projectDeletion.update({ where: { id: deletionId }, data: { videosDeleted: { increment: n } } }),
      removed: async (files) => {
        row = await prisma.projectDeletion.update({
          where: { id: deletionId },
          data: { storageRemoved: { increment: files } },
        });
        await deps.afterBatch?.(stateOf(row));
      },
    });
    if (videos === "stopped")
      return stateOf(await prisma.projectDeletion.findUniqueOrThrow({ where: { id: deletionId } }));
    if (await stopHere(prisma, deletionId))
      return stateOf(await prisma.projectDeletion.findUniqueOrThrow({ where: { id: deletionId } }));
    // No video is left: judgments (which name the project without a foreign key), the runs a few at a time (their
    // steps, calls and scores cascade), the open uploads' staged bytes, then the project with everything else.
    await prisma.humanJudgment.deleteMany({ where: { projectId } });
    for (;;) {
      const runs = await prisma.judgeRun.findMany({ where: { projectId }, take: RUNS_PER_BATCH, select: { id: true } });
      if (runs.length === 0) break;
      await prisma.judgeRun.deleteMany({ where: { id: { in: runs.map((r) => r.id) } } });
    }
    const uploads = await prisma.uploadSession.findMany({ where: { projectId, status: "open" }, select: { id: true } });
    for (const upload of uploads) await deps.storage.discardStaging(upload.id).catch(() => undefined);
    row = await prisma.$transaction(async (tx) => {
      await tx.project.deleteMany({ where: { id: projectId } });
      return tx.projectDeletion.update({
        where: { id: deletionId },
        data: { status: "done", error: null, finishedAt: new Date() },
      });
    });
    await removeLeftGarbage(deps, row);
    return stateOf(await prisma.projectDeletion.findUniqueOrThrow({ where: { id: deletionId } }));
  } catch (error) {
    // The job is retried (its queue's retry limit); the requester sees why it has not finished yet.
    await prisma.projectDeletion
      .update({ where: { id: deletionId }, data: { error: error instanceof Error ? error.message : String(error) } })
      .catch(() => undefined);
    throw error;
  }
}

/** The deletions a worker should (re)send as it starts: queued or running ones whose job may be lost. */
export async function unfinishedProjectDeletions(prisma: PrismaClient): Promise<string[]> {
  return (await prisma.projectDeletion.findMany({ where: { status: { in: UNFINISHED } }, select: { id: true } })).map(
    (d) => d.id,
  );
}
