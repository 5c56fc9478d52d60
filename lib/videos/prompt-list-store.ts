import { z } from "zod";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../errors";
import {
  buildPromptIndex,
  parsePromptList,
  PROMPT_LIST_FORMATS_IN_WORDS,
  type PromptEntry,
} from "../import/prompt-lists";
import { insertListEntries, lockProjectPromptLists, respellWithoutList } from "./prompt-list-entries";
import { completenessFromDatabase, type PagedCompletenessReport } from "./completeness-query";
export type { PagedCompletenessReport } from "./completeness-query";
import { describeWithIndex } from "./describe-imported-video";
import type { VideoDeps } from "./register-video";
import { rejectNulBytesInFile } from "../validation/nul-bytes";

export const MAX_PROMPT_LIST_BYTES = 32 * 1024 * 1024;
/**
 * What one list may hold, and all of a project's lists together: the completeness report and every import read
 * the project's prompts, so their number bounds the time a request takes. VBench-2.0's whole suite is 1,230 entries.
 */
export const MAX_PROMPT_LIST_ENTRIES = 20_000;
export const MAX_PROJECT_PROMPT_ENTRIES = 50_000;

const count = (n: number) => n.toLocaleString("en-US");

/** A list over either maximum is refused (413) before anything is matched or stored, naming the maximum. */
async function requireRoomForList(
  prisma: VideoDeps["prisma"],
  projectId: string,
  fileName: string,
  entries: number,
): Promise<void> {
  if (entries > MAX_PROMPT_LIST_ENTRIES) {
    throw new PayloadTooLargeError(
      `${fileName}: ${count(entries)} prompts; a prompt list may hold at most ${count(MAX_PROMPT_LIST_ENTRIES)} (split it, e.g. one file per dimension).`,
      {
        limit: "MAX_PROMPT_LIST_ENTRIES",
        maximum: MAX_PROMPT_LIST_ENTRIES,
        entries,
      },
    );
  }
  const { _sum } = await prisma.promptList.aggregate({ where: { projectId }, _sum: { entryCount: true } });
  const stored = _sum.entryCount ?? 0;
  if (stored + entries > MAX_PROJECT_PROMPT_ENTRIES) {
    throw new PayloadTooLargeError(
      `${fileName}: ${count(entries)} prompts, and the project's lists already hold ${count(stored)}; together they may hold at most ${count(MAX_PROJECT_PROMPT_ENTRIES)} (delete a list first).`,
      { limit: "MAX_PROJECT_PROMPT_ENTRIES", maximum: MAX_PROJECT_PROMPT_ENTRIES, entries, stored },
    );
  }
}

/** `POST …/prompt-lists?dryRun=true`: save nothing, answer what the list would match. */
export const promptListQuerySchema = z.object({ dryRun: z.enum(["true", "false"]).default("false") });

/** JSON with every object's keys sorted, so two values jsonb may have reordered compare equal. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** How many of a kind to name in a dry run's answer; the counts are whole. */
const NAMED = 20;

/**
 * What a prompt list gives the project's videos already there: each video its name matches gets the prompt's
 * dimensions and, per dimension the video is in, the prompt's auxiliary info (VBench-2.0's `auxiliary_info`); and
 * what matches nothing: the list's prompts no video has (per dimension) and the videos no prompt names.
 */
