/**
 * Adjudication of spans: owners see, per video (and judged item) and label, each reviewer's spans and the gold ones,
 * most disputed first, and set gold spans (lib/spans/gold-spans.ts). A video's reviewers are those with a span of the
 * task on it; how much they disagree on a label is 1 − the lowest frame IoU between two of them
 * (lib/spans/span-overlap.ts: a reviewer without a span of the label says it is not there). Videos the caller
 * reviews blind are left out, as in the adjudication of values.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { projectSpanLabels, spanLabelsFor } from "../spans/span-labels";
import { labelDisagreement } from "../spans/span-overlap";
import { spanRecord } from "../spans/span-store";
import type { SpanRecord } from "../spans/span-types";

const id = z.string().trim().min(1).max(200);

export const spanAdjudicationQuerySchema = z.object({
  task: id.optional(),
  videoId: id.optional(),
  /** "open": no gold span on the video yet; "settled": some; "all" (default). */
  state: z.enum(["all", "open", "settled"]).default("all"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type SpanAdjudicationQuery = z.output<typeof spanAdjudicationQuerySchema>;

export interface GoldSpanView extends SpanRecord {
  history: { version: number; at: Date; by: string; before: unknown; after: unknown }[];
}

export interface SpanAdjudicationLabel {
  label: string;
  name: string;
  disagreement: number;
  reviewers: { reviewerId: string; email: string; spans: SpanRecord[] }[];
  gold: GoldSpanView[];
}

export interface SpanAdjudicationItem {
  video: { id: string; path: string };
  task: string;
  itemId: string;
  /** The latest judge run's spans of the task on the video (null: no run marked any), shown beside the reviewers'. */
  judge: { runId: string; spans: SpanRecord[] } | null;
  /** The most disputed label's figure. */
  disagreement: number;
  labels: SpanAdjudicationLabel[];
}

type Group = { videoId: string; task: string; itemId: string; spans: SpanRecord[] };

function groupsOf(spans: readonly SpanRecord[]): Group[] {
  const groups = new Map<string, Group>();
  for (const span of spans) {
    const key = JSON.stringify([span.videoId, span.task, span.itemId]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { videoId: span.videoId, task: span.task, itemId: span.itemId, spans: [] }));
    group.spans.push(span);
  }
  return [...groups.values()].filter((g) => g.spans.some((s) => s.authorKind === "reviewer"));
}

function labelsOf(group: Group, email: Map<string, string>, names: Map<string, string>): SpanAdjudicationLabel[] {
  const reviewerIds = [...new Set(group.spans.filter((s) => s.authorKind === "reviewer").map((s) => s.authorId))];
  const labels = [...new Set(group.spans.map((s) => s.label))].sort();
  return labels.map((label) => {
    const ofLabel = group.spans.filter((s) => s.label === label);
    const reviewers = reviewerIds.map((reviewerId) => ({
      reviewerId,
      email: email.get(reviewerId) ?? reviewerId,
      spans: ofLabel.filter((s) => s.authorKind === "reviewer" && s.authorId === reviewerId),
    }));
    const { disagreement } = labelDisagreement(reviewers.map((r) => ({ rater: r.reviewerId, judge: false, ...r })));
    return {
      label,
      name: names.get(label) ?? label,
      disagreement,
      reviewers,
      gold: ofLabel.filter((s) => s.authorKind === "gold").map((s) => ({ ...s, history: [] })),
    };
  });
}

/**
 * The project's videos with reviewers' spans, most disputed first, each label with the reviewers' and gold spans. For
 * owners: the caller has checked `gold.set` (the route's wrapper, the page's requirePageProjectAccess).
 */
