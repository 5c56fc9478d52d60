import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { Strength, Verdict } from "../verdicts";

/**
 * A judge run's verdict on one aspect of a pair (the reconciled orders of a run that asks, or the majority of an
 * ensemble's members), written again whenever it is worked out again: a retried job or a second worker upserts it.
 */
export async function upsertRunVerdict(
  db: PrismaClient | Prisma.TransactionClient,
  question: { runId: string; projectId: string; pairSetId: string; pairId: string; aspect: string },
  values: { verdict: Verdict; strength: Strength; note: string },
): Promise<void> {
  const raterId = `run:${question.runId}`;
  await db.pairVerdict.upsert({
    where: { pairId_aspect_raterId: { pairId: question.pairId, aspect: question.aspect, raterId } },
    create: { ...values, ...question, raterKind: "judge", raterId },
    update: values,
  });
}
