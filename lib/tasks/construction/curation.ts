/**
 * Human curation of constructed questions (seed 004 has humans check every question; issue "Build video Q&A
 * benchmarks"): each curator accepts a candidate, possibly with edits of its question, options, answer or
 * category, or rejects it with a reason. Decisions are versioned per (candidate, curator), like judgments: a
 * save needs the version the curator saw, a stale one gets a 409 and overwrites nothing, and every change is
 * kept in an append-only history.
 *
 * With N curators per question, a candidate is accepted or rejected by the majority of the decisions once N
 * are in; a tie is "disputed" (an owner decides), and fewer than N is "pending". The accepted question is the
 * candidate with the edits of the latest accepting curator, so the export carries what a human approved.
 */
import { z } from "zod";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { AppError, NotFoundError, ValidationError } from "../../errors";
import { agreementReport } from "../../stats/agreement-report";
import { buildRatingTable } from "../../stats/rating-table";
import { MC_LETTERS } from "./mc-letters";
import { isPrismaError, UNIQUE_VIOLATION } from "../../db/prisma-errors";

export const CANDIDATE_ITEM_KIND = "qa_candidate";
export const CURATION_DECISIONS = ["accept", "reject"] as const;
export type CurationDecisionKind = (typeof CURATION_DECISIONS)[number];

/** What a candidate question carries that a curator may change. */
export interface CuratedFields {
  question: string;
  /** Letter → text for a multiple-choice question; null for an open one. */
  options: Record<string, string> | null;
  /** The correct letter (multiple choice) or the reference answer (open). */
  answer: string;
  category: string | null;
}

const shortText = z.string().trim().min(1, "must not be empty").max(4000, "at most 4,000 characters");

export const curationEditsSchema = z
  .strictObject({
    question: shortText.optional(),
    options: z
      .partialRecord(z.enum(MC_LETTERS, { error: `option letters are ${MC_LETTERS.join(", ")}` }), shortText)
      .optional(),
    answer: shortText.optional(),
    category: z.string().trim().max(100).nullable().optional(),
  })
  .default({});
export type CurationEdits = z.output<typeof curationEditsSchema>;

export const saveCurationSchema = z.object({
  itemId: z.string().min(1).max(64),
  decision: z.enum(CURATION_DECISIONS),
  edits: curationEditsSchema,
  reason: z.string().trim().max(2000).optional(),
  /** The version the curator saw; required to change an existing decision. */
  expectedVersion: z.int().min(1).optional(),
});
export type SaveCurationInput = z.input<typeof saveCurationSchema>;

/** The candidate with a curator's edits applied. */
export function applyEdits(candidate: CuratedFields, edits: CurationEdits): CuratedFields {
  return {
    question: edits.question ?? candidate.question,
    options: edits.options ?? candidate.options,
    answer: edits.answer ?? candidate.answer,
    category: edits.category === undefined ? candidate.category : edits.category,
  };
}

/** Why the edited question is not usable (an answer letter that is not an option, options on an open question), or null. */
export function editedQuestionProblem(candidate: CuratedFields, edits: CurationEdits): string | null {
  const edited = applyEdits(candidate, edits);
  if (candidate.options === null && edits.options) return "an open question has no options";
  if (edited.options) {
    const letters = Object.keys(edited.options).sort();
    if (letters.join("") !== MC_LETTERS.slice(0, letters.length).join("") || letters.length < 2)
      return `the options must be lettered from A with no gap, not ${letters.join(", ")}`;
    if (!(edited.answer in edited.options))
      return `the answer ${JSON.stringify(edited.answer)} is not one of the options' letters (${letters.join(", ")})`;
  }
  return null;
}

export class CurationConflictError extends AppError {
  constructor(
    current: { version: number; decision: string },
    cause: "stale_version" | "missing_version" = "stale_version",
  ) {
    super(
      409,
      "conflict",
      cause === "missing_version"
        ? `You already decided on this question (version ${current.version}: ${current.decision}); send expectedVersion ${current.version} to change it.`
        : `This decision was changed elsewhere (now version ${current.version}: ${current.decision}). Reload it, then save again.`,
      { current: { version: current.version, decision: current.decision } },
    );
  }
}

const historyState = (row: { decision: string; edits: Prisma.JsonValue; reason: string | null }) => ({
  decision: row.decision,
  edits: row.edits,
  reason: row.reason,
});

