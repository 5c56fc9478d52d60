import type { Frame, PrismaClient, ReviewQueue, Video } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { readRunMetrics } from "../run-records/run-metrics";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { judgmentKey, presenceTarget } from "../reviews/judgment-key";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { presenceKey } from "./presence-keys";
import { localizeView } from "./localize";
import { assignedItem } from "./queue-access";
import { itemTargets, judgePresenceOf, presenceCategories, taskOfRun, type Target } from "./item-targets";
import { queueSubjects } from "./queue-types";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import type { QueueMode, QueueType } from "./queues.validation";

/**
 * The reviewer's view of one of their items: the video and its frames, the targets with their own
 * current judgments (and versions), and the judge's values only when the queue is not blind or
 * they have submitted the item (more exactly: unless they hold an unsubmitted claim on this video
 * in a blind queue). Previous/next move through their own assignments in the order they took them.
 */
export async function getQueueItem(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  itemId: string,
  given?: TaskCatalogue,
) {
  const { actor } = access;
  const { queue, item, assignment } = await assignedItem(prisma, access, queueId, itemId);
  const catalogue = await catalogueOf(prisma, queue.projectId, given);
  // Independent reads run together: a "scores" item's targets, history and progress do not wait on each other
  // (the item is read while the reviewer works on the one before, so its latency is the chain of reads).
  const taskPromise = taskOfRun(prisma, queue.runId, catalogue);
  const [blindIds, video, runVideo, targets, subjects, history, complete, task, project] = await Promise.all([
    blindVideoIdsFor(prisma, actor.userId, [item.videoId]),
    prisma.video.findUniqueOrThrow({ where: { id: item.videoId } }),
    prisma.runVideo.findUnique({ where: { runId_videoId: { runId: queue.runId, videoId: item.videoId } } }),
    taskPromise.then((known) => itemTargets(prisma, queue, item.videoId, item.itemId, known, catalogue)),
    queueSubjects(prisma, catalogue, queue, item.itemId),
    prisma.reviewQueueAssignment.findMany({
      where: { queueId, reviewerId: actor.userId },
      orderBy: [{ claimedAt: "asc" }, { itemId: "asc" }],
      select: { itemId: true, status: true },
    }),
    prisma.reviewQueueItem.count({ where: { queueId, doneCount: { gte: queue.reviewersPerItem } } }),
    taskPromise,
    prisma.project.findUniqueOrThrow({ where: { id: queue.projectId }, select: { guidelines: true } }),
  ]);
  const blind = blindIds.has(item.videoId);
  const presence = presenceCategories(task, queue);
  const presenceKeys = new Map(presence.map((c) => [c.id, judgmentKey(presenceTarget(task.id, item.videoId, c.id))]));
  const [frameSet, own, judgeMetrics] = await Promise.all([
    itemFrameSet(prisma, runVideo, item.videoId),
    ownJudgments(prisma, actor.userId, [...targets.map((t) => t.judgmentKey), ...presenceKeys.values()]),
    runVideo
      ? readRunMetrics(prisma, queue.runId, [item.videoId]).then((m) => m.get(item.videoId) ?? {})
      : Promise.resolve({} as Record<string, number>),
  ]);
  const frames = frameSet?.frames ?? [];
  const mine = new Map(own.map((j) => [j.targetKey, j]));
  const at = history.findIndex((h) => h.itemId === itemId);
  // The items the reviewer has reached: up to this one or the last they submitted, whichever is later. Claims ahead
  // (items taken for them but not opened yet) are not counted, so the label does not grow as they are made.
  const lastDone = history.findLastIndex((h) => h.status === "done");
  const reached = Math.max(at, lastDone) + 1;
  const progress = { items: queue.itemCount, complete };
  // The pipeline's own stored summary, passed through for the review screen until it reads `metrics`.
  const summary = (runVideo?.summary ?? null) as Record<string, unknown> | null;

  const payload = {
    queue: queueView(queue),
    item: { id: item.id, position: item.position },
    /** What the project's and the queue's owners ask of reviewers (Markdown; empty: none). */
    guidelines: { project: project.guidelines, queue: queue.guidelines },
    /**
     * Each item queue type's subject by its key (lib/queues/queue-type.ts), null but in its own queues: a caption
     * queue's caption (`caption`); a QA answer queue's question, options, correct answer, the model's raw answer
     * and the decision, withheld while blind (`answer`).
     */
    ...subjects.withheld(blind),
    assignment: { status: assignment.status, claimedAt: assignment.claimedAt, doneAt: assignment.doneAt },
    /** True while the judge's values are withheld from this reviewer (blind queue, not yet submitted). */
    blind,
    video: videoView(video, frames, frameSet?.parameters),
    ...(blind
      ? {}
      : {
          judgeSummary: summary,
          /** The judge's declared per-video metrics in the run, by id (null: not computed). */
          metrics: runVideo ? Object.fromEntries(task.metrics.map((m) => [m.id, judgeMetrics[m.id] ?? null])) : null,
        }),
    targets: targetViews(targets, frames, mine, blind),
    /** Queues that localise: the span task and labels the timeline marks, and which a "present" answer requires. */
    localize: queue.localize ? localizeView(task, queue) : null,
    /** Presence-first queues: the categories to mark present or absent first (presenceView); null for other queues. */
    presence: presenceView(task, presence, presenceKeys, targets, mine, blind),
    nav: {
      index: at,
      /** Their items reached so far (not the ones claimed ahead of them): "your item index + 1 of count". */
      count: reached,
      previousItemId: at > 0 ? history[at - 1]!.itemId : null,
      nextItemId: at >= 0 && at < history.length - 1 ? history[at + 1]!.itemId : null,
    },
    progress: {
      items: progress.items,
      complete: progress.complete,
      mine: { done: history.filter((h) => h.status === "done").length },
    },
  };
  // The item queue types' subjects are keyed by their scopes (`caption`, `answer`, ...): read them as the scope's own type.
  return payload as typeof payload & Record<string, unknown>;
}

