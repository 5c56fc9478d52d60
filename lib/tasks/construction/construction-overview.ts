/**
 * What the construction page (/projects/:id/construction) shows: the project's clip sets and candidate sets
 * with the qa_generate / qa_construct runs over them, and for one candidate set the filter funnel, the
 * transformation's outcome, the correct-letter histogram and a filtered, paginated list of its candidates.
 * Candidates are read only through loadCandidateViews (the contract the pipelines fill); runs are tied to a
 * set by the items they judge (run_item), or by the set id kept in their settings.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { type ProjectAccess, roleCan } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { balanceAnswerLetters, letterHistogram, type McLetter } from "./balance-answer-letters";
import { CANDIDATE_SET_KIND, type CandidateView, loadCandidateViews } from "./candidate-views";
import { curationOutcome, type CurationStatus } from "./curation";
import { curatedFieldsOf, curatorsPerQuestionOf, decisionsOf } from "./curation-queues";
import { FILTER_IDS, FILTERS, filterFunnel, type FilterId, type FunnelStage } from "./filter-funnel";
import { WRONG_ANSWERS_KEPT, type AttemptChecks } from "./transform-attempts";

export const CLIP_SET_KIND = "step_annotations";
/** The pipelines that build questions: generation over a clip set, filtering and transformation over a candidate set. */
export const GENERATE_PIPELINE = "qa_generate";
export const CONSTRUCT_PIPELINE = "qa_construct";
export const CANDIDATES_PER_PAGE = 50;

const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid id.");
const textFilter = z.string().trim().min(1).max(100);

/** The page's query string: which candidate set, and the candidate list's filters (anything else is refused). */
export const constructionQuerySchema = z.strictObject({
  set: idSchema.optional(),
  fate: z.enum(["kept", "removed", "pending"]).optional(),
  /** With fate removed or pending: removed by / waiting at this filter; alone: either. */
  filter: z.enum(FILTER_IDS as [FilterId, ...FilterId[]]).optional(),
  category: textFilter.optional(),
  dataset: textFilter.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export type ConstructionQuery = z.output<typeof constructionQuerySchema>;

export interface SetRun {
  id: string;
  pipeline: string;
  status: string;
  createdAt: Date;
  endpoint: { name: string; model: string };
}

export interface ClipSetSummary {
  id: string;
  name: string;
  fileName: string;
  importedAt: Date;
  clips: number;
  videos: number;
  clipsByDataset: Record<string, number>;
  /** qa_generate runs over the set, newest first. */
  runs: SetRun[];
}

export interface CandidateSetSummary {
  id: string;
  name: string;
  importedAt: Date;
  candidates: number;
  /** qa_construct runs over the set, newest first. */
  runs: SetRun[];
}

export interface ConstructionOverview {
  may: { importAnnotations: boolean; startRuns: boolean; restore: boolean; export: boolean };
  clipSets: ClipSetSummary[];
  candidateSets: CandidateSetSummary[];
}

async function runsBySet(prisma: PrismaClient, projectId: string, setIds: string[]): Promise<Map<string, SetRun[]>> {
  const bySet = new Map<string, SetRun[]>(setIds.map((id) => [id, []]));
  if (!setIds.length) return bySet;
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: { in: [GENERATE_PIPELINE, CONSTRUCT_PIPELINE] } },
    orderBy: { createdAt: "desc" },
    take: 500,
    select: {
      id: true,
      pipeline: true,
      status: true,
      createdAt: true,
      settings: true,
      endpoint: { select: { name: true, model: true } },
    },
  });
  if (!runs.length) return bySet;
  const links = await prisma.$queryRaw<{ runId: string; setId: string }[]>`
    SELECT DISTINCT ri."runId", i."setId"
    FROM run_item ri JOIN item i ON i.id = ri."itemId"
    WHERE ri."runId" = ANY(${runs.map((r) => r.id)}) AND i."setId" = ANY(${setIds})`;
  const setsOfRun = new Map<string, Set<string>>();
  for (const link of links) setsOfRun.set(link.runId, (setsOfRun.get(link.runId) ?? new Set()).add(link.setId));
  for (const run of runs) {
    const settings = (run.settings ?? {}) as Record<string, unknown>;
    const sets = setsOfRun.get(run.id) ?? new Set<string>();
    for (const key of ["clipSetId", "candidateSetId"])
      if (typeof settings[key] === "string") sets.add(settings[key] as string);
    const { settings: _settings, ...shown } = run;
    for (const setId of sets) bySet.get(setId)?.push(shown);
  }
  return bySet;
}

