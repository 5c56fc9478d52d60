import type { PairSet, Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { AppError, NotFoundError, ValidationError } from "../../errors";
import type { Aspect } from "../aspects";
import { assertMayReview, aspectsOf, pairSetInProject } from "./review-access";
import { reviewProgress, reviewVerdictOf } from "./pair-view";
import {
  savePairVerdictsSchema,
  type PairVerdictInput,
  type SavePairVerdictsInput,
  type SavePairVerdictsResponse,
} from "./review.types";

/** The reviewer saves on a pair they hold no claim on (never claimed, or released). */
export class NotHeldError extends AppError {
  constructor() {
    super(409, "not_held", "You do not hold this pair: claim it (next pair) before saving verdicts on it.");
  }
}

/** A save names a version older than the one saved since (another tab, another device). */
export class StaleVerdictError extends AppError {
  constructor(aspect: string, current: number) {
    super(409, "conflict", `The verdict on ${aspect} changed since you loaded it (now version ${current}).`, {
      aspect,
      version: current,
    });
  }
}

/** Checks each verdict against the set's aspects: unknown aspect, a repeated one, or strength where none is asked. */
function checkedVerdicts(aspects: Aspect[], verdicts: PairVerdictInput[]): PairVerdictInput[] {
  const byId = new Map(aspects.map((aspect) => [aspect.id, aspect]));
  const seen = new Set<string>();
  for (const given of verdicts) {
    const aspect = byId.get(given.aspect);
    if (!aspect) throw new ValidationError(`Unknown aspect "${given.aspect}" for this pair set.`);
    if (seen.has(given.aspect)) throw new ValidationError(`The aspect ${given.aspect} is given twice.`);
    seen.add(given.aspect);
    if (given.strength === 2 && aspect.levels !== 5)
      throw new ValidationError(`${aspect.label} has four levels: a strong preference is not one of them.`);
    if (given.strength === 2 && (given.verdict === "tie_good" || given.verdict === "tie_bad" || !given.verdict))
      throw new ValidationError(`${aspect.label}: only a preference for A or B can be strong.`);
  }
  return verdicts;
}

interface WriteContext {
  tx: Prisma.TransactionClient;
  set: PairSet;
  pairId: string;
  me: string;
  aShownOn: string;
  msToVerdict?: number;
  note?: string;
}

/**
 * One aspect's verdict, under a lock on (pair, rater): the version check, then an upsert on the unique key and a
 * history row when something changed. Withdrawing keeps the row (withdrawn) so its history stays with it.
 */
async function writeVerdict(ctx: WriteContext, given: PairVerdictInput): Promise<void> {
  const { tx, set, pairId, me } = ctx;
  const key = { pairId_aspect_raterId: { pairId, aspect: given.aspect, raterId: me } };
  const existing = await tx.pairVerdict.findUnique({ where: key });
  if (existing && given.version !== undefined && given.version !== existing.version)
    throw new StaleVerdictError(given.aspect, existing.version);
  if (!existing && given.verdict === null) return;
  const strength = given.strength ?? 1;
  const note = ctx.note ?? existing?.note ?? "";
  const after = { verdict: given.verdict ?? existing?.verdict, strength, withdrawn: given.verdict === null, note };
  if (
    existing &&
    existing.withdrawn === after.withdrawn &&
    (after.withdrawn || (existing.verdict === after.verdict && existing.strength === strength)) &&
    existing.note === note
  )
    return;
  const saved = await tx.pairVerdict.upsert({
    where: key,
    create: {
      projectId: set.projectId,
      pairSetId: set.id,
      pairId,
      aspect: given.aspect,
      raterKind: "reviewer",
      raterId: me,
      verdict: after.verdict!,
      strength,
      aShownOn: ctx.aShownOn,
      msToVerdict: ctx.msToVerdict ?? null,
      note,
    },
    update: {
      verdict: after.verdict,
      strength,
      withdrawn: after.withdrawn,
      note,
      aShownOn: ctx.aShownOn,
      version: { increment: 1 },
    },
  });
  const before = existing
    ? { verdict: existing.verdict, strength: existing.strength, withdrawn: existing.withdrawn, note: existing.note }
    : undefined;
  await tx.pairVerdictHistory.create({
    data: { verdictId: saved.id, changedBy: me, version: saved.version, before, after },
  });
}

/** The aspects that, after this save, still hold no live verdict (a submit needs none). */
async function missingAspects(tx: Prisma.TransactionClient, aspects: Aspect[], pairId: string, me: string) {
  const live = await tx.pairVerdict.findMany({
    where: { pairId, raterId: me, withdrawn: false },
    select: { aspect: true },
  });
  const have = new Set(live.map((row) => row.aspect));
  return aspects.filter((aspect) => !have.has(aspect.id));
}

/**
 * Saves the reviewer's verdicts on a pair they hold, in the pair's A/B terms, all or nothing. The side A was shown on
 * comes from the claim. With `submit`, every aspect must then hold a verdict; the claim is marked done and the pair's
 * doneCount bumped once (a second submit finds the claim done and counts nothing).
 */
export async function savePairVerdicts(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  pairSetId: string,
  raw: SavePairVerdictsInput,
): Promise<SavePairVerdictsResponse> {
  const input = savePairVerdictsSchema.parse(raw);
  const me = access.actor.userId;
  const set = await pairSetInProject(prisma, access, pairSetId);
  assertMayReview(set, me);
  const pair = await prisma.pair.findFirst({ where: { id: input.pairId, pairSetId: set.id }, select: { id: true } });
  if (!pair) throw new NotFoundError("No such pair in this set.");
  const aspects = aspectsOf(set);
  const verdicts = checkedVerdicts(aspects, input.verdicts);
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`pair_verdicts:${pair.id}:${me}`}, 0))`;
      const claim = await tx.pairAssignment.findUnique({
        where: { pairId_reviewerId: { pairId: pair.id, reviewerId: me } },
      });
      if (!claim) throw new NotHeldError();
      const ctx: WriteContext = {
        tx,
        set,
        pairId: pair.id,
        me,
        aShownOn: claim.aShownOn,
        msToVerdict: input.msToVerdict,
        note: input.note,
      };
      for (const given of verdicts) await writeVerdict(ctx, given);
      let status = claim.status;
      if (input.submit) {
        const missing = await missingAspects(tx, aspects, pair.id, me);
        if (missing.length > 0)
          throw new ValidationError(`Give a verdict on every aspect first: ${missing.map((a) => a.label).join(", ")}.`);
        const { count } = await tx.pairAssignment.updateMany({
          where: { pairId: pair.id, reviewerId: me, status: "claimed" },
          data: { status: "done", doneAt: new Date() },
        });
        if (count === 1) await tx.pair.update({ where: { id: pair.id }, data: { doneCount: { increment: 1 } } });
        status = "done";
      }
      const rows = await tx.pairVerdict.findMany({
        where: { pairId: pair.id, raterId: me },
        orderBy: { aspect: "asc" },
      });
      return { verdicts: rows.map(reviewVerdictOf), status, progress: await reviewProgress(tx, set.id, me) };
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
}
