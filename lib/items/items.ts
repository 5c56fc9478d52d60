/**
 * Reading items: the item list with its whitelisted filter, and one item by id. Which kinds the list
 * shows, and what it shows of each, the task modules' item set kinds say (`itemList`, read at call time).
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import type { ItemListDeclaration, ItemListViews } from "../task-modules/item-set-kind";
import type { ItemFilter } from "./items.validation";
import { listedItemKinds } from "./item-sets";
import { builtInCatalogue, catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";

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

/** The core's fields of every listed item. */
interface ItemBaseView {
  id: string;
  kind: string;
  setId: string;
  externalId: string;
  model: string | null;
  video: { id: string; relativePath: string };
  createdAt: Date;
}

/** A listed item: the core's fields and its kind's own (ItemListViews, filled by the task folders). */
export type ItemView = [keyof ItemListViews] extends [never]
  ? ItemBaseView
  : { [Kind in keyof ItemListViews]: ItemBaseView & ItemListViews[Kind] }[keyof ItemListViews];

function itemView(row: ItemRow, listed: readonly ItemListDeclaration[]): ItemView {
  const base: ItemBaseView = {
    id: row.id,
    kind: row.kind,
    setId: row.setId,
    externalId: row.externalId,
    model: row.model,
    video: row.video,
    createdAt: row.createdAt,
  };
  const own = listed.find((kind) => kind.itemKind === row.kind)?.view(row) ?? {};
  // The kind's view is what ItemListViews declares for it (the task folder declares both side by side).
  return { ...base, ...own } as ItemView;
}

/** One page of the project's items matching the filter, in a stable order (video path, group, model). */
export async function listItems(
  prisma: PrismaClient,
  access: ProjectAccess,
  filter: ItemFilter,
  given?: TaskCatalogue,
) {
  const { projectId } = access;
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
  const listed = listedItemKinds(await catalogueOf(prisma, projectId, given));
  return { total, page: filter.page, pageSize: filter.pageSize, items: rows.map((row) => itemView(row, listed)) };
}

/** One item of the access's project with what its kind shows of it; an item of another project is "no such item". */
export async function getItem(prisma: PrismaClient, access: ProjectAccess, itemId: string, given?: TaskCatalogue) {
  const builtInListed = listedItemKinds(builtInCatalogue());
  const missing = `No such ${builtInListed.find((kind) => kind.listedByDefault)?.itemNoun ?? "item"}.`;
  const row = await prisma.item.findFirst({
    where: { id: itemId, projectId: access.projectId },
    select: { ...itemSelect, projectId: true },
  });
  if (!row) throw new NotFoundError(missing);
  return {
    projectId: row.projectId,
    ...itemView(row, listedItemKinds(await catalogueOf(prisma, row.projectId, given))),
  };
}
