import type { z } from "zod";
import type { ProjectAccess } from "../../authz/permissions";
import { isPrismaError, UNIQUE_VIOLATION } from "../../db/prisma-errors";
import { NotFoundError, ValidationError } from "../../errors";
import type { PairVerdict, PrismaClient } from "../../generated/prisma/client";
import type { RaterKind, Verdict } from "../verdicts";
import type { Aspect } from "../aspects";
import {
  type DisagreementListAnswer,
  disagreementsQuerySchema,
  type GoldVerdictAnswer,
  GoldVersionConflictError,
  type SetGoldVerdictInput,
} from "./gold.types";
import { aspectsOf, findPairSet } from "./pair-sets";

/** The rater id (and kind) of gold verdicts: one per pair and aspect. */
export const GOLD_RATER_ID = "gold";
const PEOPLE: RaterKind[] = ["reviewer", "label_set"];

function goldAnswer(row: PairVerdict): GoldVerdictAnswer {
  return {
    id: row.id,
    pairId: row.pairId,
    aspect: row.aspect,
    verdict: row.verdict as Verdict,
    strength: row.strength,
    note: row.note,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const currentOf = (row: PairVerdict) => ({
  version: row.version,
  verdict: row.verdict,
  strength: row.strength,
  note: row.note,
});

/** The pair (in the caller's project) and the checked aspect: an aspect the set does not ask, or a strength its levels do not have, is refused. */
async function checkedTarget(prisma: PrismaClient, access: ProjectAccess, input: SetGoldVerdictInput) {
  const pair = await prisma.pair.findFirst({
    where: { id: input.pairId, projectId: access.projectId },
    include: { pairSet: { select: { aspects: true } } },
  });
  if (!pair) throw new NotFoundError("No such pair.");
  const aspect = aspectsOf(pair.pairSet.aspects).find((a) => a.id === input.aspect);
  if (!aspect)
    throw new ValidationError(`unknown aspect ${JSON.stringify(input.aspect)}: this pair set does not ask it.`);
  if (input.strength === 2 && (aspect.levels !== 5 || input.verdict === "tie_good" || input.verdict === "tie_bad"))
    throw new ValidationError("strength 2 (A>>B) is for A or B on an aspect of five levels only.");
  return pair;
}

/**
 * Sets the gold verdict of one aspect of a pair (adjudicators): the "gold" rater's row, created on the first save
 * and changed only by a save naming its current version (else 409 with the current one), each change written to its
 * history with the adjudicator as its author.
 */
export async function setGoldVerdict(
  prisma: PrismaClient,
  access: ProjectAccess<"gold.set">,
  input: SetGoldVerdictInput,
): Promise<GoldVerdictAnswer> {
  const pair = await checkedTarget(prisma, access, input);
  const key = { pairId: pair.id, aspect: input.aspect, raterId: GOLD_RATER_ID };
  const value = { verdict: input.verdict, strength: input.strength, note: input.note, withdrawn: false };
  try {
    return await prisma.$transaction(async (tx) => {
      const current = await tx.pairVerdict.findUnique({ where: { pairId_aspect_raterId: key } });
      if (current && input.version === undefined)
        throw new GoldVersionConflictError(currentOf(current), "missing_version");
      if (!current && input.version !== undefined)
        throw new NotFoundError("This pair has no gold verdict on this aspect to change; send no version to set one.");
      let saved: PairVerdict;
      if (!current) {
        saved = await tx.pairVerdict.create({
          data: { ...key, ...value, projectId: pair.projectId, pairSetId: pair.pairSetId, raterKind: "gold" },
        });
      } else {
        const { count } = await tx.pairVerdict.updateMany({
          where: { id: current.id, version: input.version },
          data: { ...value, version: { increment: 1 } },
        });
        const after = await tx.pairVerdict.findUniqueOrThrow({ where: { id: current.id } });
        if (count === 0) throw new GoldVersionConflictError(currentOf(after), "stale_version");
        saved = after;
      }
      await tx.pairVerdictHistory.create({
        data: {
          verdictId: saved.id,
          changedBy: access.actor.userId,
          version: saved.version,
          before: current ? { ...currentOf(current), withdrawn: current.withdrawn } : undefined,
          after: { ...currentOf(saved), withdrawn: false },
        },
      });
      return goldAnswer(saved);
    });
  } catch (error) {
    if (!isPrismaError(error, UNIQUE_VIOLATION)) throw error;
    // Two first saves raced: the other one's row is the current verdict.
    const current = await prisma.pairVerdict.findUniqueOrThrow({ where: { pairId_aspect_raterId: key } });
    throw new GoldVersionConflictError(currentOf(current), "missing_version");
  }
}

/**
 * A page of the set's pairs on which people (reviewers, label-set annotators) gave different verdicts on the aspect,
 * in position order, with their verdicts and the gold one if set: what adjudication works through.
 */
export async function listDisagreements(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
  query: z.output<typeof disagreementsQuerySchema>,
): Promise<DisagreementListAnswer> {
  const set = await findPairSet(prisma, access, pairSetId);
  if (!aspectsOf(set.aspects).some((a) => a.id === query.aspect))
    throw new ValidationError(`unknown aspect ${JSON.stringify(query.aspect)}: this pair set does not ask it.`);
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM pair p
    JOIN (
      SELECT "pairId" FROM pair_verdict
      WHERE "pairSetId" = ${set.id} AND aspect = ${query.aspect} AND NOT withdrawn
        AND "raterKind" IN ('reviewer', 'label_set')
      GROUP BY "pairId" HAVING count(DISTINCT verdict) > 1
    ) d ON d."pairId" = p.id
    WHERE p.position > ${query.after}
    ORDER BY p.position
    LIMIT ${query.limit + 1}`;
  const ids = rows.slice(0, query.limit).map((row) => row.id);
  const pairs = await prisma.pair.findMany({
    where: { id: { in: ids } },
    orderBy: { position: "asc" },
    include: {
      verdicts: {
        where: { aspect: query.aspect, withdrawn: false, raterKind: { in: [...PEOPLE, "gold"] } },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
    },
  });
  return {
    disagreements: pairs.map((pair) => ({
      pairId: pair.id,
      position: pair.position,
      prompt: pair.prompt,
      generatorA: pair.generatorA,
      generatorB: pair.generatorB,
      verdicts: pair.verdicts
        .filter((v) => v.raterKind !== "gold")
        .map((v) => ({
          raterId: v.raterId,
          raterKind: v.raterKind as RaterKind,
          verdict: v.verdict as Verdict,
          strength: v.strength,
          aShownOn: v.aShownOn === "left" || v.aShownOn === "right" ? v.aShownOn : null,
        })),
      gold: pair.verdicts.filter((v) => v.raterKind === "gold").map(goldAnswer)[0] ?? null,
    })),
    nextAfter: rows.length > query.limit ? pairs[pairs.length - 1]!.position : null,
  };
}

/**
 * The adjudication page's data: the set's aspects, the one shown (the first when none is asked) and a page of its
 * disagreements after `after` (a position; the start when absent). An aspect the set does not ask is a 400.
 */
export async function pairDisagreements(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
  query: { aspect?: string; after?: string },
): Promise<DisagreementListAnswer & { pairSet: { id: string; name: string }; aspects: Aspect[]; aspect: string }> {
  const set = await findPairSet(prisma, access, pairSetId);
  const aspects = aspectsOf(set.aspects);
  const parsed = disagreementsQuerySchema.parse({
    aspect: query.aspect || aspects[0]!.id,
    after: query.after || undefined,
    limit: 50,
  });
  const page = await listDisagreements(prisma, access, set.id, parsed);
  return { ...page, pairSet: { id: set.id, name: set.name }, aspects, aspect: parsed.aspect };
}
