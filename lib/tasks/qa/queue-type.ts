import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { ValidationError } from "../../errors";
import type { QueueTypeInput, QueueTypeModule } from "../../task-modules/queue-type-module";
import { qaFilterOptions } from "./qa-questions";
import { runAnswer } from "./qa-run-questions";
import { withheldAnswerResult } from "./visible-qa-results";

/**
 * With scope "answers" (a QA run; the create-queue body's `answers`): only questions of this format / category,
 * and only the answers the judge decided unless `letters` also takes multiple-choice answers whose letter
 * FrameJury read (those need no review).
 */
const answerQueueOptions = z
  .object({
    format: z.enum(["mc", "open"]).optional(),
    category: z.string().trim().min(1).max(100).optional(),
    letters: z.boolean().default(false),
  })
  .default({ letters: false });
type AnswerQueueOptions = z.output<typeof answerQueueOptions>;

/**
 * A queue over a QA run: one item per answer of the matching videos' questions (in list order, then the run's
 * order within a video) that has a decision, by default only those the judge decided (open answers, and
 * multiple-choice answers with no single letter), optionally of one format and category.
 */
async function answerQueueItems(prisma: PrismaClient, runId: string, input: QueueTypeInput, videoIds: string[]) {
  const order = new Map(videoIds.map((id, i) => [id, i]));
  const { format, category, letters } = (input.answers ?? { letters: false }) as AnswerQueueOptions;
  const runItems = await prisma.runItem.findMany({
    where: {
      runId,
      videoId: { in: videoIds },
      item: {
        ...(category ? { group: category } : {}),
        ...(format ? { payload: { path: ["format"], equals: format } } : {}),
      },
    },
    select: { itemId: true, videoId: true, position: true },
  });
  // Only decided answers (a correctness score); unless asked, only those the judge decided.
  const decided = await prisma.runMetric.findMany({
    where: {
      runId,
      metric: "judge_decided",
      itemId: { in: runItems.map((r) => r.itemId) },
      ...(letters ? {} : { value: 1 }),
    },
    select: { itemId: true },
  });
  const scored = new Set(
    (
      await prisma.score.findMany({
        where: { runId, itemId: { in: decided.map((d) => d.itemId) } },
        distinct: ["itemId"],
        select: { itemId: true },
      })
    ).map((s) => s.itemId),
  );
  const items = runItems
    .filter((r) => scored.has(r.itemId))
    .sort((a, b) => order.get(a.videoId)! - order.get(b.videoId)! || a.position - b.position);
  if (items.length === 0)
    throw new ValidationError(
      `No ${letters ? "decided" : "judge-decided"} answer of that run matches: the queue would be empty.`,
    );
  return {
    items,
    filter: {
      ...(format ? { questionFormat: format } : {}),
      ...(category ? { questionCategory: category } : {}),
      ...(letters ? { letters: 1 } : {}),
    },
  };
}

/**
 * Review queues over QA runs (and the construction task's, whose subjects are questions too): one item per
 * decided answer. Its one target (the answer's correctness) is read like any item's scores (lib/queues/item-score-targets.ts).
 */
export const answerQueueType: QueueTypeModule = {
  id: "answers",
  reviews: "question",
  noun: "answer",
  listLabel: "QA answers",
  describeReviewing: (filter) =>
    `each answer's correctness (${filter.letters ? "every decided answer" : "the answers the judge decided"})${filter.questionFormat ? ` · format ${String(filter.questionFormat)}` : ""}${filter.questionCategory ? ` · category ${String(filter.questionCategory)}` : ""}`,
  subjectKey: "answer",
  // An answer queue has not kept the new-queue form's guidelines so far (kept as it is in this refactor).
  keepsGuidelines: false,
  items: answerQueueItems,
  subject: (prisma, queue, itemId) => runAnswer(prisma, queue.runId, itemId),
  options: { key: "answers", schema: answerQueueOptions },
  formChoices: async (prisma, access) => ({
    categories: (await qaFilterOptions(prisma, access)).categories.filter((c) => c !== "(none)"),
  }),
  withheld: (answer) => ({
    ...(answer as Awaited<ReturnType<typeof runAnswer>>)!,
    result: withheldAnswerResult((answer as NonNullable<Awaited<ReturnType<typeof runAnswer>>>).result),
  }),
};
