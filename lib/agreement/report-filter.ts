import { z } from "zod";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { requireWholeView } from "../visibility/withheld";
import { resolveFilterRun, videoFilterFrom, videoFilterWhere, type FilterContext } from "../videos/video-filter-sql";
import { videoFilterSchema, type VideoFilter } from "../videos/video-filter";

const numberParam = (min: number, max: number, fallback: number) =>
  z
    .preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.coerce.number().finite().min(min).max(max).optional(),
    )
    .transform((v) => v ?? fallback);

/** The agreement API's and dashboard's query: the video list's filters plus the binarising thresholds. */
export function agreementQuerySchema(catalogue: DeclarationCatalogue) {
  return catalogue.derived("agreement.query", () => buildAgreementQuerySchema(catalogue));
}

function buildAgreementQuerySchema(catalogue: DeclarationCatalogue) {
  return videoFilterSchema(catalogue).extend({
    /** Scores (0–10) at or above it are a hallucination. */
    threshold: numberParam(0, 10, 5),
    /** Overall (0–100) below it is a hallucination. */
    overallThreshold: numberParam(0, 100, 60),
    /**
     * Presence targets: the judge's presence of a category is "its highest score of it ≥ t"; unset: the
     * task's declared default t. Checked against the graded scale by the report.
     */
    presenceThreshold: z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.coerce.number().finite().min(-1e6).max(1e6).optional(),
    ),
    /**
     * "only" (default): judgments taken with the explicit accept-the-judge action are left out of every
     * statistic (they are not independent of the judge and would inflate agreement); "all": they count.
     */
    independent: z.enum(["only", "all"]).default("only"),
    /**
     * "exclude" (default): score values a presence-first queue stored because the reviewer marked their
     * category absent (human_judgment.origin 'implied_by_absence') are left out, so one "absent" answer does not
     * count as an independent judgment of every score of the category; presence is compared through the
     * presence targets. "include": they count as judgments of the scores.
     */
    implied: z.enum(["include", "exclude"]).default("exclude"),
    /**
     * The human side of the confusion, breakdowns, sweep and scatter: "consensus" (default) the live
     * reviewers', "gold" the values owners set in adjudication (targets without gold drop out of them).
     */
    truth: z.enum(["consensus", "gold"]).default("consensus"),
    format: z.enum(["json", "csv"]).default("json"),
  });
}
export type AgreementQuery = z.output<ReturnType<typeof buildAgreementQuerySchema>>;

export function exportQuerySchema(catalogue: DeclarationCatalogue) {
  return catalogue.derived("agreement.exportQuery", () =>
    videoFilterSchema(catalogue).extend({
      format: z.enum(["csv", "jsonl"]).default("csv"),
    }),
  );
}
export type ExportQuery = z.output<ReturnType<typeof exportQuerySchema>>;

/**
 * Which videos and runs a filter selects, as SQL fragments for the agreement report and the
 * exports. The video filters read one run (the named one, else the project's latest, as in the video
 * list); the judged targets come from that run when `runId` is given, else from every run.
 */
export interface ReportFilter {
  ctx: FilterContext;
  /** `SELECT v."id" FROM … WHERE …`: the matching videos. */
  matchingVideos: Prisma.Sql;
  /** Only this run's targets; null: every run of the project. */
  runId: string | null;
  category: string | null;
}

/**
 * The scope of a filter for this user. The report and the exports carry the judge's values and are computed from
 * every matching video, so while the user reviews any of them in a blind queue the whole report or export is
 * withheld (WithheldError, 409 `withheld`), never one of the other videos presented as whole.
 */
export async function resolveReportFilter(
  prisma: PrismaClient,
  projectId: string,
  filter: VideoFilter,
  userId: string,
  given?: TaskCatalogue,
): Promise<ReportFilter> {
  const catalogue = await catalogueOf(prisma, projectId, given);
  const run = await resolveFilterRun(prisma, catalogue, projectId, filter.runId);
  const ctx: FilterContext = { projectId, catalogue, runId: run?.id ?? null, task: run?.task ?? null, userId };
  const matchingVideos = Prisma.sql`SELECT v."id" ${videoFilterFrom(ctx)} WHERE ${videoFilterWhere(filter, ctx)}`;
  const blind = [...(await blindVideoIdsFor(prisma, userId))];
  if (blind.length > 0) {
    const matched = await prisma.$queryRaw<
      { id: string }[]
    >`SELECT m."id" FROM (${matchingVideos}) m WHERE m."id" = ANY(${blind}::text[])`;
    await requireWholeView(
      prisma,
      userId,
      matched.map((row) => row.id),
      "This agreement report or export",
    );
  }
  return {
    ctx,
    matchingVideos,
    runId: filter.runId ?? null,
    category: filter.category ?? null,
  };
}

/** `AND <alias>."runId" = …` when the scope names a run. */
export function runCondition(scope: ReportFilter, column: Prisma.Sql): Prisma.Sql {
  return scope.runId ? Prisma.sql`AND ${column} = ${scope.runId}` : Prisma.empty;
}
