/**
 * What an ensemble run shows (issue 26): its members with the cost of each (the cost per sample or per
 * judge), per target the agreement among the members (Krippendorff's α at the target's level) and how many
 * scores are unstable, and on a video page each member's value and reason beside the combined one.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import { callCountsByRun, runCallTotals } from "../judge/runs/runs";
import { krippendorffAlpha } from "../stats/krippendorff-alpha";
import { buildRatingTable, type RatingRow } from "../stats/rating-table";
import { catalogFor } from "../task-modules/task-catalogue";
import { unstableAtOf } from "../task-modules/task-declaration";
import { isBlindFor } from "../visibility/judge-visibility";
import { meanAbsoluteError } from "../stats/error-metrics";
import { combineValues } from "./combine-values";
import { ensembleSettingsOf } from "../judge/runs/ensemble-settings";

export interface MemberValue {
  memberIndex: number;
  runId: string;
  value: number;
  reason: string | null;
}

/** The run in the access's project: a run of another project is "No such run.", as one that does not exist. */
async function ensembleRunFor(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: {
      id: true,
      projectId: true,
      pipeline: true,
      status: true,
      ensemble: true,
      members: {
        orderBy: { memberIndex: "asc" },
        select: {
          id: true,
          memberIndex: true,
          status: true,
          sampling: true,
          endpointSnapshot: true,
          endpoint: { select: { name: true, model: true } },
        },
      },
    },
  });
  if (!run) throw new NotFoundError("No such run.");
  return run;
}

/** Each member's endpoint, temperature, status, calls and cost (its calls' totals as a plain run's). */
async function ensembleMembers(
  prisma: PrismaClient,
  runMembers: Awaited<ReturnType<typeof ensembleRunFor>>["members"],
) {
  const memberIds = runMembers.map((m) => m.id);
  const calls = await callCountsByRun(prisma, memberIds);
  return runMembers.map((m) => {
    const totals = runCallTotals(calls.get(m.id)!, m.status === "queued" || m.status === "running");
    const snapshot = m.endpointSnapshot as { temperature?: number | null };
    const sampling = m.sampling as { temperature?: number | null; salt?: string | null } | null;
    return {
      runId: m.id,
      memberIndex: m.memberIndex ?? 0,
      status: m.status,
      endpoint: m.endpoint,
      temperature: sampling?.temperature ?? snapshot.temperature ?? null,
      calls: totals.calls.total,
      costUsd: totals.costUsd,
      costUsdAtLeast: totals.costUsdAtLeast,
    };
  });
}

/**
 * An ensemble run's members (endpoint, temperature, status, calls and cost of each) and, per target, the
 * members' agreement (α over every combined score, members as raters), the mean SD and how many scores are
 * unstable. Null for a plain run. Aggregates only, no single video's judge value, computed from every video
 * whoever looks (a blind reviewer's videos included), so the numbers never depend on who reads them.
 */
export async function ensembleRunReport(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const run = await ensembleRunFor(prisma, access, runId);
  const settings = ensembleSettingsOf(run.ensemble);
  if (!settings) return null;
  const members = await ensembleMembers(prisma, run.members);
  const rows = await prisma.scoreDispersion.findMany({
    where: { runId },
    select: {
      videoId: true,
      itemId: true,
      stepId: true,
      scopeIndex: true,
      category: true,
      value: true,
      sd: true,
      unstable: true,
      members: true,
    },
  });
  const task = (await catalogFor(prisma, run.projectId)).findTask(run.pipeline);
  const humans = await humanConsensus(prisma, run.projectId, run.pipeline, rows);
  const categories = [...new Set(rows.map((r) => r.category))];
  const targets = categories.map((category) => {
    const declared = task?.targets.find((t) => t.id === category);
    const own = rows.filter((r) => r.category === category);
    const ratings: RatingRow[] = own.flatMap((r) =>
      (r.members as unknown as MemberValue[]).map((m) => ({
        item: `${r.videoId}|${r.stepId}|${r.scopeIndex}`,
        rater: String(m.memberIndex),
        value: m.value,
      })),
    );
    const level = declared?.level ?? "interval";
    const alpha = ratings.length ? krippendorffAlpha(buildRatingTable(ratings), level) : null;
    // Each member's agreement with the humans beside the combined value's, on the scores people judged.
    const judged = own.flatMap((r) => {
      const human = humans.get(unitKey(r));
      return human === undefined ? [] : [{ human, combined: r.value, members: r.members as unknown as MemberValue[] }];
    });
    const withHumans = (values: { human: number; judge: number }[]) => ({
      pairs: values.length,
      alpha: values.length
        ? krippendorffAlpha(
            buildRatingTable(
              values.flatMap((v, i) => [
                { item: String(i), rater: "humans", value: v.human },
                { item: String(i), rater: "judge", value: v.judge },
              ]),
            ),
            level,
          )
        : null,
      mae:
        values.length && declared?.scale.kind !== "categorical"
          ? meanAbsoluteError(
              values.map((v) => v.judge),
              values.map((v) => v.human),
            )
          : null,
    });
    return {
      target: category,
      label: declared?.label ?? category,
      level: declared?.level ?? "interval",
      scores: own.length,
      unstable: own.filter((r) => r.unstable).length,
      unstableAt: declared ? unstableAtOf(declared) : null,
      meanSd: own.length ? own.reduce((sum, r) => sum + r.sd, 0) / own.length : null,
      /** Agreement among the members (samples or judges) on this target; null when undefined (no variation, too few values). */
      alpha,
      /**
       * Agreement with people (α between the reviewers' consensus and the judge, and MAE on a numeric scale) of the
       * combined value and of each member alone, over the scores people judged (null α: fewer than two pairs or no variation).
       */
      humans: {
        combined: withHumans(judged.map((j) => ({ human: j.human, judge: j.combined }))),
        members: run.members.map((m, index) => ({
          memberIndex: m.memberIndex ?? index,
          ...withHumans(
            judged.flatMap((j) =>
              j.members.filter((v) => v.runId === m.id).map((v) => ({ human: j.human, judge: v.value })),
            ),
          ),
        })),
      },
    };
  });
  const costs = members.map((m) => m.costUsd);
  return {
    runId: run.id,
    ...settings,
    members,
    /** The whole ensemble's cost: every member's; null when a member's calls lacked usage. */
    costUsd: costs.every((c) => c !== null) ? costs.reduce((a, b) => a! + b!, 0) : null,
    targets,
  };
}

