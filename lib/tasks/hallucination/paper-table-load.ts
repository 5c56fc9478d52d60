import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { INCONSISTENCY_CATEGORY } from "./schemas";
import { labelSetReviewerId } from "../../label-sets/label-set-reviewer";
import { PRESENCE_TARGET_TYPE } from "../../label-sets/label-sets";
import { requireWholeView } from "../../visibility/withheld";
import { anyPresent, judgePresence, type CategoryScore } from "../../calibration/judge-presence";
import { DYNAMIC_IDS, STATIC_IDS, paperTable, type CalibrationVideo, type PaperTable } from "./paper-table";
import type { PaperTableQuery } from "../../calibration/calibration.validation";

const TASK = "hallucination";
const DEFAULT_PRESENCE_THRESHOLD = 5;

/** The threshold the run itself used for "a score this high is a hallucination" (its max_category verdict), else the task's 5. */
export function runPresenceThreshold(settings: unknown): number {
  const verdict = (settings as { verdict?: { on?: string; threshold?: unknown } } | null)?.verdict;
  return verdict?.on === "max_category" && typeof verdict.threshold === "number"
    ? verdict.threshold
    : DEFAULT_PRESENCE_THRESHOLD;
}

export interface CalibrationReport {
  labelSet: {
    id: string;
    name: string;
    fileName: string;
    sha256: string;
    citation: string;
    annotator: string | null;
    annotators: string[];
  };
  run: { id: string; pipeline: string; createdAt: Date; endpoint: string; model: string };
  /** The judge's presence threshold used for prompt consistency, static, dynamic and the categories. */
  threshold: number;
  /** Videos with labels and a judged result; labelled videos the run did not judge are left out. */
  videos: number;
  labelledNotJudged: number;
  table: PaperTable;
}

/** Per video, the label set's presence labels read into the table's rows. */
function labelRows(labels: Map<string, number>): Record<string, boolean | null> {
  const get = (target: string) => (labels.has(target) ? labels.get(target) === 1 : null);
  const row: Record<string, boolean | null> = {
    verdict: get("verdict"),
    prompt: get(`${PRESENCE_TARGET_TYPE}:${INCONSISTENCY_CATEGORY}`),
  };
  for (const id of [...STATIC_IDS, ...DYNAMIC_IDS]) row[id] = get(`${PRESENCE_TARGET_TYPE}:${id}`);
  row.static = anyPresent(STATIC_IDS.map((id) => row[id]));
  row.dynamic = anyPresent(DYNAMIC_IDS.map((id) => row[id]));
  return row;
}

function judgeRows(
  scores: readonly CategoryScore[],
  verdict: number | undefined,
  t: number,
): Record<string, boolean | null> {
  const row: Record<string, boolean | null> = {
    // The run's own verdict, by its own rule: the table reports the setup as it was run.
    verdict: verdict === undefined ? null : verdict === 1,
    prompt: judgePresence(scores, INCONSISTENCY_CATEGORY, t),
  };
  for (const id of [...STATIC_IDS, ...DYNAMIC_IDS]) row[id] = judgePresence(scores, id, t);
  row.static = anyPresent(STATIC_IDS.map((id) => row[id]));
  row.dynamic = anyPresent(DYNAMIC_IDS.map((id) => row[id]));
  return row;
}

/** The paper's table for a label set (one annotator of it) against a hallucination run of the same project. */
export async function calibrationReport(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  query: Omit<PaperTableQuery, "format">,
): Promise<CalibrationReport> {
  const { actor, projectId } = access;
  const labelSet = await prisma.labelSet.findFirst({ where: { id: query.labelSetId, projectId } });
  if (!labelSet) throw new NotFoundError("No such label set in this project.");
  const run = await prisma.judgeRun.findFirst({
    where: { id: query.runId, projectId },
    include: { endpoint: { select: { name: true, model: true } } },
  });
  if (!run) throw new NotFoundError("No such run in this project.");
  if (run.pipeline !== TASK)
    throw new ValidationError(`The paper's table compares hallucination runs; this run is a "${run.pipeline}" run.`);
  let annotator: string | null = null;
  if (labelSet.annotators.length > 0) {
    annotator = query.annotator ?? labelSet.annotators[0]!;
    if (!labelSet.annotators.includes(annotator))
      throw new ValidationError(
        `The label set has no annotator "${annotator}"; it has ${labelSet.annotators.join(", ")}.`,
      );
  } else if (query.annotator) {
    throw new ValidationError("This label set is one annotator: leave `annotator` out.");
  }
  const threshold = query.threshold ?? runPresenceThreshold(run.settings);

  const judgments = await prisma.humanJudgment.findMany({
    where: {
      labelSetId: labelSet.id,
      reviewerId: labelSetReviewerId(labelSet.id, annotator),
      task: TASK,
      itemId: "",
      withdrawn: false,
    },
    select: { videoId: true, targetType: true, target: true, value: true },
  });
  const labelsByVideo = new Map<string, Map<string, number>>();
  for (const j of judgments) {
    const key = j.targetType === PRESENCE_TARGET_TYPE ? `${PRESENCE_TARGET_TYPE}:${j.target}` : j.targetType;
    const labels = labelsByVideo.get(j.videoId) ?? new Map<string, number>();
    labels.set(key, j.value);
    labelsByVideo.set(j.videoId, labels);
  }
  const labelled = [...labelsByVideo.keys()];
  // The table is computed from every labelled video, or withheld while the caller reviews one of them blind.
  await requireWholeView(prisma, actor.userId, labelled, "This calibration table");
  const runVideos = await prisma.runVideo.findMany({
    where: { runId: run.id, videoId: { in: labelled }, status: "done" },
    select: { videoId: true, video: { select: { model: true } } },
  });
  const judgedIds = runVideos.map((rv) => rv.videoId);
  const [scores, verdicts] = await Promise.all([
    prisma.score.findMany({
      where: { runId: run.id, videoId: { in: judgedIds }, itemId: "" },
      select: { videoId: true, category: true, value: true },
    }),
    prisma.runMetric.findMany({
      where: { runId: run.id, videoId: { in: judgedIds }, itemId: "", metric: "verdict" },
      select: { videoId: true, value: true },
    }),
  ]);
  const scoresByVideo = new Map<string, CategoryScore[]>();
  for (const s of scores) {
    const list = scoresByVideo.get(s.videoId) ?? [];
    list.push(s);
    scoresByVideo.set(s.videoId, list);
  }
  const verdictByVideo = new Map(verdicts.map((v) => [v.videoId, v.value]));
  const videos: CalibrationVideo[] = runVideos.map((rv) => ({
    videoId: rv.videoId,
    model: rv.video.model,
    label: labelRows(labelsByVideo.get(rv.videoId)!),
    judge: judgeRows(scoresByVideo.get(rv.videoId) ?? [], verdictByVideo.get(rv.videoId), threshold),
  }));
  const snapshot = run.endpointSnapshot as { name?: string; model?: string } | null;
  return {
    labelSet: {
      id: labelSet.id,
      name: labelSet.name,
      fileName: labelSet.fileName,
      sha256: labelSet.sha256,
      citation: labelSet.citation,
      annotator,
      annotators: labelSet.annotators,
    },
    run: {
      id: run.id,
      pipeline: run.pipeline,
      createdAt: run.createdAt,
      endpoint: snapshot?.name ?? run.endpoint.name,
      model: snapshot?.model ?? run.endpoint.model,
    },
    threshold,
    videos: videos.length,
    labelledNotJudged: labelled.length - videos.length,
    table: paperTable(videos, { seed: query.seed, iterations: query.iterations }),
  };
}
