/**
 * The benchmark export (issue 15): the accepted questions of a candidate set, in the QA import format
 * (lib/tasks/qa/question-sets.ts), one JSON object per line, so the export imports unchanged as a question set.
 *
 * - Accepted means curationOutcome under the N of the set's latest curation queue (N = 1 without a queue).
 *   The curator's edits win: the exported question is the candidate with the latest accepting curator's edits.
 * - "open": every accepted question, answer = the reference answer (for a transformed one, the correct
 *   option's text, as edited). "mc": the transformed ones, options A–E with the correct letter balanced by
 *   balanceAnswerLetters over the exported questions. "both": each accepted question as open, and the
 *   transformed ones also as mc; ids then end in ":open" / ":mc" so they stay unique in one set.
 * - `extra` carries the provenance: template id and hash, endpoint and model, the generation call, filters
 *   passed, the transformation attempt, the curators and their decisions, and whether the question was edited.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { importQuestionSet } from "../qa/question-set-import";
import { balanceAnswerLetters, letterHistogram, MC_LETTERS, type McLetter } from "./balance-answer-letters";
import { CANDIDATE_SET_KIND, type CandidateView, loadCandidateViews } from "./candidate-views";
import { curationOutcome, type CuratedFields, type CurationStatus, type DecisionRow } from "./curation";
import { curatedFieldsOf, curatorsPerQuestionOf, decisionsOf } from "./curation-queues";
import type { ExportFormat } from "./curation-queues.validation";
import { FILTER_IDS } from "./filter-funnel";

/** A line of the export: exactly the QA import format's record. */
export interface BenchmarkLine {
  id: string;
  video: string;
  question: string;
  format: "mc" | "open";
  options?: Record<string, string>;
  answer: string;
  category: string | null;
  granularity: "coarse" | "fine" | null;
  extra: Record<string, unknown>;
}

export interface ExportDecision extends DecisionRow {
  reason: string | null;
}

export interface BenchmarkExport {
  lines: BenchmarkLine[];
  /** How many mc lines have each correct letter. */
  histogram: Record<McLetter, number>;
  counts: Record<CurationStatus, number>;
  curatorsPerQuestion: number;
}

const edited = (edits: DecisionRow["edits"]) => Object.keys(edits).length > 0;

/** The correct answer's text and the wrong ones, in letter order, of a curated multiple-choice question. */
function correctAndWrong(fields: CuratedFields): { correct: string; wrong: string[] } {
  const options = fields.options!;
  const letters = Object.keys(options).sort();
  return {
    correct: options[fields.answer]!,
    wrong: letters.filter((l) => l !== fields.answer).map((l) => options[l]!),
  };
}

/**
 * The export's lines for the candidates' views and their curators' decisions. `curatorName` names a curator
 * in the provenance (an email).
 */
export function benchmarkLines(
  views: readonly CandidateView[],
  decisionsByItem: ReadonlyMap<string, readonly ExportDecision[]>,
  curatorsPerQuestion: number,
  format: ExportFormat,
  curatorName: (curatorId: string) => string = (id) => id,
): BenchmarkExport {
  const counts: Record<CurationStatus, number> = { accepted: 0, rejected: 0, disputed: 0, pending: 0 };
  const accepted: { view: CandidateView; fields: CuratedFields; decisions: readonly ExportDecision[] }[] = [];
  for (const view of views) {
    const decisions = decisionsByItem.get(view.itemId) ?? [];
    const outcome = curationOutcome(curatedFieldsOf(view), decisions, curatorsPerQuestion);
    counts[outcome.status] += 1;
    if (outcome.status === "accepted") accepted.push({ view, fields: outcome.question!, decisions });
  }

  const provenance = (view: CandidateView, decisions: readonly ExportDecision[]) => {
    const accepting = [...decisions]
      .filter((d) => d.decision === "accept")
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
    return {
      candidateId: view.itemId,
      candidateSetId: view.setId,
      externalId: view.externalId,
      dataset: view.payload.dataset,
      clip: { id: view.payload.clipExternalId, start: view.payload.clip.start, end: view.payload.clip.end },
      provenance: view.payload.provenance,
      filtersPassed: FILTER_IDS.filter(
        (id) => view.decisions[id] && (!view.decisions[id]!.removed || view.restoredFrom === id),
      ),
      restoredFrom: view.restoredFrom,
      transformation: view.transform?.state === "transformed" ? { attempt: view.transform.attempt } : null,
      curators: decisions.map((d) => ({
        curator: curatorName(d.curatorId),
        decision: d.decision,
        reason: d.reason,
        edited: edited(d.edits),
      })),
      edited: accepting ? edited(accepting.edits) : false,
    };
  };

  const both = format === "both";
  const open: BenchmarkLine[] = [];
  const mcCandidates: {
    id: string;
    line: Omit<BenchmarkLine, "options" | "answer">;
    correct: string;
    wrong: string[];
    lettered: Record<string, string>;
    answer: string;
  }[] = [];
  for (const { view, fields, decisions } of accepted) {
    const base = {
      video: view.payload.video,
      question: fields.question,
      category: fields.category,
      granularity: view.payload.granularity,
      extra: provenance(view, decisions),
    };
    if (format !== "mc") {
      open.push({
        id: both ? `${view.externalId}:open` : view.externalId,
        ...base,
        format: "open",
        answer: fields.options ? correctAndWrong(fields).correct : fields.answer,
      });
    }
    if (format !== "open" && fields.options) {
      const { correct, wrong } = correctAndWrong(fields);
      mcCandidates.push({
        id: both ? `${view.externalId}:mc` : view.externalId,
        line: { id: "", ...base, format: "mc" },
        correct,
        wrong,
        lettered: fields.options,
        answer: fields.answer,
      });
    }
  }
  // Five options are lettered again over the whole export; a question a curator cut to fewer keeps its letters.
  const balanced = new Map(
    balanceAnswerLetters(mcCandidates.filter((q) => q.wrong.length === MC_LETTERS.length - 1)).map((q) => [q.id, q]),
  );
  const mc: BenchmarkLine[] = mcCandidates.map((q) => {
    const lettered = balanced.get(q.id);
    return {
      ...q.line,
      id: q.id,
      options: lettered ? lettered.options : q.lettered,
      answer: lettered ? lettered.answer : q.answer,
    };
  });
  const lines = [...open, ...mc].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { lines, histogram: letterHistogram(mc.map((l) => l.answer)), counts, curatorsPerQuestion };
}

