/**
 * The port's contract for a queue type a task folder adds (QueueTypeModule), and what one judge score asked
 * (ScoreQuestion, which a task module gives the queues). It imports no runtime module of the core and no queue code,
 * so the contracts and lib/queues never import each other in a circle.
 */
import type { z } from "zod";
import type { ProjectAccess } from "../authz/permissions";
import type { PrismaClient, ReviewQueue } from "../generated/prisma/client";
import type { SubjectKind } from "./task-declaration";

/**
 * What one judge score of a video asked, in the run that gave it: VBench-2.0's "Initially, is the color of the river
 * mostly blue?" for `dynamic_attribute:q1`. A reviewer answers that question, about these frames.
 */
export interface ScoreQuestion {
  /** The question in the words the judge was asked (an expected plot or order included). */
  text: string;
  /** The frames (indexes in the run's frame set) the question was asked with; empty: the video as a whole. */
  frameIndexes: number[];
  /** How the frames stand to the question, when not simply "asked with these frames" (a text judge read a description of them). */
  framesNote: string | null;
}

/**
 * A parsed create-queue body as an item queue type reads it: the core's fields (lib/queues/queue-type.ts
 * ParsedCreateQueueInput), and each item queue type's options under its key (`QueueTypeModule.options`), which the scope
 * reads as `input[key]`.
 */
export type QueueTypeInput = Readonly<Record<string, unknown>>;

/**
 * A queue type a task folder adds beside the core's "verdict" and "scores" (which review videos): its runs'
 * subjects are items (a caption, a question's answer), and its queues hold one item each. The folder's module
 * lists it in `queueTypes`; lib/queues reads it through lib/queues/queue-types.ts, never by name.
 */
export interface QueueTypeModule {
  /** As a queue stores it in `scope`. */
  id: string;
  /** The one project whose runs it reviews (a task a project defined as data, lib/rubrics); any project's when absent. */
  projectId?: string;
  /** The subject kind of the runs this scope reviews (a run of that kind is reviewed only in this scope). */
  reviews: SubjectKind;
  /** One item, in messages ("caption"). */
  noun: string;
  /** What the queues page says the queue reviews, in the plural (say, the items of a kind). */
  listLabel: string;
  /** What the queue page's "Reviewing" line says, from the queue's stored filter. */
  describeReviewing(filter: Record<string, unknown>): string;
  /** The key of the item payload (`getQueueItem`) that carries what the item shows beside its targets; null in other queues. */
  subjectKey: string;
  /** Whether a new queue keeps the form's guidelines. */
  keepsGuidelines: boolean;
  /**
   * The queue's items of the matching videos (in the videos' order, then the run's order within a video) and
   * what the queue's filter records of the choice; a ValidationError when none matches.
   */
  items(
    prisma: PrismaClient,
    runId: string,
    input: QueueTypeInput,
    videoIds: string[],
  ): Promise<{ items: { itemId: string; videoId: string }[]; filter: Record<string, unknown> }>;
  /**
   * A reviewer judges an item's reviewable scores in the run (lib/queues/item-score-targets.ts); an indexed
   * target (`<id><n>`, a caption's key point n) is labelled with the n-th of these texts of the item.
   */
  indexedTexts?(prisma: PrismaClient, itemId: string): Promise<string[]>;
  /** What the item shows beside its targets (null: nothing). */
  subject(prisma: PrismaClient, queue: ReviewQueue, itemId: string): Promise<unknown>;
  /** The subject as a reviewer blind to the judge sees it (default: as it is). */
  withheld?(subject: unknown): unknown;
  /**
   * The scope's own narrowing of its items in the create-queue body (say, only one model's items): the body's key
   * (kept as the API has always named it) and its schema, with defaults for an omitted key. `items` reads the
   * parsed value as `input[key]`.
   */
  options?: { key: string; schema: z.ZodType };
  /** What the new-queue form offers for those options (say, the project's models), loaded for a member who may view the project. */
  formChoices?(prisma: PrismaClient, access: ProjectAccess): Promise<unknown>;
}
