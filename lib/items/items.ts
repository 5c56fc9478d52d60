/**
 * Reading items: the item list with its whitelisted filter, and one caption with its reference.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import type { ItemFilter } from "./items.validation";

/** A reference item's payload as stored by importReferenceSet. */
export interface ReferencePayload {
  video: string;
  instruction: string;
  reference: string;
  /** [caption type, rule text] as the file gives them. */
  restriction: [string, string];
  keyPoints: string[] | null;
  line: number;
}

/** A caption item's payload as stored by importModelOutputs. */
export interface CaptionPayload {
  output: string;
  line: number;
}

const itemSelect = {
  id: true,
  kind: true,
  setId: true,
  externalId: true,
  group: true,
  model: true,
  payload: true,
  createdAt: true,
  video: { select: { id: true, relativePath: true } },
  referenceItem: { select: { id: true, externalId: true, setId: true, payload: true } },
} as const satisfies Prisma.ItemSelect;

type ItemRow = Prisma.ItemGetPayload<{ select: typeof itemSelect }>;

function referenceView(reference: { id: string; externalId: string; setId: string; payload: Prisma.JsonValue }) {
  const payload = reference.payload as unknown as ReferencePayload;
  return {
    id: reference.id,
    externalId: reference.externalId,
    setId: reference.setId,
    instruction: payload.instruction,
    reference: payload.reference,
    restriction: payload.restriction,
    keyPoints: payload.keyPoints,
  };
}

export function itemView(row: ItemRow) {
  const base = {
    id: row.id,
    kind: row.kind,
    setId: row.setId,
    externalId: row.externalId,
    captionType: row.group,
    model: row.model,
    video: row.video,
    createdAt: row.createdAt,
  };
  if (row.kind === "caption_reference") {
    const { id: _id, externalId: _externalId, setId: _setId, ...reference } = referenceView({ ...row, payload: row.payload });
    return { ...base, ...reference };
  }
  return {
    ...base,
    output: (row.payload as unknown as CaptionPayload).output,
    reference: row.referenceItem ? referenceView(row.referenceItem) : null,
  };
}

/** One page of the project's items matching the filter, in a stable order (video path, type, model). */
export async function listItems(prisma: PrismaClient, actor: Actor, projectId: string, filter: ItemFilter) {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const where: Prisma.ItemWhereInput = {
    projectId,
    kind: filter.kind,
    ...(filter.model !== undefined ? { model: filter.model } : {}),
    ...(filter.type !== undefined ? { group: filter.type } : {}),
    ...(filter.videoId !== undefined ? { videoId: filter.videoId } : {}),
    ...(filter.setId !== undefined ? { setId: filter.setId } : {}),
  };
  const [total, rows] = await Promise.all([
    prisma.item.count({ where }),
    prisma.item.findMany({
      where,
      orderBy: [{ video: { relativePath: "asc" } }, { group: "asc" }, { model: "asc" }, { id: "asc" }],
      skip: (filter.page - 1) * filter.pageSize,
      take: filter.pageSize,
      select: itemSelect,
    }),
  ]);
  return { total, page: filter.page, pageSize: filter.pageSize, items: rows.map(itemView) };
}

/** One caption (or reference) with its reference; a non-member gets the same 404 as for no such item. */
export async function getItem(prisma: PrismaClient, actor: Actor, itemId: string) {
  const row = await prisma.item.findUnique({ where: { id: itemId }, select: { ...itemSelect, projectId: true } });
  if (!row) throw new NotFoundError("No such caption.");
  await requireProjectAccess(prisma, actor, row.projectId, "project.view").catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such caption.") : error;
  });
  return { projectId: row.projectId, ...itemView(row) };
}
