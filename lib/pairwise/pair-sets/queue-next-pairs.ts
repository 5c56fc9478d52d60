import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ValidationError } from "../../errors";
import { recordIdSchema } from "../../validation/ids";
import { createPairSet } from "./create-pair-set";
import { createPairSetSchema, type CreatePairSetAnswer } from "./create-pair-set.types";
import { aspectsOf, findPairSet } from "./pair-sets";

/** POST /api/v1/pair-sets/{pairSetId}/next-queue: the pairs (of this set) to put before people next. */
export const queueNextPairsSchema = z.object({ pairIds: z.array(recordIdSchema).min(1).max(10_000) }).strict();
export type QueueNextPairsInput = z.infer<typeof queueNextPairsSchema>;

/**
 * A queue of the active plan's next pairs for people: a pair set of those pairs alone (design `explicit`), with the
 * set's aspects, reviewers per pair, blindness, guidelines, assignees and cap, so reviewers work it as any set and its
 * verdicts rank and agree on their own board. A pair of another set, or whose video was deleted, is refused by name.
 */
export async function queueNextPairs(
  prisma: PrismaClient,
  access: ProjectAccess<"pairs.manage">,
  pairSetId: string,
  input: QueueNextPairsInput,
): Promise<CreatePairSetAnswer> {
  const set = await findPairSet(prisma, access, pairSetId);
  const ids = [...new Set(input.pairIds)];
  const pairs = await prisma.pair.findMany({
    where: { pairSetId: set.id, id: { in: ids } },
    orderBy: { position: "asc" },
    select: { id: true, videoAId: true, videoBId: true, honeypot: true },
  });
  const found = new Set(pairs.map((pair) => pair.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new ValidationError(`Not pairs of this set: ${missing.slice(0, 5).join(", ")}.`);
  const unplayable = pairs.filter((pair) => pair.videoAId === null || pair.videoBId === null || pair.honeypot !== null);
  if (unplayable.length)
    throw new ValidationError(
      `These pairs cannot be queued again (a video was deleted, or a honeypot): ${unplayable
        .slice(0, 5)
        .map((pair) => pair.id)
        .join(", ")}.`,
    );
  const at = new Date().toISOString().slice(0, 16).replace("T", " ");
  return createPairSet(
    prisma,
    access,
    createPairSetSchema.parse({
      name: `${set.name} · next ${pairs.length} (${at})`.slice(0, 200),
      aspects: aspectsOf(set.aspects),
      design: "explicit",
      pairs: pairs.map((pair) => ({ videoAId: pair.videoAId!, videoBId: pair.videoBId! })),
      crossPrompt: set.crossPrompt,
      reviewersPerPair: set.reviewersPerPair,
      assigneeIds: set.assigneeIds,
      blind: set.blind,
      guidelines: set.guidelines,
      votesPerPromptCap: set.votesPerPromptCap,
    }),
  );
}