/** Saves the actor's decision on a candidate; returns the stored decision with its new version. */
export async function saveCuration(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  raw: SaveCurationInput,
  fieldsOf: (payload: Prisma.JsonValue) => CuratedFields,
) {
  const { actor } = access;
  const input = saveCurationSchema.parse(raw);
  const item = await prisma.item.findFirst({
    where: { id: input.itemId, projectId: access.projectId },
    select: { id: true, projectId: true, kind: true, payload: true },
  });
  if (!item || item.kind !== CANDIDATE_ITEM_KIND) throw new NotFoundError("No such candidate question.");
  if (input.decision === "reject" && !input.reason)
    throw new ValidationError("Say why the question is rejected (reason).");
  if (input.decision === "reject" && Object.keys(input.edits).length)
    throw new ValidationError("A rejected question keeps no edits: accept it with the edits, or reject it as it is.");
  const problem = editedQuestionProblem(fieldsOf(item.payload), input.edits);
  if (problem) throw new ValidationError(`The edited question is not usable: ${problem}.`);
  const after = { decision: input.decision, edits: input.edits as Prisma.InputJsonValue, reason: input.reason ?? null };

  return prisma.$transaction(async (tx) => {
    const existing = await tx.curationDecision.findUnique({
      where: { itemId_curatorId: { itemId: item.id, curatorId: actor.userId } },
    });
    if (!existing) {
      if (input.expectedVersion !== undefined) throw new CurationConflictError({ version: 0, decision: "none" });
      const created = await tx.curationDecision
        .create({ data: { projectId: item.projectId, itemId: item.id, curatorId: actor.userId, ...after } })
        .catch(async (error: unknown) => {
          // Two first saves raced (two tabs): the other one won.
          if (isPrismaError(error, UNIQUE_VIOLATION))
            throw new CurationConflictError(
              await prisma.curationDecision.findUniqueOrThrow({
                where: { itemId_curatorId: { itemId: item.id, curatorId: actor.userId } },
              }),
            );
          throw error;
        });
      await tx.curationDecisionHistory.create({
        data: { decisionId: created.id, curatorId: actor.userId, version: 1, after },
      });
      return created;
    }
    if (input.expectedVersion === undefined) throw new CurationConflictError(existing, "missing_version");
    if (input.expectedVersion !== existing.version) throw new CurationConflictError(existing);
    // Compare-and-set on the version: of two saves of the same version, exactly one wins.
    const updated = await tx.curationDecision.updateMany({
      where: { id: existing.id, version: existing.version },
      data: { ...after, version: existing.version + 1 },
    });
    if (updated.count === 0)
      throw new CurationConflictError(await tx.curationDecision.findUniqueOrThrow({ where: { id: existing.id } }));
    await tx.curationDecisionHistory.create({
      data: {
        decisionId: existing.id,
        curatorId: actor.userId,
        version: existing.version + 1,
        before: historyState(existing),
        after,
      },
    });
    return tx.curationDecision.findUniqueOrThrow({ where: { id: existing.id } });
  });
}

export type CurationStatus = "accepted" | "rejected" | "disputed" | "pending";

export interface DecisionRow {
  curatorId: string;
  decision: CurationDecisionKind;
  edits: CurationEdits;
  updatedAt: Date;
}

/** The candidate's status under `curatorsPerQuestion` curators, and the accepted question when there is one. */
export function curationOutcome(
  candidate: CuratedFields,
  decisions: readonly DecisionRow[],
  curatorsPerQuestion: number,
): { status: CurationStatus; question: CuratedFields | null } {
  if (decisions.length < curatorsPerQuestion) return { status: "pending", question: null };
  const accepts = decisions.filter((d) => d.decision === "accept");
  const rejects = decisions.length - accepts.length;
  if (accepts.length === rejects) return { status: "disputed", question: null };
  if (rejects > accepts.length) return { status: "rejected", question: null };
  const latest = [...accepts].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0]!;
  return { status: "accepted", question: applyEdits(candidate, latest.edits) };
}

/** Agreement among curators on accept/reject: percent agreement, Fleiss' κ, Krippendorff's α (and Cohen's κ for two curators). */
export function curatorAgreement(
  decisions: readonly { itemId: string; curatorId: string; decision: CurationDecisionKind }[],
) {
  const table = buildRatingTable(decisions.map((d) => ({ item: d.itemId, rater: d.curatorId, value: d.decision })));
  const report = agreementReport(table, "nominal");
  return {
    items: report.n_items,
    curators: report.n_raters,
    percentAgreement: report.percent_agreement,
    fleissKappa: report.fleiss_kappa,
    krippendorffAlpha: report.krippendorff_alpha,
    cohenKappa: report.cohen_kappa ?? null,
  };
}
