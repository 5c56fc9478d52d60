/**
 * The QA results reads (./qa-results.ts) as the caller may see them, through the blind policy of
 * lib/visibility/judge-visibility.ts: pages and route handlers import these, never the unredacted ones.
 *
 * A question of a video the caller reviews blind keeps what was imported (the question, its options and
 * correct answer) and the evaluated model's raw answer (what is being judged), and loses every value the
 * decide steps produced: outcome, reason, letter, judgement, why no letter was read (`blind: true`). It
 * matches no outcome or flag filter either way (they are judge values), so a filtered list or its total cannot
 * give one away. The CSV and JSONL exports present every question as decided or not, so they are whole or withheld
 * (lib/visibility/withheld): while the caller reviews any of the run's videos blind they answer 409 `withheld`.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { EXPORT_PAGE_ROWS } from "../../export/text-stream";
import { runExportsWithheld } from "../../export/run-downloads";
import { blindVideoIdsFor, redactResultsFor, withheldResult } from "../../visibility/judge-visibility";
import { WithheldError } from "../../visibility/withheld";
import * as qaResults from "./qa-results";
import { withheldQuestionResult } from "./redact-results";
import type { QaQuestionResult, QaRunResultsQuery } from "./qa-results";

export { withheldAnswerResult } from "./redact-results";

/** GET /runs/:id/qa (and its CSV and JSONL exports), and the QA page's list. */
export async function runQaResults(prisma: PrismaClient, actor: Actor, runId: string, query: QaRunResultsQuery) {
  const answer = await qaResults.runQaResults(prisma, actor, runId, query);
  const questions = await redactResultsFor(prisma, actor.userId, withheldQuestionResult, answer.questions, (q) => q.video.id);
  if (!questions.some((q) => q.blind) || (!query.outcome && !query.flag)) return { ...answer, questions };
  const blind = new Set(questions.filter((q) => q.blind).map((q) => q.video.id));
  // Filtered on a judge value: blind questions match neither way, on this page nor in the total.
  const hidden = questions.filter((q) => q.blind).length;
  const hiddenElsewhere = query.format === "json" ? await blindMatchesOffPage(prisma, actor, runId, query, blind, answer.questions) : 0;
  return { ...answer, total: answer.total - hidden - hiddenElsewhere, questions: questions.filter((q) => !q.blind) };
}

/** Blind questions matching the filter on the other pages of a paged list. */
async function blindMatchesOffPage(prisma: PrismaClient, actor: Actor, runId: string, query: QaRunResultsQuery, blind: ReadonlySet<string>, onPage: readonly QaQuestionResult[]) {
  const all = await qaResults.runQaResults(prisma, actor, runId, { ...query, format: "csv" });
  const shown = new Set(onPage.map((q) => q.questionId));
  return all.questions.filter((q) => blind.has(q.video.id) && !shown.has(q.questionId)).length;
}

/** One question's page: every run's result of it, withheld when its video is blind to the caller. */
export async function questionDetail(prisma: PrismaClient, actor: Actor, questionId: string) {
  const detail = await qaResults.questionDetail(prisma, actor, questionId);
  const blind = (await blindVideoIdsFor(prisma, actor.userId, [detail.question.video.id])).size > 0;
  if (!blind) return { ...detail, blind: false };
  return {
    ...detail,
    blind: true,
    results: detail.results.map((entry) => withheldResult(withheldQuestionResult, entry)),
  };
}

/**
 * The CSV and JSONL exports' questions, EXPORT_PAGE_ROWS at a time: what one page held is let go before the next is
 * read. Whole or withheld: a blind row would read as undecided, so while any of the run's videos is blind to the
 * caller the export throws `WithheldError` (409) before its first row. Rows still pass through the blind policy, so
 * a queue made blind while the file streams withholds values rather than giving them away.
 */
export async function runQaResultExport(prisma: PrismaClient, actor: Actor, runId: string, query: QaRunResultsQuery, pageSize = EXPORT_PAGE_ROWS) {
  // The first slice checks the caller may export the run, so a 403 or 404 comes before any word of blind queues.
  const slices = qaResults.runQaResultSlices(prisma, actor, runId, query, pageSize);
  const first = await slices.next();
  const withheld = await runExportsWithheld(prisma, actor.userId, runId);
  if (withheld) throw new WithheldError("The QA results export", withheld);
  return runQaResultPages(prisma, actor, first, slices);
}

type QaSlices = ReturnType<typeof qaResults.runQaResultSlices>;

async function* runQaResultPages(prisma: PrismaClient, actor: Actor, first: IteratorResult<QaSlices extends AsyncGenerator<infer S> ? S : never>, rest: QaSlices) {
  for (let next = first; !next.done; next = await rest.next()) {
    const questions = await redactResultsFor(prisma, actor.userId, withheldQuestionResult, next.value.questions, (q) => q.video.id);
    yield { run: next.value.run, questions: questions.filter((q) => !q.blind) };
  }
}
