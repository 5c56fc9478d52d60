/**
 * Rubric tasks of a project: create, save a new version, archive or restore, delete one without runs, read.
 * Versions are append-only and content-hashed: saving an unchanged definition makes no new version, and a run
 * pins the version it started with (its settings keep the definition whole).
 */
import { createHash } from "node:crypto";
import type { ProjectAccess } from "../authz/permissions";
import { ConflictError, NotFoundError } from "../errors";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { isPrismaError, UNIQUE_VIOLATION } from "../db/prisma-errors";
import { rubricPipelineId } from "./rubric-declaration";
import { canonicalDefinition, rubricProblems, type RubricDefinition } from "./rubric-definition";
import { RubricDefinitionError } from "./rubric-errors";
import { parseRubricFile } from "./rubric-file";
import type { RubricBody } from "./rubrics.validation";

export function rubricHash(definition: RubricDefinition): string {
  return createHash("sha256").update(canonicalDefinition(definition)).digest("hex");
}

/** The definition a body gives (as data or as a file's text), checked; every problem names its field. */
export function definitionOfBody(body: RubricBody): RubricDefinition {
  const input = "file" in body ? parseRubricFile(body.file) : body.definition;
  const { definition, problems } = rubricProblems(input);
  if (!definition) throw new RubricDefinitionError(problems);
  return definition;
}

function nameTaken(error: unknown): boolean {
  return isPrismaError(error, UNIQUE_VIOLATION);
}

export async function createRubricTask(
  prisma: PrismaClient,
  access: ProjectAccess<"rubrics.manage">,
  body: RubricBody,
) {
  const { actor, projectId } = access;
  const definition = definitionOfBody(body);
  try {
    const created = await prisma.rubricTask.create({
      data: {
        projectId,
        name: definition.name,
        createdById: actor.userId,
        versions: {
          create: {
            number: 1,
            definition: definition as unknown as Prisma.InputJsonValue,
            hash: rubricHash(definition),
            createdById: actor.userId,
          },
        },
      },
      select: { id: true, key: true, name: true },
    });
    return { ...created, pipeline: rubricPipelineId(created.key), version: 1 };
  } catch (error) {
    if (nameTaken(error))
      throw new RubricDefinitionError([
        { path: "name", message: `the project already has a rubric task named "${definition.name}"` },
      ]);
    throw error;
  }
}

/** The task, in the access's project; a task of another project is a 404, as one that does not exist. */
export async function requireRubricTask(prisma: PrismaClient, access: ProjectAccess, rubricTaskId: string) {
  const task = await prisma.rubricTask.findFirst({ where: { id: rubricTaskId, projectId: access.projectId } });
  if (!task) throw new NotFoundError("No such rubric task.");
  return task;
}

/** Saves the definition as the task's next version; the latest version's definition again saves nothing. */
export async function saveRubricVersion(
  prisma: PrismaClient,
  access: ProjectAccess<"rubrics.manage">,
  rubricTaskId: string,
  body: RubricBody,
) {
  const { actor } = access;
  const task = await requireRubricTask(prisma, access, rubricTaskId);
  const definition = definitionOfBody(body);
  const hash = rubricHash(definition);
  try {
    const saved = await prisma.$transaction(async (tx) => {
      const latest = await tx.rubricVersion.findFirst({
        where: { rubricTaskId },
        orderBy: { number: "desc" },
        select: { number: true, hash: true },
      });
      if (latest?.hash === hash) return { version: latest.number, created: false };
      // An earlier version's definition again is a new version: the latest is what new runs pin.
      const number = (latest?.number ?? 0) + 1;
      await tx.rubricVersion.create({
        data: {
          rubricTaskId,
          number,
          definition: definition as unknown as Prisma.InputJsonValue,
          hash,
          createdById: actor.userId,
        },
      });
      await tx.rubricTask.update({ where: { id: rubricTaskId }, data: { name: definition.name } });
      return { version: number, created: true };
    });
    return { id: task.id, key: task.key, pipeline: rubricPipelineId(task.key), ...saved };
  } catch (error) {
    if (nameTaken(error))
      throw new RubricDefinitionError([
        { path: "name", message: `the project already has a rubric task named "${definition.name}"` },
      ]);
    throw error;
  }
}

export async function setRubricTaskArchived(
  prisma: PrismaClient,
  access: ProjectAccess<"rubrics.manage">,
  rubricTaskId: string,
  archived: boolean,
) {
  await requireRubricTask(prisma, access, rubricTaskId);
  const task = await prisma.rubricTask.update({
    where: { id: rubricTaskId },
    data: { archivedAt: archived ? new Date() : null },
    select: { id: true, archivedAt: true },
  });
  return { id: task.id, archived: task.archivedAt !== null };
}

