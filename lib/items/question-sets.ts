/**
 * Question sets (video QA, seed 004): imported into a project as items attached to its videos, one per
 * question. Parsing (lib/tasks/qa/question-sets.ts) returns every question or every error, and the writing
 * happens in one transaction, so a bad file never leaves half a set behind; `dryRun` returns the same
 * answer without writing anything.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { MAX_CAPTION_SET_FILE_BYTES } from "../tasks/captions/caption-sets";
import { PayloadTooLargeError } from "../errors";
import { parseQuestionSet, questionFileFormat, type Question } from "../tasks/qa/question-sets";
import { createItems, ItemFileError, type ItemFile, type ItemSetView, nulByteErrors, sha256 } from "./item-sets";

/** A question item's payload as stored (the item's `group` is its category, "" when it has none). */
export interface QuestionPayload {
  video: string;
  question: string;
  format: Question["format"];
  options: Record<string, string> | null;
  answer: string;
  category: string | null;
  granularity: Question["granularity"];
  extra: Record<string, unknown> | null;
  line: number;
}

export interface QuestionImportSummary {
  dryRun: boolean;
  set: ItemSetView | (Omit<ItemSetView, "id" | "importedAt"> & { id: null; importedAt: null });
  items: { count: number; videos: number; byFormat: Record<string, number>; byCategory: Record<string, number>; byGranularity: Record<string, number> };
  unmatched: string[];
}

function countBy<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return counts;
}

export async function importQuestionSet(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  file: ItemFile,
  options: { name?: string; citation?: string; dryRun?: boolean } = {},
): Promise<QuestionImportSummary> {
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  if (file.bytes.byteLength > MAX_CAPTION_SET_FILE_BYTES) {
    throw new PayloadTooLargeError(`${file.fileName}: a question set file may be at most ${MAX_CAPTION_SET_FILE_BYTES / (1024 * 1024)} MiB.`);
  }
  const videos = await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } });
  const videoIdByPath = new Map(videos.map((video) => [video.relativePath, video.id]));
  const parsed = parseQuestionSet(file.bytes, videos.map((video) => video.relativePath), { format: questionFileFormat(file.fileName) ?? undefined });
  if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors, parsed.unmatchedVideos);
  const nulErrors = nulByteErrors(parsed.questions.map(({ line, question, answer, options: choices, category, video }) => ({ line, question, answer, options: choices, category, video })));
  if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);

  const set = {
    kind: "questions" as const,
    name: options.name || file.fileName,
    model: null,
    referenceSetId: null,
    fileName: file.fileName,
    sha256: sha256(file.bytes),
    itemCount: parsed.questions.length,
    citation: options.citation || null,
  };
  const items = {
    count: parsed.questions.length,
    videos: new Set(parsed.questions.map((q) => q.videoFileName)).size,
    byFormat: countBy(parsed.questions, (q) => q.format),
    byCategory: countBy(parsed.questions, (q) => q.category ?? "(none)"),
    byGranularity: countBy(parsed.questions, (q) => q.granularity ?? "(none)"),
  };
  if (options.dryRun) return { dryRun: true, set: { ...set, id: null, importedAt: null }, items, unmatched: [] };

  const stored = await prisma.$transaction(
    async (tx) => {
      const created = await tx.itemSet.create({
        data: { ...set, projectId, importedById: actor.userId },
        select: { id: true, kind: true, name: true, model: true, referenceSetId: true, fileName: true, sha256: true, itemCount: true, citation: true, importedAt: true },
      });
      await createItems(
        tx,
        parsed.questions.map((q) => ({
          projectId,
          setId: created.id,
          videoId: videoIdByPath.get(q.videoFileName)!,
          externalId: q.id,
          kind: "question",
          group: q.category ?? "",
          payload: { video: q.video, question: q.question, format: q.format, options: q.options, answer: q.answer, category: q.category, granularity: q.granularity, extra: q.extra, line: q.line } satisfies QuestionPayload as never,
        })),
      );
      return created;
    },
    { timeout: 120_000 },
  );
  return { dryRun: false, set: { ...stored, kind: "questions" }, items, unmatched: [] };
}
