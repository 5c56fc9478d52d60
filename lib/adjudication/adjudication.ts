/**
 * Adjudication: owners see the targets live reviewers disagree on (a tie, or a spread of at least the
 * target's gap: ./disagreement-among-reviewers.ts) and set a gold value with a note. Gold is keyed by
 * what was judged (lib/reviews/judgment-key.ts), so it holds for every run that scored the target; the
 * agreement report can compare the judge with it and the exports carry it.
 */
import { z } from "zod";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { NotFoundError, ValidationError } from "../errors";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import { formatValue } from "../task-modules/task-declaration";
import {
  type JudgedDeclaration,
  judgmentDeclaration,
  SCORE_TARGET_TYPE,
  UndeclaredJudgmentTargetError,
} from "../reviews/judgment-target";
import { runJudgeValueSql } from "../reviews/judgment-key";
import { outOfScale, ReviewConflictError } from "../reviews/reviews";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { framesSeenBy, keyFramesAndClusters } from "../judge/media/frame-scopes";
import { type ReviewerDisagreement, reviewerDisagreement } from "./disagreement-among-reviewers";
import { goldInputSchema, type GoldInput } from "./adjudication.validation";
import { isPrismaError, UNIQUE_VIOLATION } from "../db/prisma-errors";

const id = z.string().trim().min(1).max(64);

