/**
 * The caption results reads (./caption-run-results.ts, ./caption-overview.ts, ./caption-detail.ts) as the caller may see them: the same functions, with
 * the same names and arguments, passed through the blind policy of lib/visibility/judge-visibility.ts.
 * Pages and route handlers import these, never the unredacted ones (a test checks).
 *
 * A caption of a video the caller reviews blind keeps what was imported and loses every judge value
 * (`blind: true`); it matches no flag filter either way (a flag is a judge value), so a filtered list
 * or its total cannot give one away. The leaderboard and the CSV and JSONL exports are whole or withheld
 * (lib/visibility/withheld): while the caller reviews any of their runs' videos blind they answer 409 `withheld`,
 * never a partial number or a row with blank judge values that reads as unjudged.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import type { ProjectAccess } from "../../authz/permissions";
import { EXPORT_PAGE_ROWS } from "../../export/text-stream";
import { runExportsWithheld, runsWithheld } from "../../export/run-downloads";
import { blindVideoIdsFor, redactResultsFor } from "../../visibility/judge-visibility";
import { WithheldError } from "../../visibility/withheld";
import * as captionDetails from "./caption-detail";
import * as captionOverview from "./caption-overview";
import * as runResults from "./caption-run-results";
import { withheldCaptionResult } from "./redact-results";
import type {
  CaptionFlag,
  CaptionListQuery,
  CaptionResultsQuery,
  captionLeaderboardQuerySchema,
} from "./caption-query";
import type { CaptionRunResult } from "./caption-run-results";
import type { z } from "zod";

/** Caption results for this user, each marked `blind` (and withheld by the task's redactResult) when its video is blind to them. */
const redactCaptionResultsFor = <C extends CaptionRunResult>(
  prisma: PrismaClient,
  userId: string,
  captions: readonly C[],
) => redactResultsFor(prisma, userId, withheldCaptionResult, captions, (caption) => caption.video.id);

/** Captions of `runId` flagged with `flag` on videos the user reviews blind. */
async function blindFlaggedItemIds(
  prisma: PrismaClient,
  userId: string,
  runId: string,
  flag: CaptionFlag,
): Promise<string[]> {
  const blind = [...(await blindVideoIdsFor(prisma, userId))];
  if (blind.length === 0) return [];
  const rows = await prisma.runMetric.findMany({
    where: { runId, metric: flag, value: 1, videoId: { in: blind } },
    select: { itemId: true },
  });
  return rows.map((row) => row.itemId).filter((id) => id !== "");
}

/** GET /runs/:id/captions as JSON: each blind caption marked and without its judge values. */
export async function runCaptionResults(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
  query: CaptionResultsQuery,
) {
  const { actor } = access;
  const answer = await runResults.runCaptionResults(prisma, access, runId, query);
  const captions = await redactCaptionResultsFor(prisma, actor.userId, answer.captions);
  if (!query.flag) return { ...answer, captions };
  const hidden = await blindFlaggedItemIds(prisma, actor.userId, runId, query.flag);
  const hiddenMatches = hidden.length
    ? await prisma.runItem.count({
        where: {
          runId,
          itemId: { in: hidden },
          item: {
            ...(query.model ? { model: query.model } : {}),
            ...(query.type ? { group: query.type } : {}),
            ...(query.videoId ? { videoId: query.videoId } : {}),
          },
        },
      })
    : 0;
  return { ...answer, total: answer.total - hiddenMatches, captions: captions.filter((caption) => !caption.blind) };
}

/**
 * GET /projects/:id/caption-leaderboard (and its CSV and JSONL): the leaderboard of the named runs, whole, or
 * `WithheldError` (409) while any of their videos is blind to the caller.
 */
export async function projectCaptionLeaderboard(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: z.output<typeof captionLeaderboardQuerySchema>,
) {
  const leaderboard = await captionOverview.projectCaptionLeaderboard(prisma, access, query);
  const withheld = await runsWithheld(
    prisma,
    access.actor.userId,
    leaderboard.runs.map((run) => run.id),
  );
  if (withheld) throw new WithheldError("The caption leaderboard", withheld);
  return leaderboard;
}