export function toJsonl(lines: readonly BenchmarkLine[]): string {
  return lines.map((line) => JSON.stringify(line)).join("\n") + (lines.length ? "\n" : "");
}

/** The set's export, as the caller may read it (export.read in the set's project). */
export async function exportBenchmark(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  candidateSetId: string,
  format: ExportFormat,
): Promise<BenchmarkExport & { projectId: string; setName: string }> {
  const set = await prisma.itemSet.findFirst({
    where: { id: candidateSetId, projectId: access.projectId },
    select: { projectId: true, kind: true, name: true },
  });
  if (!set || set.kind !== CANDIDATE_SET_KIND) throw new NotFoundError("No such candidate set.");
  const views = await loadCandidateViews(prisma, access, candidateSetId);
  const decisions = await decisionsOf(
    prisma,
    views.map((v) => v.itemId),
  );
  const curatorIds = [...new Set([...decisions.values()].flat().map((d) => d.curatorId))];
  const users = await prisma.user.findMany({ where: { id: { in: curatorIds } }, select: { id: true, email: true } });
  const email = new Map(users.map((u) => [u.id, u.email]));
  return {
    ...benchmarkLines(
      views,
      decisions,
      await curatorsPerQuestionOf(prisma, candidateSetId),
      format,
      (id) => email.get(id) ?? id,
    ),
    projectId: set.projectId,
    setName: set.name,
  };
}

/** Accepted, rejected, disputed and pending counts and the mc letter histogram, without the lines. */
export async function exportOverview(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  candidateSetId: string,
) {
  const { histogram, counts, curatorsPerQuestion, lines } = await exportBenchmark(prisma, access, candidateSetId, "mc");
  return { curatorsPerQuestion, counts, multipleChoice: lines.length, histogram };
}

/**
 * Imports the export of the candidate set in `from`'s project as a question set of the project `into` grants
 * importing in (its `projectId`), matching videos by file name; unknown videos fail the whole import (422 naming
 * them), nothing half-imported.
 */
export async function makeQaSet(
  prisma: PrismaClient,
  from: ProjectAccess<"export.read">,
  into: ProjectAccess<"videos.import">,
  candidateSetId: string,
  input: { format: ExportFormat; name: string },
) {
  const exported = await exportBenchmark(prisma, from, candidateSetId, input.format);
  if (!exported.lines.length)
    throw new ValidationError(
      `No accepted question to export as ${input.format === "both" ? "mc or open" : input.format}: curate the candidates first.`,
    );
  const fileName = `${input.name.replace(/[^A-Za-z0-9._-]+/g, "-")}.jsonl`;
  const summary = await importQuestionSet(
    prisma,
    into,
    { fileName, bytes: new TextEncoder().encode(toJsonl(exported.lines)) },
    { name: input.name },
  );
  return { questionSetId: summary.set.id!, projectId: into.projectId, count: summary.items.count };
}