/** The frame set the item is shown with: the run's for the video, else the video's latest. */
function itemFrameSet(prisma: PrismaClient, runVideo: { frameSetId: string } | null, videoId: string) {
  return runVideo
    ? prisma.frameSet.findUnique({
        where: { id: runVideo.frameSetId },
        include: { frames: { orderBy: { index: "asc" } } },
      })
    : prisma.frameSet.findFirst({
        where: { videoId },
        orderBy: { createdAt: "desc" },
        include: { frames: { orderBy: { index: "asc" } } },
      });
}

/** The reviewer's own current judgments of the given targets. */
function ownJudgments(prisma: PrismaClient, reviewerId: string, targetKeys: string[]): Promise<OwnJudgment[]> {
  return prisma.humanJudgment.findMany({
    where: { reviewerId, withdrawn: false, targetKey: { in: targetKeys } },
    select: {
      targetKey: true,
      value: true,
      note: true,
      reason: true,
      acceptedJudge: true,
      version: true,
      updatedAt: true,
    },
  });
}

/** The queue as the review screen needs it. */
function queueView(queue: ReviewQueue) {
  return {
    id: queue.id,
    projectId: queue.projectId,
    name: queue.name,
    runId: queue.runId,
    scope: queue.scope as QueueType,
    mode: queue.mode as QueueMode,
    blind: queue.blind,
    localize: queue.localize,
    reviewersPerItem: queue.reviewersPerItem,
    itemCount: queue.itemCount,
  };
}

type OwnJudgment = {
  targetKey: string;
  value: number;
  note: string | null;
  reason: string | null;
  acceptedJudge: boolean;
  version: number;
  updatedAt: Date;
};
type Task = Awaited<ReturnType<typeof taskOfRun>>;