export const adjudicationQuerySchema = z.object({
  task: id.optional(),
  /** A declared target's id (a score's category) or a reviewed metric's id. */
  target: id.optional(),
  /** Only targets this run scored; the judge's value shown is that run's. */
  runId: id.optional(),
  /** "open": no gold yet; "settled": gold set; "all" (default). */
  state: z.enum(["all", "open", "settled"]).default("all"),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export type AdjudicationQuery = z.output<typeof adjudicationQuerySchema>;

export interface GoldView {
  value: number;
  note: string;
  adjudicator: { id: string; email: string | null };
  version: number;
  updatedAt: Date;
  history: { version: number; at: Date; by: string; before: unknown; after: unknown }[];
}

export interface AdjudicationItem {
  targetKey: string;
  task: string;
  targetType: string;
  target: string;
  /** The target's name and definition from the task's declaration, and its scale's values for the keys. */
  label: string;
  definition: string;
  scale: JudgedDeclaration["scale"];
  disagreement: ReviewerDisagreement;
  video: { id: string; path: string; prompt: string | null };
  itemId: string;
  stepId: string;
  scopeIndex: number;
  reviews: {
    reviewerId: string;
    email: string;
    value: number;
    display: string;
    note: string | null;
    acceptedJudge: boolean;
  }[];
  /** The judge's value: the named run's, else the run the latest reviewer saw; null when unknown. */
  judge: { runId: string; value: number; display: string } | null;
  /** The frames the judge saw for this target (a key frame, its cluster, or the video's key frames). */
  frames: { id: string; index: number; timestampS: number; url: string }[];
  gold: GoldView | null;
}

interface TargetRow {
  targetKey: string;
  task: string;
  targetType: string;
  target: string;
  videoId: string;
  itemId: string;
  stepId: string;
  scopeIndex: number;
  frameSetId: string;
  reviews: {
    reviewerId: string;
    value: number;
    note: string | null;
    acceptedJudge: boolean;
    runId: string | null;
    judgeValue: number | null;
  }[];
}

function declarationOf(
  catalogue: DeclarationCatalogue,
  task: string,
  targetType: string,
  target: string,
): JudgedDeclaration | null {
  const declared = catalogue.findTask(task);
  if (!declared) return null;
  try {
    return judgmentDeclaration(targetType, targetType === SCORE_TARGET_TYPE ? target : null, [declared]);
  } catch (error) {
    if (error instanceof UndeclaredJudgmentTargetError) return null;
    throw error;
  }
}

/**
 * Every target of the project that two or more live reviewers judged (label sets left out), with their reviews in
 * the order given; the query's task, target and run narrow it, and videos the caller reviews blind are left out.
 */
function reviewedTargets(
  prisma: PrismaClient,
  projectId: string,
  query: AdjudicationQuery,
  hidden: string[],
  catalogue: DeclarationCatalogue,
): Promise<TargetRow[]> {
  return prisma.$queryRaw<TargetRow[]>`
    SELECT h."targetKey", min(h."task") AS "task", min(h."targetType") AS "targetType", min(h."target") AS "target", min(h."videoId") AS "videoId",
           min(h."itemId") AS "itemId", min(h."stepId") AS "stepId", min(h."scopeIndex") AS "scopeIndex", min(h."frameSetId") AS "frameSetId",
           json_agg(json_build_object('reviewerId', h."reviewerId", 'value', h."value", 'note', h."note", 'acceptedJudge', h."acceptedJudge",
                                      'runId', h."runId", 'judgeValue', h."judgeValue") ORDER BY h."updatedAt", h."reviewerId") AS "reviews"
    FROM "human_judgment" h
    WHERE h."projectId" = ${projectId} AND NOT h."withdrawn" AND h."labelSetId" IS NULL
      ${query.task ? Prisma.sql`AND h."task" = ${query.task}` : Prisma.empty}
      ${query.target ? Prisma.sql`AND h."target" = ${query.target}` : Prisma.empty}
      ${hidden.length ? Prisma.sql`AND NOT (h."videoId" = ANY(${hidden}::text[]))` : Prisma.empty}
      ${query.runId ? Prisma.sql`AND ${runJudgeValueSql("h", Prisma.sql`${query.runId}`, catalogue.tasks)} IS NOT NULL` : Prisma.empty}
    GROUP BY h."targetKey"
    HAVING count(*) >= 2
    ORDER BY min(h."videoId"), h."targetKey"`;
}

/** The run's judge value of each target. */
async function judgeValuesInRun(
  prisma: PrismaClient,
  projectId: string,
  runId: string,
  targetKeys: string[],
  catalogue: DeclarationCatalogue,
): Promise<Map<string, number | null>> {
  const judgeInRun = new Map<string, number | null>();
  const values = await prisma.$queryRaw<{ targetKey: string; judge: number | null }[]>`
    SELECT DISTINCT ON (h."targetKey") h."targetKey", ${runJudgeValueSql("h", Prisma.sql`${runId}`, catalogue.tasks)} AS "judge"
    FROM "human_judgment" h WHERE h."projectId" = ${projectId} AND h."targetKey" = ANY(${targetKeys}::text[])
    ORDER BY h."targetKey"`;
  for (const v of values) judgeInRun.set(v.targetKey, v.judge);
  return judgeInRun;
}

/**
 * The targets of the project that live reviewers disagree on (label sets are annotators apart from
 * them), with every reviewer's value by email, the judge's value, the frames and the gold if set. For owners: the
 * caller has checked `gold.set` (the route's wrapper, the page's requirePageProjectAccess).
 */
export async function adjudicationQueue(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  query: AdjudicationQuery,
  given?: TaskCatalogue,
): Promise<{ total: number; settled: number; items: AdjudicationItem[] }> {
  const catalogue = await catalogueOf(prisma, projectId, given);
  if (query.runId) {
    const run = await prisma.judgeRun.findFirst({ where: { id: query.runId, projectId }, select: { id: true } });
    if (!run) throw new NotFoundError("No such run in this project.");
  }
  // An owner who is also reviewing a blind queue sees none of its open videos' judgments here either.
  const hidden = [...(await blindVideoIdsFor(prisma, actor.userId))];
  const rows = await reviewedTargets(prisma, projectId, query, hidden, catalogue);
  const disagreeing = rows.flatMap((row) => {
    const declaration = declarationOf(catalogue, row.task, row.targetType, row.target);
    const kind = declaration
      ? reviewerDisagreement(
          declaration,
          row.reviews.map((r) => r.value),
        )
      : null;
    return declaration && kind ? [{ row, declaration, kind }] : [];
  });
  const golds = await goldsByKey(
    prisma,
    projectId,
    disagreeing.map((d) => d.row.targetKey),
  );
  const settled = disagreeing.filter((d) => golds.has(d.row.targetKey)).length;
  const chosen = disagreeing
    .filter((d) => query.state === "all" || (query.state === "settled") === golds.has(d.row.targetKey))
    .slice(0, query.limit);

  const judgeInRun =
    query.runId && chosen.length
      ? await judgeValuesInRun(
          prisma,
          projectId,
          query.runId,
          chosen.map((c) => c.row.targetKey),
          catalogue,
        )
      : new Map<string, number | null>();
  const videoIds = [...new Set(chosen.map((c) => c.row.videoId))];
  const [videos, users] = await Promise.all([
    prisma.video.findMany({ where: { id: { in: videoIds } }, select: { id: true, relativePath: true, prompt: true } }),
    prisma.user.findMany({
      where: { id: { in: [...new Set(chosen.flatMap((c) => c.row.reviews.map((r) => r.reviewerId)))] } },
      select: { id: true, email: true },
    }),
  ]);
  const frames = await framesOf(
    prisma,
    chosen.map((c) => c.row),
    query.runId ?? null,
    catalogue,
  );
  const email = new Map(users.map((u) => [u.id, u.email]));
  const video = new Map(videos.map((v) => [v.id, v]));
  const items = chosen.map(({ row, declaration, kind }): AdjudicationItem => {
    const latestSeen = [...row.reviews].reverse().find((r) => r.runId !== null && r.judgeValue !== null);
    const judgeValue = query.runId ? (judgeInRun.get(row.targetKey) ?? null) : (latestSeen?.judgeValue ?? null);
    const judgeRun = query.runId ?? latestSeen?.runId ?? null;
    const v = video.get(row.videoId);
    return {
      targetKey: row.targetKey,
      task: row.task,
      targetType: row.targetType,
      target: row.target,
      label: declaration.label,
      definition: declaration.definition,
      scale: declaration.scale,
      disagreement: kind,
      video: { id: row.videoId, path: v?.relativePath ?? row.videoId, prompt: v?.prompt ?? null },
      itemId: row.itemId,
      stepId: row.stepId,
      scopeIndex: row.scopeIndex,
      reviews: row.reviews.map((r) => ({
        reviewerId: r.reviewerId,
        email: email.get(r.reviewerId) ?? r.reviewerId,
        value: r.value,
        display: formatValue(declaration, r.value),
        note: r.note,
        acceptedJudge: r.acceptedJudge,
      })),
      judge:
        judgeValue !== null && judgeRun
          ? { runId: judgeRun, value: judgeValue, display: formatValue(declaration, judgeValue) }
          : null,
      frames: frames.get(row.targetKey) ?? [],
      gold: golds.get(row.targetKey) ?? null,
    };
  });
  return { total: disagreeing.length, settled, items };
}

/** The frames the judge saw for each target: its frame set's key frame or cluster, else the video's key frames. */
async function framesOf(
  prisma: PrismaClient,
  rows: readonly TargetRow[],
  runId: string | null,
  catalogue: DeclarationCatalogue,
): Promise<Map<string, AdjudicationItem["frames"]>> {
  const out = new Map<string, AdjudicationItem["frames"]>();
  if (rows.length === 0) return out;
  const videoIds = [...new Set(rows.map((r) => r.videoId))];
  const runVideos = runId
    ? await prisma.runVideo.findMany({
        where: { runId, videoId: { in: videoIds } },
        select: { videoId: true, frameSetId: true },
      })
    : [];
  const latest = await prisma.frameSet.findMany({
    where: { videoId: { in: videoIds } },
    orderBy: { createdAt: "desc" },
    select: { id: true, videoId: true },
  });
  const setOf = (row: TargetRow) =>
    row.frameSetId ||
    runVideos.find((rv) => rv.videoId === row.videoId)?.frameSetId ||
    latest.find((f) => f.videoId === row.videoId)?.id ||
    null;
  const setIds = [...new Set(rows.map(setOf).filter((s): s is string => s !== null))];
  const frameRows = await prisma.frame.findMany({
    where: { frameSetId: { in: setIds }, OR: [{ isKeyFrame: true }, { cluster: { not: null } }] },
    orderBy: [{ frameSetId: "asc" }, { index: "asc" }],
    select: { id: true, frameSetId: true, index: true, timestampS: true, isKeyFrame: true, cluster: true },
  });
  const views = new Map(setIds.map((s) => [s, keyFramesAndClusters(frameRows.filter((f) => f.frameSetId === s))]));
  for (const row of rows) {
    const set = setOf(row);
    const view = set ? views.get(set) : undefined;
    if (!view) continue;
    const seen =
      row.stepId && !row.itemId
        ? framesSeenBy(view, row.stepId, row.scopeIndex, catalogue.findTask(row.task) ?? undefined).frames
        : view.keyFrames;
    out.set(
      row.targetKey,
      seen.map((f) => ({ id: f.id, index: f.index, timestampS: f.timestampS, url: `/api/v1/frames/${f.id}/image` })),
    );
  }
  return out;
}

/** The current gold of each of the targets (with its history and adjudicator's email). */
export async function goldsByKey(
  prisma: PrismaClient,
  projectId: string,
  targetKeys: readonly string[],
): Promise<Map<string, GoldView>> {
  if (targetKeys.length === 0) return new Map();
  const golds = await prisma.goldJudgment.findMany({
    where: { projectId, targetKey: { in: [...targetKeys] } },
    include: { history: { orderBy: { version: "asc" } } },
  });
  const users = await prisma.user.findMany({
    where: { id: { in: [...new Set(golds.map((g) => g.adjudicatorId))] } },
    select: { id: true, email: true },
  });
  return new Map(
    golds.map((g) => [g.targetKey, goldView(g, users.find((u) => u.id === g.adjudicatorId)?.email ?? null)]),
  );
}

type GoldRow = Prisma.GoldJudgmentGetPayload<{ include: { history: true } }>;

function goldView(g: GoldRow, email: string | null): GoldView {
  return {
    value: g.value,
    note: g.note,
    adjudicator: { id: g.adjudicatorId, email },
    version: g.version,
    updatedAt: g.updatedAt,
    history: g.history.map((h) => ({
      version: h.version,
      at: h.at,
      by: h.adjudicatorId,
      before: h.before,
      after: h.after,
    })),
  };
}

/**
 * Sets the gold value of a target reviewers judged (owners: the caller has checked `gold.set`). The first gold needs
 * no version; changing it needs the version the owner saw, so a stale edit is a 409 and nothing is overwritten.
 * Every change is appended to the gold's history.
 */
export async function setGold(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  raw: GoldInput,
  given?: TaskCatalogue,
): Promise<GoldView> {
  const catalogue = await catalogueOf(prisma, projectId, given);
  const input = goldInputSchema.parse(raw);
  const judged = await prisma.humanJudgment.findFirst({
    where: { projectId, targetKey: input.targetKey, withdrawn: false },
    select: {
      task: true,
      targetType: true,
      target: true,
      videoId: true,
      itemId: true,
      stepId: true,
      scopeIndex: true,
      frameSetId: true,
    },
  });
  if (!judged) throw new NotFoundError("No judged target with that key in this project.");
  const declaration = declarationOf(catalogue, judged.task, judged.targetType, judged.target);
  if (!declaration) throw new ValidationError(`No judge task declares the target "${judged.target}".`);
  const problem = outOfScale(declaration, input.value);
  if (problem) throw new ValidationError(problem);
  const after = { value: input.value, note: input.note };
  const email = (await prisma.user.findUnique({ where: { id: actor.userId }, select: { email: true } }))?.email ?? null;
  const gold = await prisma.$transaction(async (tx) => {
    const existing = await tx.goldJudgment.findUnique({
      where: { projectId_targetKey: { projectId, targetKey: input.targetKey } },
    });
    if (!existing) {
      if (input.expectedVersion !== undefined && input.expectedVersion !== 0)
        throw new NotFoundError("There is no gold value of this target to update.");
      try {
        const created = await tx.goldJudgment.create({
          data: { projectId, ...judged, targetKey: input.targetKey, ...after, adjudicatorId: actor.userId },
        });
        await tx.goldJudgmentHistory.create({
          data: { goldId: created.id, adjudicatorId: actor.userId, version: 1, after },
        });
        return created.id;
      } catch (error) {
        // Another owner (or tab) set the first gold at the same moment.
        if (isPrismaError(error, UNIQUE_VIOLATION)) {
          throw new ReviewConflictError(
            await prisma.goldJudgment.findUniqueOrThrow({
              where: { projectId_targetKey: { projectId, targetKey: input.targetKey } },
            }),
          );
        }
        throw error;
      }
    }
    if (input.expectedVersion === undefined) throw new ReviewConflictError(existing, "missing_version");
    if (input.expectedVersion !== existing.version) throw new ReviewConflictError(existing);
    const updated = await tx.goldJudgment.updateMany({
      where: { id: existing.id, version: existing.version },
      data: { ...after, adjudicatorId: actor.userId, version: existing.version + 1 },
    });
    if (updated.count === 0)
      throw new ReviewConflictError(await prisma.goldJudgment.findUniqueOrThrow({ where: { id: existing.id } }));
    await tx.goldJudgmentHistory.create({
      data: {
        goldId: existing.id,
        adjudicatorId: actor.userId,
        version: existing.version + 1,
        before: { value: existing.value, note: existing.note, adjudicatorId: existing.adjudicatorId },
        after,
      },
    });
    return existing.id;
  });
  return goldView(
    await prisma.goldJudgment.findUniqueOrThrow({
      where: { id: gold },
      include: { history: { orderBy: { version: "asc" } } },
    }),
    email,
  );
}