async function matchExistingVideos(prisma: VideoDeps["prisma"], projectId: string, entries: readonly PromptEntry[]) {
  const index = buildPromptIndex(entries);
  const byPrompt = new Map(index.entries.map((entry) => [entry.prompt, entry]));
  const videos = await prisma.video.findMany({
    where: { projectId },
    orderBy: { relativePath: "asc" },
    select: { id: true, relativePath: true, dimensions: true, auxiliaryInfo: true },
  });
  const updates: { id: string; dimensions: string[]; info: Record<string, unknown> }[] = [];
  const found = new Set<string>();
  const unmatchedVideos: string[] = [];
  const listDimensions = new Set(index.entries.flatMap((entry) => entry.dimensions));
  let matchedVideos = 0;
  for (const video of videos) {
    const described = describeWithIndex(video.relativePath, { promptIndex: index });
    const entry =
      described.ok && described.value.matchedPromptList && described.value.prompt
        ? byPrompt.get(described.value.prompt)
        : undefined;
    if (!entry || !described.ok) {
      // One dimension's list (meta_info/Material.json) says nothing of another dimension's videos.
      if (video.dimensions.length === 0 || video.dimensions.some((d) => listDimensions.has(d)))
        unmatchedVideos.push(video.relativePath);
      continue;
    }
    matchedVideos += 1;
    const dimensions = [...new Set([...video.dimensions, ...described.value.dimensions])];
    for (const dimension of dimensions) found.add(`${dimension}\u0000${entry.prompt}`);
    const info = Object.fromEntries(
      Object.entries(entry.auxiliaryInfo ?? {}).filter(([dimension]) => dimensions.includes(dimension)),
    );
    const had = new Map(Object.entries((video.auxiliaryInfo ?? {}) as Record<string, unknown>));
    // jsonb stores an object's keys in its own order: compared key-order-free, a list stored again changes nothing.
    const changed =
      dimensions.length !== video.dimensions.length ||
      Object.entries(info).some(([dimension, value]) => canonicalJson(had.get(dimension)) !== canonicalJson(value));
    if (changed) updates.push({ id: video.id, dimensions, info });
  }
  // Dimensions are the file's text (`__proto__`, `constructor`…): tallied in a Map, made an object's own keys at the end.
  const unmatchedPrompts = new Map<string, { count: number; first: string[] }>();
  const foundPrompts = new Set([...found].map((key) => key.slice(key.indexOf("\u0000") + 1)));
  for (const entry of index.entries) {
    for (const dimension of entry.dimensions.length ? entry.dimensions : [""]) {
      if (found.has(`${dimension}\u0000${entry.prompt}`) || (dimension === "" && foundPrompts.has(entry.prompt)))
        continue;
      const name = dimension || "(no dimension)";
      const slot = unmatchedPrompts.get(name) ?? { count: 0, first: [] };
      unmatchedPrompts.set(name, slot);
      slot.count += 1;
      if (slot.first.length < NAMED) slot.first.push(entry.prompt);
    }
  }
  return {
    matchedVideos,
    updates,
    unmatchedPrompts: {
      count: [...unmatchedPrompts.values()].reduce((sum, d) => sum + d.count, 0),
      byDimension: Object.fromEntries(unmatchedPrompts),
    },
    unmatchedVideos: { count: unmatchedVideos.length, first: unmatchedVideos.slice(0, NAMED) },
  };
}

/** What storing a prompt list (or its dry run) answers: the list and what it matches among the project's videos. */
export interface PromptListReport {
  dryRun: boolean;
  id: string | null;
  name: string;
  format: string;
  entryCount: number;
  withAuxiliaryInfo: number;
  matchedVideos: number;
  videosUpdated: number;
  unmatchedPrompts: { count: number; byDimension: Record<string, { count: number; first: string[] }> };
  unmatchedVideos: { count: number; first: string[] };
  /** Set when the project already has a list of this name and content: that list's id, and nothing was stored. */
  duplicateOf?: string;
}

/** An entry as insertListEntries stores it, in a form two lists compare by (auxiliary info key-order-free). */
function storedForm(
  entries: readonly { prompt: string; dimensions: readonly string[]; auxiliaryInfo?: unknown }[],
): string[] {
  return entries.flatMap((entry) => {
    const prompt = entry.prompt.trim();
    return prompt === "" ? [] : [canonicalJson([prompt, [...new Set(entry.dimensions)], entry.auxiliaryInfo ?? null])];
  });
}

/**
 * The project's list with this name, format and the same entries in the same order, if there is one: an import run
 * again on the same folder finds its lists there and stores none again.
 */
async function sameStoredList(
  db: Pick<VideoDeps["prisma"], "promptList">,
  projectId: string,
  name: string,
  format: string,
  entries: readonly PromptEntry[],
) {
  const candidates = await db.promptList.findMany({
    where: { projectId, name, format, entryCount: entries.length },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true },
  });
  if (candidates.length === 0) return null;
  const wanted = storedForm(entries);
  for (const candidate of candidates) {
    const stored = await db.promptList.findUnique({
      where: { id: candidate.id },
      select: {
        entries: { orderBy: { position: "asc" }, select: { prompt: true, dimensions: true, auxiliaryInfo: true } },
      },
    });
    const have = storedForm(stored?.entries ?? []);
    if (have.length === wanted.length && have.every((entry, i) => entry === wanted[i])) return candidate;
  }
  return null;
}

/**
 * Stores a prompt list (any supported format): videos imported later get their prompts, dimensions and auxiliary
 * info from it, and the project's videos already there get the dimensions and auxiliary info it gives them, in the
 * same transaction. `dryRun` saves nothing and answers the same, with what matched nothing. A list whose name and
 * content equal one the project has is not stored again: the answer is that list's, with `duplicateOf` its id.
 */