/** The project's clip sets and candidate sets, with their runs, and what the actor may do on the page. */
export async function constructionOverview(prisma: PrismaClient, access: ProjectAccess): Promise<ConstructionOverview> {
  const { projectId, role } = access;
  const sets = await prisma.itemSet.findMany({
    where: { projectId, kind: { in: [CLIP_SET_KIND, CANDIDATE_SET_KIND] } },
    orderBy: [{ importedAt: "asc" }, { id: "asc" }],
    select: { id: true, kind: true, name: true, fileName: true, importedAt: true, itemCount: true },
  });
  const clipSetIds = sets.filter((s) => s.kind === CLIP_SET_KIND).map((s) => s.id);
  const [byDataset, videoCounts, runs] = await Promise.all([
    prisma.item.groupBy({ by: ["setId", "group"], where: { setId: { in: clipSetIds } }, _count: { _all: true } }),
    prisma.$queryRaw<{ setId: string; videos: bigint }[]>`
      SELECT "setId", count(DISTINCT "videoId") AS videos FROM item WHERE "setId" = ANY(${clipSetIds}) GROUP BY "setId"`,
    runsBySet(
      prisma,
      projectId,
      sets.map((s) => s.id),
    ),
  ]);
  const clipSets = sets
    .filter((s) => s.kind === CLIP_SET_KIND)
    .map((s) => {
      const rows = byDataset.filter((r) => r.setId === s.id);
      return {
        id: s.id,
        name: s.name,
        fileName: s.fileName,
        importedAt: s.importedAt,
        clips: rows.reduce((sum, r) => sum + r._count._all, 0),
        videos: Number(videoCounts.find((v) => v.setId === s.id)?.videos ?? 0),
        clipsByDataset: Object.fromEntries(rows.map((r) => [r.group, r._count._all])),
        runs: (runs.get(s.id) ?? []).filter((r) => r.pipeline === GENERATE_PIPELINE),
      };
    });
  const candidateSets = sets
    .filter((s) => s.kind === CANDIDATE_SET_KIND)
    .map((s) => ({
      id: s.id,
      name: s.name,
      importedAt: s.importedAt,
      candidates: s.itemCount,
      runs: (runs.get(s.id) ?? []).filter((r) => r.pipeline === CONSTRUCT_PIPELINE),
    }));
  return {
    may: {
      importAnnotations: roleCan(role, "videos.import"),
      startRuns: roleCan(role, "runs.manage"),
      // Restoring a filtered question is a curator's call: reviewers and owners.
      restore: roleCan(role, "scores.review"),
      export: roleCan(role, "export.read"),
    },
    clipSets,
    candidateSets,
  };
}

export type TransformState = "transformed" | "could_not_transform" | "in_progress" | "not_started";

export interface CandidateCuration {
  status: CurationStatus;
  accepts: number;
  rejects: number;
}

export interface CandidateRow {
  itemId: string;
  externalId: string;
  videoId: string;
  video: string;
  question: string;
  answer: string;
  category: string | null;
  dataset: string;
  granularity: string;
  fate: CandidateView["fate"];
  /** Why a filter removed it, shown also after a restore. */
  removals: { filter: FilterId; label: string; reason: string; restored: boolean }[];
  transform: TransformState;
  attempts: number;
  /** Every checker's picks in the deciding attempt (the one that passed, or the last), and why the last attempt failed. */
  checks: string | null;
  lastReason: string | null;
  curation: CandidateCuration;
}

/** "correct C · without the video B, D, A · with the annotations C, C, D": each checker's pick, "–" for none. */
export function checksLine(checks: AttemptChecks | undefined): string | null {
  if (!checks || checks.correctLetter === null) return null;
  const letters = (picked: readonly (string | null)[]) => picked.map((letter) => letter ?? "–").join(", ");
  const parts = [`correct ${checks.correctLetter}`, `without the video ${letters(checks.withoutVideo)}`];
  if (checks.withVideo.some((letter) => letter !== null))
    parts.push(`with the annotations ${letters(checks.withVideo)}`);
  return parts.join(" · ");
}

export interface CandidateSetDetail {
  set: { id: string; name: string };
  total: number;
  funnel: FunnelStage[];
  /** Every category and dataset of the set's candidates, for the list's filters. */
  categories: string[];
  datasets: string[];
  transformation: Record<TransformState, number>;
  /** Correct letters of the transformed questions once balanced over the set. */
  letters: Record<McLetter, number>;
  /** The filtered list's size and one page of it. */
  matching: number;
  page: number;
  pageCount: number;
  rows: CandidateRow[];
}

const UNCATEGORISED = "(not categorised)";

function matches(view: CandidateView, query: ConstructionQuery): boolean {
  if (query.fate && view.fate.state !== query.fate) return false;
  if (query.filter) {
    const at = view.fate.state === "removed" ? view.fate.by : view.fate.state === "pending" ? view.fate.at : null;
    if (at !== query.filter) return false;
  }
  if (query.category && (view.category ?? UNCATEGORISED) !== query.category) return false;
  if (query.dataset && view.payload.dataset !== query.dataset) return false;
  return true;
}

