/**
 * The project's own span labels (task PROJECT_SPAN_TASK): members read them, owners replace the list. A label that
 * spans still carry cannot leave the list (409 naming it), so no saved span is left with a label nobody can choose.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { AppError } from "../errors";
import { projectSpanLabels, type SpanLabel } from "./span-labels";
import { PROJECT_SPAN_TASK } from "./span-types";

/** The list as saved (members of the project). */
export async function readProjectSpanLabels(prisma: PrismaClient, access: ProjectAccess) {
  const project = await prisma.project.findUniqueOrThrow({
    where: { id: access.projectId },
    select: { spanLabels: true },
  });
  return projectSpanLabels(project.spanLabels);
}

/**
 * Replaces the list (owners, as the project's other settings). `labels` is already parsed with
 * projectSpanLabelsSchema. The check for labels in use and the write are one transaction.
 */
export async function setProjectSpanLabels(
  prisma: PrismaClient,
  access: ProjectAccess<"project.rename">,
  labels: readonly SpanLabel[],
): Promise<SpanLabel[]> {
  const { projectId } = access;
  const kept = new Set(labels.map((l) => l.id));
  return prisma.$transaction(async (tx) => {
    // Serialises saves of one project's list, so two owners never both pass the in-use check on a stale list.
    await tx.$queryRaw`SELECT id FROM project WHERE id = ${projectId} FOR UPDATE`;
    const used = await tx.span.groupBy({
      by: ["label"],
      where: { projectId, task: PROJECT_SPAN_TASK, withdrawn: false },
      _count: { _all: true },
    });
    const removed = used.filter((row) => !kept.has(row.label)).sort((a, b) => a.label.localeCompare(b.label));
    if (removed.length > 0) {
      const named = removed.map((row) => `"${row.label}" (${row._count._all} spans)`).join(", ");
      throw new AppError(
        409,
        "labels_in_use",
        `These labels are on spans, so they stay in the list: ${named}. Change or withdraw those spans first.`,
        { labels: removed.map((row) => ({ id: row.label, spans: row._count._all })) },
      );
    }
    await tx.project.update({
      where: { id: projectId },
      data: { spanLabels: labels.map((l) => ({ ...l })) as unknown as Prisma.InputJsonArray },
    });
    return labels.map((l) => ({ ...l }));
  });
}
