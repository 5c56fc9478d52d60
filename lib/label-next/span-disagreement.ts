import type { PrismaClient } from "../generated/prisma/client";
import { labelDisagreement, type LabelDisagreement, type RaterSpans } from "../spans/span-overlap";
import { judgeAuthorId } from "../spans/span-types";

/**
 * "What to label next" for spans: the run's videos where the raters of where disagree most, for a localising queue to
 * settle. Spans count like values: for each label of the run's task that the video's raters were asked (a localising
 * queue of chosen categories asks those, and a reviewer's own span asks its label), the raters of a video are the
 * run's judge (when the run marks spans at all) and each reviewer who localised it (marked a span of the task on it,
 * or submitted it in a localising queue of the run); a label's disagreement is 1 − the lowest frame IoU between two raters (a rater
 * without spans of it says it is not there), or 1 when the judge marks it and no reviewer does. A video ranks by its
 * most disputed label, then by how many labels are disputed. Computed from every video of the run: the caller
 * (labelNextPlan) has made sure the owner sees them all.
 */
export interface SpanDisagreementVideo {
  id: string;
  relativePath: string;
  /** The most disputed label's figure, 0–1. */
  disagreement: number;
  label: string;
  reason: LabelDisagreement["reason"];
  /** Labels with any disagreement. */
  disputedLabels: number;
  /** Reviewers who localised the video. */
  reviewers: number;
}

export interface SpanDisagreementRanking {
  /** Videos of the run with a span by anyone. */
  withSpans: number;
  /** Videos some reviewer localised. */
  localised: number;
  /** Disputed videos, most disputed first, at most the budget. */
  videos: SpanDisagreementVideo[];
}

interface SpanRow {
  videoId: string;
  label: string;
  startFrame: number;
  endFrame: number;
  judge: boolean;
  authorId: string;
}

/** A reviewer who submitted the video in a localising queue of the run, and the labels that queue asked. */
interface Localiser {
  videoId: string;
  reviewerId: string;
  scope: string;
  categories: string[];
}

/**
 * One video's raters and spans. `asked`: the labels its localising queues asked (a queue of chosen score categories
 * asks those; any other asks every label) and the labels its reviewers marked; null when every label counts (a queue
 * asked them all, or no queue asked anything: the judge's spans stand unchecked).
 */
interface VideoRaters {
  reviewers: Set<string>;
  spans: SpanRow[];
  asked: Set<string> | null;
}

/** Per video: each rater's spans by label (the judge's too), who localised it, and which labels they were asked. */
function ratersByVideo(spans: readonly SpanRow[], localisers: readonly Localiser[]) {
  const videos = new Map<string, VideoRaters & { queued: boolean }>();
  const of = (videoId: string) => {
    let video = videos.get(videoId);
    if (!video) videos.set(videoId, (video = { reviewers: new Set(), spans: [], asked: new Set(), queued: false }));
    return video;
  };
  for (const l of localisers) {
    const video = of(l.videoId);
    video.reviewers.add(l.reviewerId);
    video.queued = true;
    if (l.scope !== "scores" || l.categories.length === 0) video.asked = null;
    else for (const category of l.categories) video.asked?.add(category);
  }
  for (const s of spans) {
    const video = of(s.videoId);
    video.spans.push(s);
    if (!s.judge) {
      video.reviewers.add(s.authorId);
      video.asked?.add(s.label);
    }
  }
  for (const video of videos.values()) if (!video.queued) video.asked = null;
  return videos;
}

/** The most disputed label of one video among the labels its raters were asked, and how many are disputed. */
function videoDisagreement(
  video: VideoRaters,
  judge: string | null,
): { label: string; result: LabelDisagreement; disputed: number } | null {
  const asked = video.asked;
  const labels = [...new Set(video.spans.map((s) => s.label))].filter((l) => !asked || asked.has(l)).sort();
  const raters = [...video.reviewers].sort().map((id) => ({ id, judge: false }));
  if (judge) raters.unshift({ id: judge, judge: true });
  let top: { label: string; result: LabelDisagreement } | null = null;
  let disputed = 0;
  for (const label of labels) {
    const ofLabel = video.spans.filter((s) => s.label === label);
    const rated: RaterSpans[] = raters.map((r) => ({
      rater: r.id,
      judge: r.judge,
      spans: ofLabel.filter((s) => s.authorId === r.id),
    }));
    const result = labelDisagreement(rated);
    if (result.disagreement > 0) disputed++;
    if (!top || result.disagreement > top.result.disagreement) top = { label, result };
  }
  return top && top.result.disagreement > 0 ? { ...top, disputed } : null;
}

export async function spanDisagreementOfRun(
  prisma: PrismaClient,
  run: { id: string; projectId: string; pipeline: string },
  budget: number,
): Promise<SpanDisagreementRanking> {
  const judge = judgeAuthorId(run.id);
  const [spans, localisers, paths] = await Promise.all([
    prisma.$queryRaw<SpanRow[]>`
      SELECT s."videoId", s.label, s."startFrame", s."endFrame", s."authorKind" = 'judge' AS judge, s."authorId"
      FROM span s JOIN run_video rv ON rv."videoId" = s."videoId" AND rv."runId" = ${run.id}
      WHERE s."projectId" = ${run.projectId} AND s.task = ${run.pipeline} AND NOT s.withdrawn
        AND (s."authorKind" = 'reviewer' OR (s."authorKind" = 'judge' AND s."authorId" = ${judge}))`,
    prisma.$queryRaw<Localiser[]>`
      SELECT DISTINCT i."videoId", a."reviewerId", q.scope, q.categories
      FROM review_queue_assignment a
      JOIN review_queue_item i ON i.id = a."itemId"
      JOIN review_queue q ON q.id = a."queueId"
      WHERE q."runId" = ${run.id} AND q.localize AND a.status = 'done'`,
    prisma.$queryRaw<{ id: string; relativePath: string }[]>`
      SELECT v.id, v."relativePath" FROM run_video rv JOIN video v ON v.id = rv."videoId" WHERE rv."runId" = ${run.id}`,
  ]);
  const judgeRates = spans.some((s) => s.judge) ? judge : null;
  const videos = ratersByVideo(spans, localisers);
  const pathOf = new Map(paths.map((p) => [p.id, p.relativePath]));
  const ranked: SpanDisagreementVideo[] = [];
  for (const [videoId, video] of videos) {
    const top = videoDisagreement(video, judgeRates);
    if (!top) continue;
    ranked.push({
      id: videoId,
      relativePath: pathOf.get(videoId) ?? videoId,
      disagreement: top.result.disagreement,
      label: top.label,
      reason: top.result.reason,
      disputedLabels: top.disputed,
      reviewers: video.reviewers.size,
    });
  }
  ranked.sort(
    (a, b) =>
      b.disagreement - a.disagreement ||
      b.disputedLabels - a.disputedLabels ||
      a.relativePath.localeCompare(b.relativePath),
  );
  return {
    withSpans: new Set(spans.map((s) => s.videoId)).size,
    localised: [...videos.values()].filter((v) => v.reviewers.size > 0).length,
    videos: ranked.slice(0, budget),
  };
}