/**
 * The captions page: the leaderboard whole or, while any of the chosen runs' videos is blind to the caller, none and
 * `leaderboardWithheld` saying why; the page of captions redacted.
 */
export async function projectCaptionOverview(prisma: PrismaClient, access: ProjectAccess, query: CaptionListQuery) {
  const { actor, projectId } = access;
  const whole = await captionOverview.projectCaptionOverview(prisma, access, query);
  const chosen = [whole.style, whole.content].flatMap((run) => (run ? [run.id] : []));
  const leaderboardWithheld = await runsWithheld(prisma, actor.userId, chosen);
  const overview = { ...whole, leaderboard: leaderboardWithheld ? null : whole.leaderboard, leaderboardWithheld };
  const captions = await redactCaptionResultsFor(prisma, actor.userId, overview.captions);
  if (!query.flag || !overview.style) return { ...overview, captions };
  const hidden = await blindFlaggedItemIds(prisma, actor.userId, overview.style.id, query.flag);
  const runIds = [overview.style, overview.content].flatMap((run) => (run ? [run.id] : []));
  const hiddenMatches = hidden.length
    ? await prisma.item.count({
        where: {
          projectId,
          kind: "caption",
          id: { in: hidden },
          runItems: { some: { runId: { in: runIds } } },
          ...(query.model ? { model: query.model } : {}),
          ...(query.type ? { group: query.type } : {}),
          ...(query.videoId ? { videoId: query.videoId } : {}),
        },
      })
    : 0;
  return { ...overview, total: overview.total - hiddenMatches, captions: captions.filter((caption) => !caption.blind) };
}

/** One caption's page: every run's result of it, redacted when its video is blind to the caller (`blind`). */
export async function captionDetail(prisma: PrismaClient, access: ProjectAccess, captionId: string) {
  const detail = await captionDetails.captionDetail(prisma, access, captionId);
  const shown = await redactCaptionResultsFor(
    prisma,
    access.actor.userId,
    detail.results.map((entry) => entry.result),
  );
  return {
    ...detail,
    blind: shown.some((result) => result.blind),
    // The judge's scores (for reviewers' forms) keep their ids and lose their values while blind.
    results: detail.results.map((entry, i) => ({
      ...entry,
      result: shown[i]!,
      scores: shown[i]!.blind
        ? entry.scores.map((score) => ({ ...score, value: null }))
        : entry.scores.map((score) => ({ ...score, value: score.value as number | null })),
    })),
  };
}

/**
 * The CSV and JSONL exports' captions, EXPORT_PAGE_ROWS at a time: what one page held is let go before the next is
 * read. Whole or withheld: a blind row would read as unjudged, so while any of the run's videos is blind to the
 * caller the export throws `WithheldError` (409) before its first row. Rows still pass through the blind policy, so
 * a queue made blind while the file streams withholds values rather than giving them away.
 */
export async function runCaptionResultExport(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  runId: string,
  query: CaptionResultsQuery,
  pageSize = EXPORT_PAGE_ROWS,
) {
  // The first slice finds the run in the access's project, so a 404 comes before any word of blind queues.
  const slices = runResults.runCaptionResultSlices(prisma, access, runId, query, pageSize);
  const first = await slices.next();
  const withheld = await runExportsWithheld(prisma, access.actor.userId, runId);
  if (withheld) throw new WithheldError("The caption results export", withheld);
  return runCaptionResultPages(prisma, access.actor, first, slices);
}

type CaptionSlices = ReturnType<typeof runResults.runCaptionResultSlices>;

async function* runCaptionResultPages(
  prisma: PrismaClient,
  actor: Actor,
  first: IteratorResult<CaptionSlices extends AsyncGenerator<infer S> ? S : never>,
  rest: CaptionSlices,
) {
  for (let next = first; !next.done; next = await rest.next()) {
    const captions = await redactCaptionResultsFor(prisma, actor.userId, next.value.captions);
    yield { run: next.value.run, captions: captions.filter((caption) => !caption.blind) };
  }
}
