/**
 * What a human judgment is about, independent of any run: the task, the subject (a video, or an item
 * of it), the target (a declared target or a reviewed metric) and, for scores of a video subject, the
 * scope (the step and its index; for key-frame and cluster scopes, the frame set too, since another
 * frame set's "key frame 2" is another picture). Every run that scored the same target is compared
 * with the same judgment, and labels no run produced can be stored the same way. A task whose subject is
 * one run's output (`subjectPerRun`: a QA run's answer to a question) keys it with that run too, since two
 * models' answers to one question are two things to judge.
 */
import { Prisma } from "../generated/prisma/client";
import { PRESENCE_TARGET_TYPE, type TaskDeclaration } from "../task-modules/task-declaration";
import { SCORE_TARGET_TYPE } from "./judgment-target";

export interface JudgmentTarget {
  task: string;
  targetType: string;
  target: string;
  videoId: string;
  itemId: string;
  stepId: string;
  scopeIndex: number;
  frameSetId: string;
  /** The run whose output is judged, for `subjectPerRun` tasks ('' or absent otherwise). */
  subjectRunId?: string;
}

/**
 * One string per target (the migration `judgments_by_subject` builds the same from the columns):
 * `<task>|v:<video>[|i:<item>][|r:<run whose answer>]|<target>[@<step>:<index>][#<frame set>]`.
 */
export function judgmentKey(t: JudgmentTarget): string {
  let key = `${t.task}|v:${t.videoId}`;
  if (t.itemId) key += `|i:${t.itemId}`;
  if (t.subjectRunId) key += `|r:${t.subjectRunId}`;
  key += `|${t.target}`;
  if (t.stepId && !t.itemId) key += `@${t.stepId}:${t.scopeIndex}`;
  if (t.frameSetId) key += `#${t.frameSetId}`;
  return key;
}

/** What a score's key reads of its run's task: whether its subject is one run's output, and its steps' scopes. */
export type ScoreKeyTask = Pick<TaskDeclaration, "subjectPerRun" | "stepScopes">;

/** Steps whose scope is a key frame or a cluster of the run's frame set (the task declares each step's scope). */
function isFrameScoped(task: ScoreKeyTask | null, stepId: string): boolean {
  const scope = task?.stepScopes?.[stepId];
  return scope === "key_frame" || scope === "cluster";
}

/**
 * The target of a judge score of a run (`frameSetId`: the run's frame set of the score's video), with the run's
 * task (null for a pipeline no task declares). The score's `runId` is needed for tasks whose subject is a run's
 * output (`subjectPerRun`).
 */
export function scoreTarget(
  pipeline: string,
  score: { videoId: string; itemId: string; stepId: string; scopeIndex: number; category: string; runId?: string },
  frameSetId: string,
  task: ScoreKeyTask | null,
): JudgmentTarget {
  // An item step's scope index is the item's position in one run; the item itself is the subject.
  const itemScoped = score.itemId !== "";
  const perRun = task?.subjectPerRun === true;
  if (perRun && !score.runId)
    throw new Error(`A ${pipeline} judgment is about one run's answer: the score's runId is needed for its key.`);
  return {
    ...(perRun ? { subjectRunId: score.runId } : {}),
    task: pipeline,
    targetType: SCORE_TARGET_TYPE,
    target: score.category,
    videoId: score.videoId,
    itemId: score.itemId,
    stepId: score.stepId,
    scopeIndex: itemScoped ? 0 : score.scopeIndex,
    frameSetId: !itemScoped && isFrameScoped(task, score.stepId) ? frameSetId : "",
  };
}

/** The target of a subject's reviewed metric (a video's verdict, an item's style score). */
export function metricTarget(pipeline: string, videoId: string, itemId: string, metric: string): JudgmentTarget {
  return {
    task: pipeline,
    targetType: metric,
    target: metric,
    videoId,
    itemId,
    stepId: "",
    scopeIndex: 0,
    frameSetId: "",
  };
}

/** The target of a per-video presence judgment of one of the task's graded targets (`<task>|v:<videoId>|<target>`). */
export function presenceTarget(task: string, videoId: string, target: string): JudgmentTarget {
  return {
    task,
    targetType: PRESENCE_TARGET_TYPE,
    target,
    videoId,
    itemId: "",
    stepId: "",
    scopeIndex: 0,
    frameSetId: "",
  };
}

/**
 * SQL: the presence threshold of the judgment `h`'s task (judgePresence: its highest score of the category at
 * least this), from the declarations of `tasks` (the request's catalogue); NULL for a task without presence.
 */
function presenceThresholdSql(h: string, tasks: readonly TaskDeclaration[]): Prisma.Sql {
  const j = Prisma.raw(`"${h}"`);
  const withPresence = tasks.filter((task) => task.presence);
  if (withPresence.length === 0) return Prisma.sql`NULL`;
  return Prisma.sql`(CASE ${j}."task" ${Prisma.join(
    withPresence.map((task) => Prisma.sql`WHEN ${task.id} THEN ${task.presence!.defaultThreshold}::float8`),
    " ",
  )} END)`;
}

/**
 * SQL for a run's judge value of the judgment `h` (an alias of human_judgment): the run's score at
 * the same scope, or its metric of the same id; NULL when the run did not judge that target.
 */
export function runJudgeValueSql(h: string, runId: Prisma.Sql, tasks: readonly TaskDeclaration[]): Prisma.Sql {
  const j = Prisma.raw(`"${h}"`);
  return Prisma.sql`(CASE WHEN ${j}."targetType" = ${PRESENCE_TARGET_TYPE} THEN (
      SELECT CASE WHEN max(s."value") IS NULL THEN NULL WHEN max(s."value") >= ${presenceThresholdSql(h, tasks)} THEN 1 ELSE 0 END
      FROM "score" s WHERE s."runId" = ${runId} AND s."videoId" = ${j}."videoId" AND s."category" = ${j}."target" AND s."itemId" = ''
    ) WHEN ${j}."stepId" = '' THEN (
      SELECT m."value" FROM "run_metric" m WHERE m."runId" = ${runId} AND m."videoId" = ${j}."videoId" AND m."itemId" = ${j}."itemId" AND m."metric" = ${j}."target"
    ) ELSE (
      SELECT s."value" FROM "score" s
      WHERE s."runId" = ${runId} AND s."videoId" = ${j}."videoId" AND s."stepId" = ${j}."stepId" AND s."category" = ${j}."target" AND s."itemId" = ${j}."itemId"
        AND (${j}."itemId" <> '' OR s."scopeIndex" = ${j}."scopeIndex")
        AND (${j}."frameSetId" = '' OR EXISTS (SELECT 1 FROM "run_video" rv WHERE rv."runId" = s."runId" AND rv."videoId" = s."videoId" AND rv."frameSetId" = ${j}."frameSetId"))
        AND (${j}."subjectRunId" = '' OR ${j}."subjectRunId" = s."runId")
      LIMIT 1
    ) END)`;
}

/**
 * SQL: the judgment `h` disagrees with the run's value of its target (by at least its gap). A judgment
 * last saved against this run kept that answer (`disagrees`; a run's values never change), so only the
 * others look the run's value up.
 */
export function disagreesInRun(h: string, runId: Prisma.Sql, tasks: readonly TaskDeclaration[]): Prisma.Sql {
  const j = Prisma.raw(`"${h}"`);
  return Prisma.sql`(CASE WHEN ${j}."runId" = ${runId} THEN ${j}."disagrees" ELSE abs(${j}."value" - ${runJudgeValueSql(h, runId, tasks)}) >= ${j}."gap" - 1e-9 END)`;
}
