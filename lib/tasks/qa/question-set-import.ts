/**
 * Question sets (video QA, seed 004): imported into a project as items attached to its videos, one per
 * question. Parsing (question-sets.ts) returns every question or every error; the core
 * (lib/items/item-set-import.ts) writes the set in one transaction, so a bad file never leaves half a set
 * behind; `dryRun` returns the same answer without writing anything.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { countBy, importItemSetOfKind, ItemFileError, nulByteErrors, type ItemFile } from "../../items/item-set-import";
import type { ItemSetImportOptions, ItemSetKind } from "../../task-modules/item-set-kind";
import { parseQuestionSet, questionFileFormat, type Question } from "./question-sets";

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

interface QuestionSetSummary {
  items: {
    count: number;
    videos: number;
    byFormat: Record<string, number>;
    byCategory: Record<string, number>;
    byGranularity: Record<string, number>;
  };
  unmatched: string[];
}

/** A question set: JSONL, a JSON array or CSV, one question per record. */
export const questionSetKind: ItemSetKind<ItemSetImportOptions, QuestionSetSummary> = {
  id: "questions",
  noun: "question set",
  defaultFileName: "questions.jsonl",
  uniformFrames: { itemKind: "question", itemsNoun: "questions", atPlannedSize: true, runsNoun: "QA runs" },
  async plan({ file, options, videos }) {
    const videoIdByPath = new Map(videos.map((video) => [video.relativePath, video.id]));
    const parsed = parseQuestionSet(
      file.bytes,
      videos.map((video) => video.relativePath),
      { format: questionFileFormat(file.fileName) ?? undefined },
    );
    if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors, parsed.unmatchedVideos);
    const nulErrors = nulByteErrors(
      parsed.questions.map(({ line, question, answer, options: choices, category, video }) => ({
        line,
        question,
        answer,
        options: choices,
        category,
        video,
      })),
    );
    if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);
    return {
      set: {
        name: options.name || file.fileName,
        model: null,
        referenceSetId: null,
        citation: options.citation || null,
      },
      items: parsed.questions.map((q) => ({
        videoId: videoIdByPath.get(q.videoFileName)!,
        externalId: q.id,
        kind: "question",
        group: q.category ?? "",
        payload: {
          video: q.video,
          question: q.question,
          format: q.format,
          options: q.options,
          answer: q.answer,
          category: q.category,
          granularity: q.granularity,
          extra: q.extra,
          line: q.line,
        } satisfies QuestionPayload as never,
      })),
      summary: {
        items: {
          count: parsed.questions.length,
          videos: new Set(parsed.questions.map((q) => q.videoFileName)).size,
          byFormat: countBy(parsed.questions, (q) => q.format),
          byCategory: countBy(parsed.questions, (q) => q.category ?? "(none)"),
          byGranularity: countBy(parsed.questions, (q) => q.granularity ?? "(none)"),
        },
        unmatched: [],
      },
    };
  },
};

export function importQuestionSet(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  file: ItemFile,
  options: ItemSetImportOptions = {},
) {
  return importItemSetOfKind(prisma, access, questionSetKind, file, options);
}