/** One candidate set of the project: its funnel, transformation counts, letter histogram and a page of its candidates. */
export async function candidateSetDetail(
  prisma: PrismaClient,
  access: ProjectAccess,
  setId: string,
  query: ConstructionQuery,
): Promise<CandidateSetDetail> {
  const { projectId } = access;
  const set = await prisma.itemSet.findFirst({
    where: { id: setId, projectId, kind: CANDIDATE_SET_KIND },
    select: { id: true, name: true },
  });
  if (!set) throw new NotFoundError("No such candidate set in this project.");
  const views = await loadCandidateViews(prisma, access, set.id);
  const summary = summariseCandidates(views, query);
  const curation = await curationOf(prisma, set.id, summary.shown);
  const { shown, ...rest } = summary;
  return { set, ...rest, rows: shown.map((view) => candidateRow(view, curation.get(view.itemId))) };
}

/** The set's numbers from its candidates (pure): funnel, transformation, letters, and the page of the filtered list. */
export function summariseCandidates(views: readonly CandidateView[], query: ConstructionQuery) {
  const funnel = filterFunnel(
    views.map((v) => ({
      category: v.category,
      dataset: v.payload.dataset,
      decisions: v.decisions,
      restoredFrom: v.restoredFrom,
      restored: v.restored,
    })),
  );
  const transformation: Record<TransformState, number> = {
    transformed: 0,
    could_not_transform: 0,
    in_progress: 0,
    not_started: 0,
  };
  for (const view of views) transformation[view.transform?.state ?? "not_started"] += 1;
  const transformed = views.flatMap((v) =>
    v.transform?.state === "transformed" && v.transform.wrong.length === WRONG_ANSWERS_KEPT
      ? [{ id: v.itemId, correct: v.payload.answer, wrong: v.transform.wrong }]
      : [],
  );
  const letters = letterHistogram(balanceAnswerLetters(transformed).map((q) => q.answer));
  const chosen = views.filter((v) => matches(v, query));
  const pageCount = Math.max(1, Math.ceil(chosen.length / CANDIDATES_PER_PAGE));
  const page = Math.min(query.page, pageCount);
  return {
    total: views.length,
    funnel,
    categories: [...new Set(views.map((v) => v.category ?? UNCATEGORISED))].sort(),
    datasets: [...new Set(views.map((v) => v.payload.dataset))].sort(),
    transformation,
    letters,
    matching: chosen.length,
    page,
    pageCount,
    shown: chosen.slice((page - 1) * CANDIDATES_PER_PAGE, page * CANDIDATES_PER_PAGE),
  };
}

function candidateRow(v: CandidateView, curation: CandidateCuration | undefined): CandidateRow {
  return {
    itemId: v.itemId,
    externalId: v.externalId,
    videoId: v.videoId,
    video: v.payload.video,
    question: v.payload.question,
    answer: v.payload.answer,
    category: v.category,
    dataset: v.payload.dataset,
    granularity: v.payload.granularity,
    fate: v.fate,
    removals: FILTERS.flatMap((f) => {
      const decision = v.decisions[f.id];
      return decision?.removed
        ? [{ filter: f.id, label: f.label, reason: decision.reason, restored: v.restoredFrom === f.id }]
        : [];
    }),
    transform: v.transform?.state ?? "not_started",
    attempts: v.attempts,
    checks: v.transform && v.transform.state !== "in_progress" ? checksLine(v.transform.checks) : null,
    lastReason: v.transform?.state === "could_not_transform" ? v.transform.lastReason : null,
    curation: curation ?? { status: "pending", accepts: 0, rejects: 0 },
  };
}

/**
 * The curators' decisions so far on each candidate, and its status under the N curators per question of the set's
 * latest curation queue (1 without a queue), as the export decides it: pending until N decided, then the majority.
 */
async function curationOf(
  prisma: PrismaClient,
  setId: string,
  views: readonly CandidateView[],
): Promise<Map<string, CandidateCuration>> {
  const curatorsPerQuestion = await curatorsPerQuestionOf(prisma, setId);
  const decisionsByItem = await decisionsOf(
    prisma,
    views.map((v) => v.itemId),
  );
  const out = new Map<string, CandidateCuration>();
  for (const view of views) {
    const decisions = decisionsByItem.get(view.itemId) ?? [];
    if (!decisions.length) continue;
    const accepts = decisions.filter((d) => d.decision === "accept").length;
    out.set(view.itemId, {
      status: curationOutcome(curatedFieldsOf(view), decisions, curatorsPerQuestion).status,
      accepts,
      rejects: decisions.length - accepts,
    });
  }
  return out;
}

/** Projects the actor may import into: the targets of "Make a QA set". */
export async function qaSetTargetProjects(prisma: PrismaClient, actor: Actor): Promise<{ id: string; name: string }[]> {
  const projects = await prisma.project.findMany({
    where: {
      archivedAt: null,
      deletingAt: null,
      ...(actor.isAdmin ? {} : { members: { some: { userId: actor.userId } } }),
    },
    orderBy: { name: "asc" },
    select: { id: true, name: true, members: { where: { userId: actor.userId }, select: { role: true } } },
  });
  // Site admins act as owners of every project (lib/authz/permissions.ts).
  return projects
    .filter((p) => roleCan(actor.isAdmin ? "owner" : p.members[0]!.role, "videos.import"))
    .map(({ id, name }) => ({ id, name }));
}