/** Each target as the review screen shows it: its frames, the reviewer's own judgment and, unless blind, the judge's value. */
function targetViews(
  targets: readonly Target[],
  frames: readonly Pick<Frame, "id" | "index" | "cluster" | "isKeyFrame">[],
  mine: Map<string, OwnJudgment>,
  blind: boolean,
) {
  const keyFrames = frames.filter((f) => f.isKeyFrame);
  return targets.map((t) => {
    // A score's scope is declared by its target: a key frame, a key frame's cluster, or the whole video (no frames).
    const scope = t.kind === SCORE_TARGET_TYPE && "scope" in t.declaration ? t.declaration.scope : null;
    const keyFrame =
      t.scopeIndex !== null && (scope === "key_frame" || scope === "cluster") ? keyFrames[t.scopeIndex] : undefined;
    const judgment = mine.get(t.judgmentKey);
    return {
      key: t.key,
      kind: t.kind,
      label: t.label,
      required: t.required,
      min: t.min,
      max: t.max,
      category: t.category,
      stepId: t.stepId,
      scopeIndex: t.scopeIndex,
      /** The frames this score is about: its question's (VBench-2.0), its key frame (static) or the key frame's cluster (dynamic). */
      frameIndexes: t.question
        ? t.question.frameIndexes
        : keyFrame
          ? scope === "cluster"
            ? frames.filter((f) => f.cluster === keyFrame.index || f.id === keyFrame.id).map((f) => f.index)
            : [keyFrame.index]
          : [],
      /** What the score asked, in the judge's words (null: the label says it); shown blind too, it is not the judge's answer. */
      question: t.question ? { text: t.question.text, framesNote: t.question.framesNote } : null,
      mine: judgment
        ? {
            value: judgment.value,
            note: judgment.note,
            reason: judgment.reason,
            acceptedJudge: judgment.acceptedJudge,
            version: judgment.version,
            updatedAt: judgment.updatedAt,
          }
        : null,
      ...(blind ? {} : { judge: t.judgeValue }),
    };
  });
}

/**
 * Presence-first queues: the categories to mark present or absent first (each with its toggle key,
 * the score targets it covers, the reviewer's own presence judgment and, unless blind, the judge's
 * presence at the declared threshold); values are then asked only where either says present.
 */
function presenceView(
  task: Task,
  presence: ReturnType<typeof presenceCategories>,
  presenceKeys: Map<string, string>,
  targets: readonly Target[],
  mine: Map<string, OwnJudgment>,
  blind: boolean,
) {
  return presence.length
    ? {
        absentValue: task.presence!.absentValue,
        threshold: task.presence!.defaultThreshold,
        categories: presence.map((c, index) => {
          const judgment = mine.get(presenceKeys.get(c.id)!);
          return {
            id: c.id,
            key: presenceKey(index),
            label: c.label,
            definition: c.definition,
            targetKeys: targets.filter((t) => t.category === c.id).map((t) => t.key),
            mine: judgment ? { value: judgment.value, note: judgment.note, version: judgment.version } : null,
            ...(blind ? {} : { judge: judgePresenceOf(task, targets, c.id) }),
          };
        }),
      }
    : null;
}

/** The video as the review screen shows it: its file, its frames and whether they are a uniform set. */
function videoView(
  video: Pick<Video, "id" | "fileName" | "relativePath" | "prompt" | "dimensions" | "model">,
  frames: readonly Pick<Frame, "id" | "index" | "timestampS" | "isKeyFrame" | "cluster">[],
  frameSetParameters: unknown,
) {
  return {
    id: video.id,
    fileName: video.fileName,
    relativePath: video.relativePath,
    prompt: video.prompt,
    dimensions: video.dimensions,
    model: video.model,
    url: `/api/v1/videos/${video.id}/file`,
    frames: frames.map((f) => ({
      id: f.id,
      index: f.index,
      timestampS: f.timestampS,
      isKeyFrame: f.isKeyFrame,
      cluster: f.cluster,
      url: `/api/v1/frames/${f.id}/image`,
    })),
    /** Whether the frames are a uniform set: frames at their times, with no key frames or clusters. */
    uniformFrames: (frameSetParameters as { mode?: unknown } | null)?.mode === "uniform",
  };
}
