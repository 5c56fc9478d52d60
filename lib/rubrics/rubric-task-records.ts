/**
 * A project's rubric tasks as the catalogue reads them: each task with its latest version, parsed.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { rubricDefinitionSchema } from "./rubric-definition";
import type { RubricTaskRecord } from "./rubric-pipeline";

/** Every project's rubric tasks (or one project's) with their latest versions. */
export async function loadRubricTaskRecords(
  prisma: PrismaClient,
  only: { projectId?: string } = {},
): Promise<RubricTaskRecord[]> {
  const rows = await prisma.rubricTask.findMany({
    ...(only.projectId ? { where: { projectId: only.projectId } } : {}),
    orderBy: { key: "asc" },
    select: {
      id: true,
      key: true,
      projectId: true,
      name: true,
      archivedAt: true,
      versions: {
        orderBy: { number: "desc" },
        take: 1,
        select: { id: true, number: true, hash: true, definition: true },
      },
    },
  });
  return rows.flatMap((row) => {
    const latest = row.versions[0];
    const definition = latest ? rubricDefinitionSchema.safeParse(latest.definition) : null;
    // A stored definition always parsed when it was saved; one that no longer does (a stricter schema) is left out, not fatal.
    if (!latest || !definition?.success) return [];
    return [
      {
        id: row.id,
        key: row.key,
        projectId: row.projectId,
        name: row.name,
        archived: row.archivedAt !== null,
        latest: { ...latest, definition: definition.data },
      },
    ];
  });
}
