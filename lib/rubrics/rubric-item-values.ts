/**
 * The values of a rubric run over items, one row per item of the run with a column per criterion (as the captions and
 * Q&A tasks list their items): the item's id in the file, its video, its declared fields and the judge's value of
 * each criterion, filtered on one criterion's value range or on the fields' text, and sorted by a criterion or by
 * the item's id. A viewer who is reviewing an item's video in an open blind queue sees no value for it.
 */
import { z } from "zod";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import type { GenericItemPayload } from "../items/generic-items";
import { formatValue } from "../task-modules/task-declaration";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { criterionScale, rubricTargetId } from "./rubric-declaration";
import { rubricDefinitionSchema, type RubricDefinition } from "./rubric-definition";

/** The list's query (the run page's search params): every key whitelisted, a criterion checked against the run's definition. */
export const rubricItemValuesQuerySchema = z.object({
  /** A criterion id, or `item` (the item's id in the file; the default). */
  itemSort: z.string().max(40).optional(),
  itemDir: z.enum(["asc", "desc"]).optional(),
  /** The criterion whose value itemMin/itemMax bound (stored values: a label's position, yes 1 / no 0). */
  itemCriterion: z.string().max(40).optional(),
  itemMin: z.coerce.number().finite().optional(),
  itemMax: z.coerce.number().finite().optional(),
  /** Text that one of the item's fields (or its id) contains, case-insensitive. */
  itemText: z.string().trim().max(200).optional(),
});
export type RubricItemValuesQuery = z.output<typeof rubricItemValuesQuerySchema>;

export interface RubricItemValueRow {
  itemId: string;
  externalId: string;
  videoId: string;
  fileName: string;
  fields: { id: string; label: string; value: string }[];
  /** The judge's value per criterion id (null: none, or hidden from a blind reviewer). */
  values: Record<string, number | null>;
  /** Each value as shown: a label's name, yes/no, or the number. */
  shown: Record<string, string>;
  blind: boolean;
}

export interface RubricItemValues {
  criteria: {
    id: string;
    name: string;
    type: string;
    higherIsBetter: boolean;
    values: readonly { value: number; label: string }[] | null;
  }[];
  rows: RubricItemValueRow[];
  /** Items of the run before the filter. */
  total: number;
  query: {
    sort: string;
    dir: "asc" | "desc";
    criterion: string | null;
    min: number | null;
    max: number | null;
    text: string;
  };
}

/** The run's pinned definition when it is a rubric run over items, else null (the run page then shows no item list). */
async function itemDefinitionOf(
  prisma: PrismaClient,
  projectId: string,
  runId: string,
): Promise<{ definition: RubricDefinition; key: number } | null> {
  const run = await prisma.judgeRun.findFirst({ where: { id: runId, projectId }, select: { settings: true } });
  if (!run) throw new NotFoundError("No such run in this project.");
  const settings = (run.settings ?? {}) as { rubricVersionId?: unknown; definition?: unknown };
  if (typeof settings.rubricVersionId !== "string") return null;
  const parsed = rubricDefinitionSchema.safeParse(settings.definition);
  if (!parsed.success || parsed.data.subject.kind !== "item") return null;
  const version = await prisma.rubricVersion.findUnique({
    where: { id: settings.rubricVersionId },
    select: { rubricTask: { select: { key: true } } },
  });
  return version ? { definition: parsed.data, key: version.rubricTask.key } : null;
}

/** The item list of a rubric run over items (members), or null when the run judges videos. */
export async function rubricItemValues(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
  query: RubricItemValuesQuery,
): Promise<RubricItemValues | null> {
  const { projectId } = access;
  const pinned = await itemDefinitionOf(prisma, projectId, runId);
  if (!pinned) return null;
  const { definition, key } = pinned;
  const scales = new Map(definition.criteria.map((c) => [c.id, criterionScale(c)]));
  const criteria = definition.criteria.map((c) => {
    const scale = scales.get(c.id)!;
    return {
      id: c.id,
      name: c.name,
      type: c.type,
      higherIsBetter: c.higherIsBetter ?? true,
      values: scale.kind === "categorical" ? scale.values : null,
    };
  });
  const known = new Set(criteria.map((c) => c.id));
  // Unknown criteria fall back to the defaults rather than failing the run page.
  const sort = query.itemSort && known.has(query.itemSort) ? query.itemSort : "item";
  const dir = query.itemDir ?? "asc";
  const criterion = query.itemCriterion && known.has(query.itemCriterion) ? query.itemCriterion : null;
  const min = criterion ? (query.itemMin ?? null) : null;
  const max = criterion ? (query.itemMax ?? null) : null;
  const text = (query.itemText ?? "").toLowerCase();

  const [runItems, scores] = await Promise.all([
    prisma.runItem.findMany({
      where: { runId },
      orderBy: [{ videoId: "asc" }, { position: "asc" }],
      select: {
        item: {
          select: { id: true, externalId: true, payload: true, video: { select: { id: true, fileName: true } } },
        },
      },
    }),
    prisma.score.findMany({
      where: { runId, itemId: { not: "" } },
      select: { itemId: true, category: true, value: true },
    }),
  ]);
  const hidden = await blindVideoIdsFor(prisma, access.actor.userId, [
    ...new Set(runItems.map((r) => r.item.video.id)),
  ]);
  const valueOf = new Map(scores.map((s) => [`${s.itemId}|${s.category}`, s.value]));
  const fieldsDeclared = definition.subject.kind === "item" ? definition.subject.fields : [];
  const all: RubricItemValueRow[] = runItems.map(({ item }) => {
    const blind = hidden.has(item.video.id);
    const stored = (item.payload as Partial<GenericItemPayload> | null)?.fields ?? {};
    const values = Object.fromEntries(
      criteria.map((c) => [c.id, blind ? null : (valueOf.get(`${item.id}|${rubricTargetId(key, c.id)}`) ?? null)]),
    );
    return {
      itemId: item.id,
      externalId: item.externalId,
      videoId: item.video.id,
      fileName: item.video.fileName,
      fields: fieldsDeclared.map((f) => ({
        id: f.id,
        label: f.label,
        value: typeof stored[f.id] === "string" ? stored[f.id]! : "",
      })),
      values,
      shown: Object.fromEntries(criteria.map((c) => [c.id, formatValue({ scale: scales.get(c.id)! }, values[c.id])])),
      blind,
    };
  });
  const rows = all.filter((row) => {
    if (
      text &&
      !row.externalId.toLowerCase().includes(text) &&
      !row.fields.some((f) => f.value.toLowerCase().includes(text))
    )
      return false;
    if (!criterion) return true;
    const value = row.values[criterion] ?? null;
    if (min === null && max === null) return value !== null;
    return value !== null && (min === null || value >= min) && (max === null || value <= max);
  });
  const sign = dir === "asc" ? 1 : -1;
  rows.sort((a, b) => {
    if (sort === "item") return sign * a.externalId.localeCompare(b.externalId, undefined, { numeric: true });
    const [x, y] = [a.values[sort] ?? null, b.values[sort] ?? null];
    // Items without a value go last either way.
    if (x === null || y === null) return x === y ? a.externalId.localeCompare(b.externalId) : x === null ? 1 : -1;
    return sign * (x - y) || a.externalId.localeCompare(b.externalId, undefined, { numeric: true });
  });
  return { criteria, rows, total: all.length, query: { sort, dir, criterion, min, max, text: query.itemText ?? "" } };
}
