/**
 * The queues' own types of a queue item: the targets a reviewer judges (QueueTarget), and a parsed create-queue body
 * as lib/queues reads it. The contract a task folder's queue type fulfils is the port's
 * (lib/task-modules/queue-type-module.ts).
 */
import type { z } from "zod";
import type { JudgedDeclaration } from "../reviews/judgment-target";
import type { ScoreQuestion } from "../task-modules/queue-type-module";
import type { createQueueSchema } from "./queues.validation";

/** "score" (a judge score of one of the task's targets), or the id of a reviewed per-video metric. */
export type TargetKind = string;

/** One thing a reviewer judges in a queue item. */
export interface QueueTarget {
  key: string;
  kind: TargetKind;
  label: string;
  required: boolean;
  min: number;
  max: number;
  category: string | null;
  stepId: string | null;
  scopeIndex: number | null;
  judgeValue: number | null;
  declaration: JudgedDeclaration;
  /** What the reviewer's judgment is keyed by (lib/reviews/judgment-key.ts), whichever run shows it. */
  judgmentKey: string;
  /** The score's own question and frames, when its task says what each score asked (`TaskModule.scoreQuestions`). */
  question?: ScoreQuestion | null;
}

/** A parsed create-queue body: the core's fields, and each item queue type's options under its key (`QueueTypeModule.options`). */
export type ParsedCreateQueueInput = z.output<ReturnType<typeof createQueueSchema>> & Readonly<Record<string, unknown>>;