export async function spanAdjudication(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  query: SpanAdjudicationQuery,
  given?: TaskCatalogue,
): Promise<{ total: number; settled: number; items: SpanAdjudicationItem[] }> {
  const catalogue = await catalogueOf(prisma, projectId, given);
  const hidden = [...(await blindVideoIdsFor(prisma, actor.userId))];
  const rows = await prisma.span.findMany({
    where: {
      projectId,
      withdrawn: false,
      authorKind: { in: ["reviewer", "gold"] },
      ...(query.task ? { task: query.task } : {}),
      videoId: { ...(query.videoId ? { equals: query.videoId } : {}), ...(hidden.length ? { notIn: hidden } : {}) },
    },
    orderBy: [{ videoId: "asc" }, { startFrame: "asc" }, { endFrame: "asc" }, { id: "asc" }],
  });
  const groups = groupsOf(rows.map(spanRecord));
  const settledOf = (g: Group) => g.spans.some((s) => s.authorKind === "gold");
  const settled = groups.filter(settledOf).length;
  const chosen = groups.filter((g) => query.state === "all" || (query.state === "settled") === settledOf(g));
  const [users, videos, project] = await Promise.all([
    prisma.user.findMany({
      where: { id: { in: [...new Set(rows.filter((r) => r.authorKind === "reviewer").map((r) => r.authorId))] } },
      select: { id: true, email: true },
    }),
    prisma.video.findMany({
      where: { id: { in: [...new Set(chosen.map((g) => g.videoId))] } },
      select: { id: true, relativePath: true },
    }),
    prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { spanLabels: true } }),
  ]);
  const email = new Map(users.map((u) => [u.id, u.email]));
  const path = new Map(videos.map((v) => [v.id, v.relativePath]));
  const items = chosen
    .map((g): SpanAdjudicationItem => {
      const declared = spanLabelsFor(g.task, catalogue.declarations(), projectSpanLabels(project.spanLabels)) ?? [];
      const labels = labelsOf(g, email, new Map(declared.map((l) => [l.id, l.label])));
      return {
        video: { id: g.videoId, path: path.get(g.videoId) ?? g.videoId },
        task: g.task,
        itemId: g.itemId,
        judge: null,
        disagreement: Math.max(0, ...labels.map((l) => l.disagreement)),
        labels,
      };
    })
    .sort((a, b) => b.disagreement - a.disagreement || a.video.path.localeCompare(b.video.path))
    .slice(0, query.limit);
  await Promise.all([withGoldHistory(prisma, items), withJudgeSpans(prisma, items)]);
  return { total: groups.length, settled, items };
}

/**
 * Each shown item's judge spans: those of the latest run that marked spans of its task and item on its video (each
 * run keeps its own, so two runs' would stack; the run is named with them).
 */
async function withJudgeSpans(prisma: PrismaClient, items: SpanAdjudicationItem[]) {
  if (items.length === 0) return;
  const rows = await prisma.span.findMany({
    where: {
      authorKind: "judge",
      withdrawn: false,
      videoId: { in: [...new Set(items.map((i) => i.video.id))] },
      task: { in: [...new Set(items.map((i) => i.task))] },
    },
    include: { run: { select: { createdAt: true } } },
    orderBy: [{ startFrame: "asc" }, { endFrame: "asc" }, { id: "asc" }],
  });
  for (const item of items) {
    const ofItem = rows.filter((r) => r.videoId === item.video.id && r.task === item.task && r.itemId === item.itemId);
    const startedAt = (row: (typeof ofItem)[number]) => row.run?.createdAt.getTime() ?? 0;
    const latest = ofItem.reduce<(typeof ofItem)[number] | null>(
      (best, row) => (!best || startedAt(row) > startedAt(best) ? row : best),
      null,
    );
    if (!latest?.runId) continue;
    item.judge = {
      runId: latest.runId,
      spans: ofItem.filter((r) => r.runId === latest.runId).map(({ run: _run, ...row }) => spanRecord(row)),
    };
  }
}

/** Each shown gold span's history, oldest first (who set or changed it, from what to what). */
async function withGoldHistory(prisma: PrismaClient, items: SpanAdjudicationItem[]) {
  const gold = items.flatMap((i) => i.labels.flatMap((l) => l.gold));
  if (gold.length === 0) return;
  const history = await prisma.spanHistory.findMany({
    where: { spanId: { in: gold.map((g) => g.id) } },
    orderBy: [{ spanId: "asc" }, { version: "asc" }],
  });
  for (const span of gold)
    span.history = history
      .filter((h) => h.spanId === span.id)
      .map((h) => ({ version: h.version, at: h.at, by: h.changedBy, before: h.before, after: h.after }));
}
