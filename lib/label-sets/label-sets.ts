/**
 * Label sets: named, read-only groups of human judgments imported from a file (published benchmark
 * labels, earlier annotation rounds), with their provenance. Each annotator of a label set is a
 * reviewer `labelset:<id>[:<column>]` (label-set-reviewer.ts): agreement compares it like a reviewer,
 * while review state, the reviewers' verdict and consensus count only live reviewers, and blind
 * queues (which show a reviewer only their own judgments) never show it. Its judgments have no run.
 */
import { createHash } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { judgmentKey, type JudgmentTarget } from "../reviews/judgment-key";
import { judgmentDeclaration } from "../reviews/judgment-target";
import { disagreementGapOf, PRESENCE_TARGET_TYPE } from "../task-modules/task-declaration";
import { catalogFor, catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import type { LabelSetImportInput, LabelSetImportResult, SheetIssue } from "../task-modules/label-set-format";
import { labelSetReviewerId } from "./label-set-reviewer";
import type { LabelSetDeletedAnswer } from "./label-sets.validation";
import { parseVbenchResults } from "./vbench-results";
import { parseVideoPath } from "../import/parse-video-path";
import { type MatchableVideo, projectPathOf, type VideoMatch, videoMatcher } from "../import/video-matcher";
import { rejectNulBytesInFile } from "../validation/nul-bytes";
import {
  GenericLabelFileError,
  genericJudgmentTarget,
  genericValueViolation,
  isItemTarget,
  parseGenericLabels,
  parseWideGenericLabels,
  resolveGenericTarget,
  type GenericColumnMap,
} from "./generic-labels";

/**
 * A per-video present (1) / absent (0) label of one of a task's categories, keyed like a reviewed
 * metric (`hallucination|v:<id>|<category>`): the task's declared presence target (the queue's
 * presence-first reviews save the same key; importers build it with presenceTarget).
 */
export { PRESENCE_TARGET_TYPE };
const PRESENCE_GAP = 1;

export interface LabelJudgment {
  target: JudgmentTarget;
  value: number;
  /** The annotator column, or null when the label set is one annotator. */
  annotator: string | null;
}

export interface NewLabelSet {
  name: string;
  format: string;
  fileName: string;
  sha256: string;
  citation: string;
}

export function sha256Of(file: Uint8Array): string {
  return createHash("sha256").update(file).digest("hex");
}

function gapOf(target: JudgmentTarget, tasks: readonly TaskDeclaration[]): number {
  if (target.targetType === PRESENCE_TARGET_TYPE) return PRESENCE_GAP;
  // No task declares VBench's metrics, so no judge value is ever compared with them through a gap.
  if (target.targetType === VBENCH_METRIC_TARGET_TYPE) return 1;
  return disagreementGapOf(judgmentDeclaration(target.targetType, target.target, tasks));
}

export async function requireFreeName(prisma: PrismaClient, projectId: string, name: string) {
  if (await prisma.labelSet.findUnique({ where: { projectId_name: { projectId, name } }, select: { id: true } })) {
    throw new ConflictError(`The project already has a label set named "${name}".`);
  }
}

/** Writes a label set and its judgments in one transaction. */
export async function createLabelSet(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  set: NewLabelSet,
  judgments: readonly LabelJudgment[],
) {
  const { projectId, actor } = access;
  await requireFreeName(prisma, projectId, set.name);
  const { tasks } = await catalogFor(prisma, projectId);
  const annotators = [...new Set(judgments.flatMap((j) => (j.annotator ? [j.annotator] : [])))].sort();
  return prisma.$transaction(
    async (tx) => {
      const labelSet = await tx.labelSet.create({
        data: { projectId, ...set, importedById: actor.userId, annotators },
      });
      await tx.humanJudgment.createMany({
        data: judgments.map((j) => ({
          projectId,
          ...j.target,
          targetKey: judgmentKey(j.target),
          gap: gapOf(j.target, tasks),
          reviewerId: labelSetReviewerId(labelSet.id, j.annotator),
          value: j.value,
          labelSetId: labelSet.id,
        })),
      });
      return { ...labelSet, judgments: judgments.length };
    },
    { timeout: 60_000 },
  );
}

export async function listLabelSets(prisma: PrismaClient, access: ProjectAccess) {
  const { projectId } = access;
  const sets = await prisma.labelSet.findMany({
    where: { projectId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: { _count: { select: { judgments: true, spans: true } } },
  });
  const importers = await prisma.user.findMany({
    where: { id: { in: [...new Set(sets.map((s) => s.importedById))] } },
    select: { id: true, name: true, email: true },
  });
  return sets.map(({ _count, ...s }) => ({
    ...s,
    reviewerIds: s.annotators.length
      ? s.annotators.map((a) => labelSetReviewerId(s.id, a))
      : [labelSetReviewerId(s.id)],
    importedBy: importers.find((u) => u.id === s.importedById) ?? { id: s.importedById, name: null, email: null },
    judgments: _count.judgments,
    spans: _count.spans,
  }));
}

/** Deletes the label set and exactly its judgments (the foreign key cascades). */
export async function deleteLabelSet(prisma: PrismaClient, access: ProjectAccess<"videos.import">, labelSetId: string) {
  const { projectId } = access;
  const set = await prisma.labelSet.findFirst({ where: { id: labelSetId, projectId }, select: { id: true } });
  if (!set) throw new NotFoundError("No such label set.");
  const [{ count }] = await prisma.$transaction([
    prisma.humanJudgment.deleteMany({ where: { labelSetId } }),
    prisma.labelSet.delete({ where: { id: labelSetId } }),
  ]);
  return { deletedJudgments: count } satisfies LabelSetDeletedAnswer;
}

/**
 * Names looked up per query: each is a bind parameter (two with `fileName` or `relativePath`), and
 * PostgreSQL takes at most 32,767 in one query, so a 100,000-row sheet is matched in chunks.
 */
const MATCH_CHUNK = 5_000;

/** Runs `find` on chunks of `names`, one after another: what they found, each row once (two chunks can find one row by two columns). */
export async function inChunks<T extends { id: string }>(
  names: readonly string[],
  find: (chunk: string[]) => Promise<T[]>,
): Promise<T[]> {
  const found = new Map<string, T>();
  for (let i = 0; i < names.length; i += MATCH_CHUNK)
    for (const row of await find(names.slice(i, i + MATCH_CHUNK))) found.set(row.id, row);
  return [...found.values()];
}

// ---------- Formats of the tasks ----------

/** The importers of the catalogue's tasks' own label file formats. */
function taskLabelSetFormats(catalogue: TaskCatalogue) {
  return catalogue.modules.flatMap((task) => task.labelSetFormats ?? []);
}

/** Imports a label file of a format a task declares (`labelSetFormats` of its module); an unknown format is refused. */
export async function importTaskLabelSet(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  format: string,
  input: LabelSetImportInput,
  given?: TaskCatalogue,
): Promise<LabelSetImportResult> {
  const found = taskLabelSetFormats(await catalogueOf(prisma, access.projectId, given)).find((f) => f.id === format);
  if (!found) throw new ValidationError(`No label file format "${format}".`);
  return found.importLabels(prisma, access, input);
}

// ---------- VBench evaluation results ----------

/** The task id of VBench's metrics as judgments: no judge pipeline has it, so no run is compared with them yet. */
export const VBENCH_TASK = "vbench";
export const VBENCH_METRIC_TARGET_TYPE = "vbench_metric";
/** VBench's prompt part of a file name is cut at 180 characters. */
const VBENCH_PROMPT_CHARS = 180;

type VbenchVideo = MatchableVideo & {
  promptTruncated: string | null;
  sampleIndex: number | null;
  model: string | null;
};

/** The path-and-file-name matcher of each list of videos matchVbenchPath is asked about, built once per list. */
const vbenchMatchers = new WeakMap<readonly VbenchVideo[], (name: string) => VideoMatch<VbenchVideo>>();

/**
 * The project's video a results path names: the video whose path the results path ends with (the longest such
 * path); else the one video with its file name (lib/import/video-matcher.ts); else by VBench's name rules, the prompt
 * (cut at 180 characters) and the sample index, and the model folder when several models share them.
 */
export function matchVbenchPath(
  videos: readonly VbenchVideo[],
  resultPath: string,
): { video: VbenchVideo } | { error: string } {
  let matchVideo = vbenchMatchers.get(videos);
  if (!matchVideo) vbenchMatchers.set(videos, (matchVideo = videoMatcher(videos, { by: ["path", "file name"] })));
  const match = matchVideo(resultPath);
  if ("video" in match) return { video: match.video };
  const sameName = "ambiguous" in match ? match.ambiguous.length : 0;
  const path = projectPathOf(resultPath);
  const fileName = path.split("/").pop() ?? path;
  const parsed = parseVideoPath(path);
  if (parsed.ok && parsed.value.promptTruncated !== null && parsed.value.sampleIndex !== null) {
    const prompt = parsed.value.promptTruncated.slice(0, VBENCH_PROMPT_CHARS);
    let candidates = videos.filter(
      (v) => v.promptTruncated?.slice(0, VBENCH_PROMPT_CHARS) === prompt && v.sampleIndex === parsed.value.sampleIndex,
    );
    if (candidates.length > 1) {
      const folders = path.split("/").slice(0, -1);
      candidates = candidates.filter((v) => v.model !== null && folders.includes(v.model));
    }
    if (candidates.length === 1) return { video: candidates[0]! };
    if (candidates.length > 1 || sameName > 1)
      return {
        error: `several videos of the project match "${fileName}" (prompt and sample index): give the results' paths with the model folder`,
      };
  }
  return {
    error:
      sameName > 1
        ? `${sameName} videos of the project have the file name "${fileName}"`
        : "no video of the project matches this path, file name, or prompt and sample index",
  };
}

export interface VbenchImportInput {
  file: Uint8Array;
  fileName: string;
  name: string;
  citation?: string;
  dryRun: boolean;
}

/** Reads VBench results and plans the label set (one annotator: VBench); imports it unless `dryRun`. */
export async function importVbenchResults(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  input: VbenchImportInput,
) {
  const { projectId } = access;
  const name = input.name.trim();
  if (!name) throw new ValidationError("Name the label set.");
  await requireFreeName(prisma, projectId, name);
  const text = new TextDecoder().decode(input.file);
  rejectNulBytesInFile(text, input.fileName);
  const parsed = parseVbenchResults(text);
  const videos: VbenchVideo[] = await prisma.video.findMany({
    where: { projectId },
    select: { id: true, fileName: true, relativePath: true, promptTruncated: true, sampleIndex: true, model: true },
  });
  const issues = [...parsed.issues];
  const judgments: LabelJudgment[] = [];
  const seen = new Set<string>();
  const matched = new Set<string>();
  for (const result of parsed.results) {
    const match = matchVbenchPath(videos, result.videoPath);
    if ("error" in match) {
      issues.push({
        dimension: result.dimension,
        index: result.index,
        videoPath: result.videoPath,
        message: `${match.error}: skipped`,
      });
      continue;
    }
    const key = `${result.dimension}|${match.video.id}`;
    if (seen.has(key)) {
      issues.push({
        dimension: result.dimension,
        index: result.index,
        videoPath: result.videoPath,
        message: "an earlier entry of this dimension already gives this video's value: skipped",
      });
      continue;
    }
    seen.add(key);
    matched.add(match.video.id);
    const target: JudgmentTarget = {
      task: VBENCH_TASK,
      targetType: VBENCH_METRIC_TARGET_TYPE,
      target: result.dimension,
      videoId: match.video.id,
      itemId: "",
      stepId: "",
      scopeIndex: 0,
      frameSetId: "",
    };
    judgments.push({ target, value: result.value, annotator: null });
  }
  // Dimensions are the file's keys (`__proto__`, `constructor`…): counted in a Map, own keys of the plan.
  const byDimension = Object.fromEntries(countBy(judgments.map((j) => j.target.target)));
  const sha256 = sha256Of(input.file);
  const plan = {
    name,
    fileName: input.fileName,
    sha256,
    results: parsed.results.length,
    matchedVideos: matched.size,
    judgments: byDimension,
    aggregates: parsed.aggregates,
    issues,
  };
  if (input.dryRun) return { dryRun: true as const, plan, labelSet: null };
  if (judgments.length === 0) throw new ValidationError("Nothing to import: no result matched a video of the project.");
  const labelSet = await createLabelSet(
    prisma,
    access,
    { name, format: "vbench", fileName: input.fileName, sha256, citation: input.citation?.trim() ?? "" },
    judgments,
  );
  return { dryRun: false as const, plan, labelSet };
}

function countBy(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

// ---------- Generic CSV / JSONL ----------

export interface GenericImportInput {
  file: Uint8Array;
  fileName: string;
  name: string;
  citation?: string;
  dryRun: boolean;
  /** A wide file's column map (one column per target); absent: the long format, one label per row. */
  columns?: GenericColumnMap | undefined;
}

type LabelRow = ReturnType<typeof parseGenericLabels>["rows"][number];
type SkipRow = (row: { line: number }, column: string, cell: string, message: string) => void;

/** The label file read as UTF-8 text, long (parseGenericLabels) or wide (parseWideGenericLabels); a 400 when unreadable. */
function parseLabelFile(
  input: GenericImportInput,
  tasks: readonly TaskDeclaration[],
): ReturnType<typeof parseGenericLabels> & { records?: number } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(input.file);
    rejectNulBytesInFile(text, input.fileName);
    return input.columns
      ? parseWideGenericLabels(text, input.fileName, input.columns, tasks)
      : parseGenericLabels(text, input.fileName);
  } catch (error) {
    if (error instanceof GenericLabelFileError) throw new ValidationError(error.message);
    if (error instanceof TypeError) throw new ValidationError("The file is not UTF-8 text.");
    throw error;
  }
}

/** The item a row's label is of ("" for a label of the video), or null when the row is skipped (said through `skip`). */
function rowItemId(
  row: LabelRow,
  resolved: Exclude<ReturnType<typeof resolveGenericTarget>, { error: string }>,
  videoId: string,
  items: readonly { id: string; externalId: string; videoId: string; kind: string }[],
  skip: SkipRow,
): string | null {
  if (!isItemTarget(resolved)) {
    if (!row.item) return "";
    skip(row, "item", row.item, `${resolved.id} is a label of the video, not of an item: leave the item column empty`);
    return null;
  }
  if (!row.item) {
    skip(
      row,
      "item",
      "",
      `${resolved.task.id}:${resolved.id} belongs to a ${resolved.task.subject}: name it in the item column`,
    );
    return null;
  }
  let found = items.filter((i) => i.videoId === videoId && (i.id === row.item || i.externalId === row.item));
  // An item task's subject is the kind of item it judges (a caption task judges items of kind "caption", not their references).
  if (found.length > 1) found = found.filter((i) => i.kind === resolved.task.subject);
  if (found.length !== 1) {
    skip(
      row,
      "item",
      row.item,
      found.length
        ? `${found.length} items of this video have this id: give the item's FrameJury id`
        : `no ${resolved.task.subject} of this video has this id`,
    );
    return null;
  }
  return found[0]!.id;
}

/** What the file's rows may name: every video of the project, and the items whose id or external id a row gives. */
async function labelFileSubjects(prisma: PrismaClient, projectId: string, rows: readonly LabelRow[]) {
  const videos: VbenchVideo[] = await prisma.video.findMany({
    where: { projectId },
    select: { id: true, fileName: true, relativePath: true, promptTruncated: true, sampleIndex: true, model: true },
  });
  const itemNames = [...new Set(rows.map((r) => r.item).filter(Boolean))];
  const items = itemNames.length
    ? await inChunks(itemNames, (chunk) =>
        prisma.item.findMany({
          where: { projectId, OR: [{ id: { in: chunk } }, { externalId: { in: chunk } }] },
          select: { id: true, externalId: true, videoId: true, kind: true },
        }),
      )
    : [];
  return { videos, items };
}

/**
 * Reads a generic label file and plans the label set (one annotator per `annotator` value); imports it
 * unless `dryRun`. Every row not imported is listed with its line and why; nothing is written on a dry run.
 */
export async function importGenericLabels(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  input: GenericImportInput,
  given?: TaskCatalogue,
) {
  const { projectId } = access;
  const { tasks } = await catalogueOf(prisma, projectId, given);
  const name = input.name.trim();
  if (!name) throw new ValidationError("Name the label set.");
  await requireFreeName(prisma, projectId, name);
  const parsed = parseLabelFile(input, tasks);
  const issues: SheetIssue[] = [...parsed.issues];
  const { videos, items } = await labelFileSubjects(prisma, projectId, parsed.rows);
  const judgments: LabelJudgment[] = [];
  const seen = new Map<string, number>();
  const matched = new Set<string>();
  const byTarget = new Map<string, number>();
  // Annotators are the file's text: a Map, so `__proto__` or `toString` counts like any name.
  const annotators = new Map<string, number>();
  // A wide file's row gives several labels: its video's issue is listed once.
  const listed = new Set<string>();
  const skip = (row: { line: number }, column: string, cell: string, message: string) => {
    const key = `${row.line}\u0000${column}\u0000${message}`;
    if (listed.has(key)) return;
    listed.add(key);
    issues.push({ row: row.line, column, cell, action: "skipped", message });
  };
  for (const row of parsed.rows) {
    const resolved = resolveGenericTarget(row.target, tasks);
    if ("error" in resolved) {
      skip(row, "target", row.target, resolved.error);
      continue;
    }
    const violation = genericValueViolation(resolved, row.value);
    if (violation) {
      skip(row, row.column ?? "value", String(row.value), violation);
      continue;
    }
    const match = matchVbenchPath(videos, row.video);
    if ("error" in match) {
      skip(row, "video", row.video, match.error);
      continue;
    }
    const itemId = rowItemId(row, resolved, match.video.id, items, skip);
    if (itemId === null) continue;
    const target = genericJudgmentTarget(resolved, match.video.id, itemId);
    const key = `${row.annotator}\u0000${judgmentKey(target)}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      skip(
        row,
        row.column ?? "target",
        row.target,
        `line ${earlier} already gives ${row.annotator ? `${row.annotator}'s label` : "a label"} of this target`,
      );
      continue;
    }
    seen.set(key, row.line);
    matched.add(match.video.id);
    // A wide file without an annotator column is one annotator.
    judgments.push({ target, value: row.value, annotator: row.annotator || null });
    const label = `${resolved.task.id}:${resolved.id}`;
    byTarget.set(label, (byTarget.get(label) ?? 0) + 1);
    if (row.annotator) annotators.set(row.annotator, (annotators.get(row.annotator) ?? 0) + 1);
  }
  issues.sort((a, b) => a.row - b.row);
  const sha256 = sha256Of(input.file);
  const plan = {
    name,
    fileName: input.fileName,
    sha256,
    rows: parsed.records ?? parsed.rows.length + parsed.issues.length,
    matchedVideos: matched.size,
    judgments: Object.fromEntries(byTarget),
    annotators: Object.fromEntries(annotators),
    issues,
    headers: parsed.headers,
  };
  if (input.dryRun) return { dryRun: true as const, plan, labelSet: null };
  if (judgments.length === 0)
    throw new ValidationError("Nothing to import: no row gave a label of a declared target on a video of the project.");
  const labelSet = await createLabelSet(
    prisma,
    access,
    { name, format: "generic", fileName: input.fileName, sha256, citation: input.citation?.trim() ?? "" },
    judgments,
  );
  return { dryRun: false as const, plan, labelSet };
}
