import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";

/** The file names of a project's videos among `videoIds` (ids of other projects are left out), for links that read as files, not ids. */
export async function videoFileNames(
  prisma: PrismaClient,
  access: ProjectAccess,
  videoIds: readonly string[],
): Promise<Record<string, string>> {
  const { projectId } = access;
  if (videoIds.length === 0) return {};
  const rows = await prisma.video.findMany({
    where: { projectId, id: { in: [...new Set(videoIds)] } },
    select: { id: true, fileName: true },
  });
  return Object.fromEntries(rows.map((row) => [row.id, row.fileName]));
}