export async function savePromptList(
  deps: VideoDeps,
  access: ProjectAccess<"videos.import">,
  fileName: string,
  content: string,
  options: { dryRun?: boolean } = {},
): Promise<PromptListReport> {
  const { actor, projectId } = access;
  rejectNulBytesInFile(content, fileName);
  const parsed = parsePromptList(fileName, content);
  if (!parsed.ok) throw new ValidationError(`${fileName}: ${parsed.error}`);
  if (parsed.entries.length === 0)
    throw new ValidationError(`${fileName}: no prompts found (${PROMPT_LIST_FORMATS_IN_WORDS}).`);
  const name = fileName.slice(0, 300);
  // Checked before the room: a list already stored takes none, even at the project's maximum.
  const already = await sameStoredList(deps.prisma, projectId, name, parsed.format, parsed.entries);
  if (!already) await requireRoomForList(deps.prisma, projectId, fileName, parsed.entries.length);
  const matched = await matchExistingVideos(deps.prisma, projectId, parsed.entries);
  const report = {
    format: parsed.format,
    entryCount: parsed.entries.length,
    withAuxiliaryInfo: parsed.entries.filter((entry) => entry.auxiliaryInfo).length,
    matchedVideos: matched.matchedVideos,
    videosUpdated: matched.updates.length,
    unmatchedPrompts: matched.unmatchedPrompts,
    unmatchedVideos: matched.unmatchedVideos,
  };
  if (options.dryRun)
    return { dryRun: true as const, id: null, name, ...report, ...(already ? { duplicateOf: already.id } : {}) };
  const list = await deps.prisma.$transaction(async (tx) => {
    await lockProjectPromptLists(tx, projectId);
    // Again under the lock: two imports of one folder at once store the list once.
    const same = already ?? (await sameStoredList(tx, projectId, name, parsed.format, parsed.entries));
    const created =
      same ??
      (await tx.promptList.create({
        data: { projectId, name, format: parsed.format, entryCount: parsed.entries.length, createdById: actor.userId },
      }));
    if (!same) await insertListEntries(tx, projectId, created.id, parsed.entries);
    // One statement for every matched video: a VBench suite matches thousands.
    if (matched.updates.length) {
      await tx.$executeRaw`
        UPDATE video AS v SET dimensions = u.dimensions, "auxiliaryInfo" = v."auxiliaryInfo" || u.info, "updatedAt" = now()
        FROM jsonb_to_recordset(${JSON.stringify(matched.updates)}::jsonb) AS u(id text, dimensions text[], info jsonb)
        WHERE v.id = u.id AND v."projectId" = ${projectId}`;
    }
    return { ...created, duplicate: same !== null };
  });
  if (list.duplicate) return { dryRun: false as const, id: list.id, name: list.name, ...report, duplicateOf: list.id };
  // The entry tables vacuumed and their statistics fresh from the first report on, not when autovacuum comes by: the
  // report counts and pages prompts by index-only scans, which read the table itself for pages not yet all-visible,
  // and plans its lookups by the statistics (a list adds up to 20,000 rows). Outside the transaction, as VACUUM must be.
  await deps.prisma.$executeRaw`VACUUM (ANALYZE) prompt_list_entry, prompt_list_entry_dimension`;
  return { dryRun: false as const, id: list.id, name: list.name, ...report };
}

export async function listPromptLists(deps: VideoDeps, access: ProjectAccess) {
  const { projectId } = access;
  return deps.prisma.promptList.findMany({
    where: { projectId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, format: true, entryCount: true, createdAt: true },
  });
}

/**
 * Deletes a prompt list (owners). Videos keep the prompts, dimensions and auxiliary info it gave them; imports and
 * the completeness report stop reading it.
 */
export async function deletePromptList(deps: VideoDeps, access: ProjectAccess<"videos.import">, promptListId: string) {
  const { projectId } = access;
  const deleted = await deps.prisma.$transaction(async (tx) => {
    await lockProjectPromptLists(tx, projectId);
    await respellWithoutList(tx, projectId, promptListId);
    return (await tx.promptList.deleteMany({ where: { id: promptListId, projectId } })).count;
  });
  if (deleted === 0) throw new NotFoundError("No such prompt list.");
  return { deleted: promptListId };
}

/**
 * `GET …/completeness?page=&pageSize=&model=`: the report's counts are whole; its lists (missing, unexpected, unmatched)
 * come a page at a time; `model` narrows it to one generator, `noModel=true` to the videos with none (an empty query
 * value reads as absent, so "no generator" has its own parameter).
 */
export const completenessQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(1000).default(100),
    model: z.string().min(1).max(300).optional(),
    noModel: z.enum(["true", "false"]).optional(),
  })
  .refine((q) => !(q.model !== undefined && q.noModel === "true"), {
    message: "Give model or noModel=true, not both.",
    path: ["noModel"],
  });
export type CompletenessQuery = z.output<typeof completenessQuerySchema>;

/**
 * Which samples of each dimension's prompts the project's videos hold, computed in the database
 * (completeness-query.ts). Any member may read it, so the answer is bounded: counts whole, lists a page at a time.
 */
export async function projectCompleteness(
  deps: VideoDeps,
  access: ProjectAccess,
  query: CompletenessQuery = completenessQuerySchema.parse({}),
): Promise<PagedCompletenessReport> {
  const { projectId } = access;
  const model = query.noModel === "true" ? "" : query.model;
  return completenessFromDatabase(deps.prisma, projectId, { page: query.page, pageSize: query.pageSize, model });
}
