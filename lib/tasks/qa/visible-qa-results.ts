/**
 * The QA results reads (./qa-run-questions.ts, ./qa-overview.ts, ./qa-questions.ts) as the caller may see them, through the blind policy of
 * lib/visibility/judge-visibility.ts: pages and route handlers import these, never the unredacted ones.
 *
 * A question of a video the caller reviews blind keeps what was imported (the question, its options and
 * correct answer) and the evaluated model's raw answer (what is being judged), and loses every value the
 * decide steps produced: outcome, reason, letter, judgement, why no letter was read (`blind: true`). It
 * matches no outcome or flag filter either way (they are judge values), so a filtered list or its total cannot
 * give one away. The accuracy overview and the CSV and JSONL exports are whole or withheld (lib/visibility/withheld):
 * while the caller reviews any of their runs' videos blind they answer 409 `withheld`, never a partial number or a row
 * with blank decisions that reads as undecided.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import type { ProjectAccess } from "../../authz/permissions";
import { EXPORT_PAGE_ROWS } from "../../export/text-stream";
import { runExportsWithheld, runsWithheld } from "../../export/run-downloads";
import { blindVideoIdsFor, redactResultsFor, withheldResult } from "../../visibility/judge-visibility";
import { WithheldError } from "../../visibility/withheld";
import * as qaOverview from "./qa-overview";
import * as qaQuestions from "./qa-questions";
import * as runQuestions from "./qa-run-questions";
import { withheldQuestionResult } from "./redact-results";
import type { QaOverview } from "./qa-overview";
import type { QaRunResultsQuery, qaAccuracyQuerySchema } from "./qa-query";
import type { QaQuestionResult } from "./qa-run-questions";
import type { z } from "zod";

export { withheldAnswerResult } from "./redact-results";

/** GET /runs/:id/qa as JSON, and the QA page's list: each blind question marked and without its decisions. */
export async function runQaResults(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
  query: QaRunResultsQuery,
) {
  const { actor } = access;
  const answer = await runQuestions.runQaResults(prisma, access, runId, query);
  const questions = await redactResultsFor(
    prisma,
    actor.userId,
    withheldQuestionResult,
    answer.questions,
    (q) => q.video.id,
  );
  if (!questions.some((q) => q.blind) || (!query.outcome && !query.flag)) return { ...answer, questions };
  const blind = new Set(questions.filter((q) => q.blind).map((q) => q.video.id));
  // Filtered on a judge value: blind questions match neither way, on this page nor in the total.
  const hidden = questions.filter((q) => q.blind).length;
  const hiddenElsewhere =
    query.format === "json" ? await blindMatchesOffPage(prisma, access, runId, query, blind, answer.questions) : 0;
  return { ...answer, total: answer.total - hidden - hiddenElsewhere, questions: questions.filter((q) => !q.blind) };
}

/** Blind questions matching the filter on the other pages of a paged list. */
async function blindMatchesOffPage(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
  query: QaRunResultsQuery,
  blind: ReadonlySet<string>,
  onPage: readonly QaQuestionResult[],
) {
  const all = await runQuestions.runQaResults(prisma, access, runId, { ...query, format: "csv" });
  const shown = new Set(onPage.map((q) => q.questionId));
  return all.questions.filter((q) => blind.has(q.video.id) && !shown.has(q.questionId)).length;
}

/**
 * GET /projects/:id/qa-accuracy (and its CSV and JSONL): accuracy per run and group, the heat map, frames and McNemar
 * comparisons of the chosen runs, whole, or `WithheldError` (409) while any of their videos is blind to the caller.
 */
export async function projectQaOverview(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: z.output<typeof qaAccuracyQuerySchema>,
): Promise<QaOverview> {
  const overview = await qaOverview.projectQaOverview(prisma, access, query);
  const withheld = await qaAccuracyWithheld(prisma, access.actor, overview);
  if (withheld) throw new WithheldError("The QA accuracy overview", withheld);
  return overview;
}

/**
 * The QA page's overview: the runs to choose from always; the aggregates (accuracy rows, heat map, frames, comparisons)
 * only when whole. Otherwise they are empty and `withheld` says why, so the page shows the notice in their place.
 */
export async function qaPageOverview(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: z.output<typeof qaAccuracyQuerySchema>,
) {
  const overview = await qaOverview.projectQaOverview(prisma, access, query);
  const withheld = await qaAccuracyWithheld(prisma, access.actor, overview);
  if (!withheld) return { overview, withheld };
  return {
    overview: {
      ...overview,
      rows: [],
      heatmap: { categories: [], cells: [] },
      comparisons: [],
      frames: [],
    } satisfies QaOverview,
    withheld,
  };
}

function qaAccuracyWithheld(prisma: PrismaClient, actor: Actor, overview: Pick<QaOverview, "chosen">) {
  return runsWithheld(
    prisma,
    actor.userId,
    overview.chosen.map((run) => run.id),
  );
}

/** One question's page: every run's result of it, withheld when its video is blind to the caller. */
export async function questionDetail(prisma: PrismaClient, access: ProjectAccess, questionId: string) {
  const detail = await qaQuestions.questionDetail(prisma, access, questionId);
  const blind = (await blindVideoIdsFor(prisma, access.actor.userId, [detail.question.video.id])).size > 0;
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
export async function runQaResultExport(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  runId: string,
  query: QaRunResultsQuery,
  pageSize = EXPORT_PAGE_ROWS,
) {
  // The first slice finds the run in the access's project, so a 404 comes before any word of blind queues.
  const slices = runQuestions.runQaResultSlices(prisma, access, runId, query, pageSize);
  const first = await slices.next();
  const withheld = await runExportsWithheld(prisma, access.actor.userId, runId);
  if (withheld) throw new WithheldError("The QA results export", withheld);
  return runQaResultPages(prisma, access.actor, first, slices);
}

type QaSlices = ReturnType<typeof runQuestions.runQaResultSlices>;

async function* runQaResultPages(
  prisma: PrismaClient,
  actor: Actor,
  first: IteratorResult<QaSlices extends AsyncGenerator<infer S> ? S : never>,
  rest: QaSlices,
) {
  for (let next = first; !next.done; next = await rest.next()) {
    const questions = await redactResultsFor(
      prisma,
      actor.userId,
      withheldQuestionResult,
      next.value.questions,
      (q) => q.video.id,
    );
    yield { run: next.value.run, questions: questions.filter((q) => !q.blind) };
  }
}