const unitKey = (r: { videoId: string; itemId: string; stepId: string; scopeIndex: number; category: string }) =>
  `${r.videoId}|${r.itemId}|${r.stepId}|${r.scopeIndex}|${r.category}`;

/**
 * The people's value of each score of the run's videos: their consensus (as the target's level declares: mean,
 * median or majority) over reviewers and label sets. Left out: withdrawn judgments, values taken from a judge
 * with "accept" (not independent of it) and values implied by absence. Every video counts, blind to the caller or
 * not: only aggregates of them leave here.
 */
async function humanConsensus(
  prisma: PrismaClient,
  projectId: string,
  pipeline: string,
  rows: readonly { videoId: string; itemId: string; stepId: string; scopeIndex: number; category: string }[],
): Promise<Map<string, number>> {
  const videoIds = [...new Set(rows.map((r) => r.videoId))];
  if (videoIds.length === 0) return new Map();
  const judgments = await prisma.humanJudgment.findMany({
    where: {
      projectId,
      task: pipeline,
      targetType: "score",
      videoId: { in: videoIds },
      withdrawn: false,
      acceptedJudge: false,
      origin: "typed",
    },
    select: { videoId: true, itemId: true, stepId: true, scopeIndex: true, target: true, value: true },
  });
  const byUnit = new Map<string, number[]>();
  for (const j of judgments) {
    const key = unitKey({ ...j, category: j.target });
    byUnit.set(key, [...(byUnit.get(key) ?? []), j.value]);
  }
  const task = (await catalogFor(prisma, projectId)).findTask(pipeline);
  const consensus = new Map<string, number>();
  for (const [key, values] of byUnit) {
    const category = key.slice(key.lastIndexOf("|") + 1);
    const target = task?.targets.find((t) => t.id === category);
    const combined = target
      ? combineValues(target, values, "declared")
      : { value: values.reduce((a, b) => a + b, 0) / values.length };
    if (combined) consensus.set(key, combined.value);
  }
  return consensus;
}

/**
 * One video's combined scores in an ensemble run with each member's value and reason, the dispersion and the
 * unstable flag; withheld (blind: true, no rows) from a reviewer for whom the video is blind.
 */
export async function videoEnsembleValues(prisma: PrismaClient, access: ProjectAccess, runId: string, videoId: string) {
  const run = await ensembleRunFor(prisma, access, runId);
  const settings = ensembleSettingsOf(run.ensemble);
  if (!settings) return null;
  if (await isBlindFor(prisma, access.actor.userId, videoId))
    return { kind: settings.kind, combine: settings.combine, blind: true, scores: [] };
  const rows = await prisma.scoreDispersion.findMany({
    where: { runId, videoId },
    orderBy: [{ stepId: "asc" }, { scopeIndex: "asc" }, { category: "asc" }],
  });
  return {
    kind: settings.kind,
    combine: settings.combine,
    blind: false,
    scores: rows.map((r) => ({
      stepId: r.stepId,
      scopeIndex: r.scopeIndex,
      itemId: r.itemId,
      category: r.category,
      value: r.value,
      n: r.n,
      sd: r.sd,
      range: r.range,
      entropy: r.entropy,
      unstable: r.unstable,
      members: r.members as unknown as MemberValue[],
    })),
  };
}

/** A member run's ensemble (its parent and place), or null; the caller has checked access to the run. */
export async function ensembleMembershipOf(prisma: PrismaClient, runId: string) {
  const run = await prisma.judgeRun.findUnique({
    where: { id: runId },
    select: { parentRunId: true, memberIndex: true, parent: { select: { ensemble: true } } },
  });
  const settings = ensembleSettingsOf(run?.parent?.ensemble);
  return run?.parentRunId && settings
    ? { parentRunId: run.parentRunId, memberIndex: run.memberIndex ?? 0, kind: settings.kind }
    : null;
}