/** Deletes a rubric task that no run used; one with runs is archived instead (its runs keep their declaration). */
export async function deleteRubricTask(
  prisma: PrismaClient,
  access: ProjectAccess<"rubrics.manage">,
  rubricTaskId: string,
) {
  const task = await requireRubricTask(prisma, access, rubricTaskId);
  const runs = await prisma.judgeRun.count({
    where: { projectId: task.projectId, pipeline: rubricPipelineId(task.key) },
  });
  if (runs > 0)
    throw new ConflictError(
      `The rubric task "${task.name}" has ${runs} run${runs === 1 ? "" : "s"}: archive it instead, so their results keep their meaning.`,
    );
  await prisma.rubricTask.delete({ where: { id: rubricTaskId } });
  return { id: rubricTaskId, deleted: true };
}

export interface RubricTaskSummary {
  id: string;
  key: number;
  pipeline: string;
  name: string;
  archived: boolean;
  version: number;
  hash: string;
  definition: RubricDefinition;
  runs: number;
  updatedAt: string;
  /** Every version, newest first, with the alignment that saved it (lib/alignment), if one did. */
  versions: RubricVersionOrigin[];
}

export interface RubricVersionOrigin {
  number: number;
  createdAt: string;
  alignmentId: string | null;
}

/** The alignment (if any) that saved each of these rubric versions as its chosen judge. */
async function alignmentsOfVersions(prisma: PrismaClient, versionIds: string[]): Promise<Map<string, string>> {
  const rows = await prisma.alignmentRun.findMany({
    where: { rubricVersionId: { in: versionIds } },
    select: { id: true, rubricVersionId: true },
  });
  return new Map(rows.map((r) => [r.rubricVersionId!, r.id]));
}

/** The project's rubric tasks, newest first, each with its latest version and its run count. */
export async function listRubricTasks(prisma: PrismaClient, access: ProjectAccess): Promise<RubricTaskSummary[]> {
  const { projectId } = access;
  const tasks = await prisma.rubricTask.findMany({
    where: { projectId },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      key: true,
      name: true,
      archivedAt: true,
      updatedAt: true,
      versions: { orderBy: { number: "desc" }, take: 1, select: { number: true, hash: true, definition: true } },
    },
  });
  const counts = await prisma.judgeRun.groupBy({
    by: ["pipeline"],
    where: { projectId, pipeline: { in: tasks.map((t) => rubricPipelineId(t.key)) } },
    _count: { _all: true },
  });
  const runsOf = new Map(counts.map((c) => [c.pipeline, c._count._all]));
  const allVersions = await prisma.rubricVersion.findMany({
    where: { rubricTaskId: { in: tasks.map((t) => t.id) } },
    orderBy: { number: "desc" },
    select: { id: true, rubricTaskId: true, number: true, createdAt: true },
  });
  const aligned = await alignmentsOfVersions(
    prisma,
    allVersions.map((v) => v.id),
  );
  return tasks.flatMap((t) => {
    const latest = t.versions[0];
    if (!latest) return [];
    const pipeline = rubricPipelineId(t.key);
    return [
      {
        id: t.id,
        key: t.key,
        pipeline,
        name: t.name,
        archived: t.archivedAt !== null,
        version: latest.number,
        hash: latest.hash,
        definition: latest.definition as unknown as RubricDefinition,
        runs: runsOf.get(pipeline) ?? 0,
        updatedAt: t.updatedAt.toISOString(),
        versions: allVersions
          .filter((v) => v.rubricTaskId === t.id)
          .map((v) => ({
            number: v.number,
            createdAt: v.createdAt.toISOString(),
            alignmentId: aligned.get(v.id) ?? null,
          })),
      },
    ];
  });
}

/** One rubric task with every version, newest first. */
export async function getRubricTask(prisma: PrismaClient, access: ProjectAccess, rubricTaskId: string) {
  const task = await requireRubricTask(prisma, access, rubricTaskId);
  const versions = await prisma.rubricVersion.findMany({
    where: { rubricTaskId },
    orderBy: { number: "desc" },
    select: { id: true, number: true, hash: true, definition: true, createdAt: true },
  });
  const runs = await prisma.judgeRun.count({
    where: { projectId: task.projectId, pipeline: rubricPipelineId(task.key) },
  });
  const aligned = await alignmentsOfVersions(
    prisma,
    versions.map((v) => v.id),
  );
  return {
    id: task.id,
    key: task.key,
    projectId: task.projectId,
    pipeline: rubricPipelineId(task.key),
    name: task.name,
    archived: task.archivedAt !== null,
    runs,
    versions: versions.map((v) => ({
      id: v.id,
      number: v.number,
      hash: v.hash,
      definition: v.definition as unknown as RubricDefinition,
      createdAt: v.createdAt.toISOString(),
      alignmentId: aligned.get(v.id) ?? null,
    })),
  };
}
