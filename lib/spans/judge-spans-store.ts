/**
 * A judge run's spans, kept with the run: rows of authorKind "judge", authorId `run:<runId>` and the run's id (they
 * go when the run goes). The engine keeps each video's when the video ends (judgeVideo's close), from the answers it
 * has in hand; re-deriving a finished run reads its stored answers and replaces every judge span of the run in one
 * transaction, so a run finished before its pipeline said when gets its spans, and deriving twice gives the same rows.
 * Both hold the run's advisory lock while they replace its spans, so derives and closes at once take turns.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import type { JudgeEventSubscriber } from "../judge/engine/judge-events";
import type { PipelineDefinition } from "../task-modules/pipeline-types";
import { storedVideoAnswers } from "../judge/engine/resummarise";
import { pipelineOfRun } from "../task-modules/task-catalogue";
import type { ObjectStorage } from "../storage/object-storage";
import type { FrameTimes } from "../frames/frame-times";
import type { JudgeSpanDraft, JudgeSpanInput } from "../task-modules/judge-span-types";
import { taskSpanLabels } from "./span-labels";
import { insertSpans, type NewSpan } from "./span-store";
import { judgeAuthorId } from "./span-types";
import { secondsOf, spanProblem } from "./span-validation";
import { computeVideoFrameTimes, videoFrameTimes } from "../videos/video-frame-times";

interface Deps {
  prisma: PrismaClient;
  storage: ObjectStorage;
}

type RunRef = { id: string; projectId: string };

/** A draft the core would not keep, with why (a label the task lacks, frames outside the video). */
export interface RefusedJudgeSpan {
  videoId: string;
  draft: JudgeSpanDraft;
  reason: string;
}

/** The rows a video's drafts become, each checked as any span is; the ones that fail are refused, with the reason. */
export function judgeSpanRows(
  pipeline: Pick<PipelineDefinition, "task">,
  run: RunRef,
  videoId: string,
  drafts: readonly JudgeSpanDraft[],
  times: FrameTimes,
): { rows: NewSpan[]; refused: RefusedJudgeSpan[] } {
  const labels = taskSpanLabels(pipeline.task);
  const rows: NewSpan[] = [];
  const refused: RefusedJudgeSpan[] = [];
  for (const draft of drafts) {
    const fields = {
      task: pipeline.task.id,
      label: draft.label,
      itemId: draft.itemId ?? "",
      startFrame: draft.startFrame,
      endFrame: draft.endFrame,
      boxes: [],
      note: (draft.note ?? "").slice(0, 4000),
    };
    const problem =
      Number.isInteger(fields.startFrame) && Number.isInteger(fields.endFrame) && fields.startFrame >= 0
        ? spanProblem(fields, { times, labels })
        : `frames ${fields.startFrame}–${fields.endFrame} are not frame indices`;
    if (problem) refused.push({ videoId, draft, reason: problem });
    else
      rows.push({
        ...fields,
        ...secondsOf(fields, times),
        projectId: run.projectId,
        videoId,
        authorKind: "judge",
        authorId: judgeAuthorId(run.id),
        runId: run.id,
      });
  }
  return { rows, refused };
}

/**
 * The video's frame times, or why it has none. A worker's close computes them when the frame-times job has not stored
 * them yet (its file's packets may be unreadable); a request (re-deriving a run's) only reads the stored ones.
 */
async function timesOf(deps: Deps, videoId: string, how: "compute" | "read"): Promise<FrameTimes | string> {
  const video = await deps.prisma.video.findUnique({ where: { id: videoId }, select: { id: true, storageKey: true } });
  if (!video) return "the video is gone";
  try {
    return how === "compute" ? await computeVideoFrameTimes(deps, video) : await videoFrameTimes(deps, video);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Keeps one finished video's judge spans (replacing any the run had for it, so a video judged again keeps one set).
 * Nothing for a pipeline that does not say when. Returns the refused drafts, and why a video got none at all: that
 * reason is also kept on the run (judge_span_failure, shown on its page) until its spans are kept.
 */
export async function keepVideoJudgeSpans(
  deps: Deps,
  run: RunRef,
  videoId: string,
  pipeline: PipelineDefinition,
  answers: Omit<JudgeSpanInput, "times">,
  /** The video's frame times when the caller holds them already (the engine reads them with the job); else read here. */
  knownTimes: FrameTimes | null = null,
): Promise<{ kept: number; refused: RefusedJudgeSpan[]; unavailable: string | null }> {
  if (!pipeline.judgeSpans) return { kept: 0, refused: [], unavailable: null };
  try {
    const times = knownTimes ?? (await timesOf(deps, videoId, "compute"));
    if (typeof times === "string") {
      await recordJudgeSpanFailure(deps.prisma, run.id, videoId, times);
      return { kept: 0, refused: [], unavailable: times };
    }
    const { rows, refused } = judgeSpanRows(pipeline, run, videoId, pipeline.judgeSpans({ ...answers, times }), times);
    const kept = await deps.prisma.$transaction(
      async (tx) => {
        await lockRunJudgeSpans(tx, run.id);
        return replaceVideoJudgeSpans(tx, run.id, videoId, rows);
      },
      { timeout: 120_000 },
    );
    return { kept, refused, unavailable: null };
  } catch (error) {
    const reason = `its spans could not be kept: ${error instanceof Error ? error.message : String(error)}`;
    await recordJudgeSpanFailure(deps.prisma, run.id, videoId, reason);
    return { kept: 0, refused: [], unavailable: reason };
  }
}

/**
 * A closed video's judge spans, kept with the run. A video whose spans cannot be made (its file's frames unreadable, a
 * failed save) keeps its scores: the reason is kept on the run (judge_span_failure, counted on its page) and logged,
 * and the run's spans can be derived again.
 */
export const judgeSpanSubscriber: JudgeEventSubscriber = {
  name: "judge spans",
  wants: (kind, pipeline) => kind === "video closed" && pipeline.judgeSpans !== undefined,
  async heard(deps, event) {
    if (event.kind !== "video closed") return;
    const { run, videoId, pipeline, answers } = event;
    const log = deps.log ?? console.error;
    const kept = await keepVideoJudgeSpans(
      deps,
      run,
      videoId,
      pipeline,
      { ...answers, settings: run.settings },
      event.frameTimes,
    );
    if (kept.unavailable) log(`judge spans of video ${videoId} in run ${run.id}: none, ${kept.unavailable}`);
    for (const refused of kept.refused)
      log(`judge span of video ${videoId} in run ${run.id} refused: ${refused.reason}`);
  },
  onFailure: "logged",
};

/**
 * In one statement, after the run's lock: the video's judge spans of the run and its kept failure go, and its new
 * spans come with their first history entries (as insertSpans writes them). Every judged video's close runs it, so it
 * is one statement rather than four.
 */
async function replaceVideoJudgeSpans(
  tx: Prisma.TransactionClient,
  runId: string,
  videoId: string,
  rows: readonly NewSpan[],
): Promise<number> {
  const at = new Date().toISOString();
  const [written] = await tx.$queryRaw<{ kept: number }[]>`
    WITH dropped AS (
      DELETE FROM span WHERE "runId" = ${runId} AND "videoId" = ${videoId} AND "authorKind" = 'judge' RETURNING 1
    ), cleared AS (
      DELETE FROM judge_span_failure WHERE "runId" = ${runId} AND "videoId" = ${videoId} RETURNING 1
    ), added AS (
      INSERT INTO span (id, "projectId", "videoId", task, label, "itemId", "startFrame", "endFrame", "startS", "endS", boxes, note,
                        "authorKind", "authorId", "runId", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, s."projectId", s."videoId", s.task, s.label, s."itemId", s."startFrame", s."endFrame", s."startS", s."endS",
             s.boxes, s.note, s."authorKind"::"SpanAuthorKind", s."authorId", s."runId", ${at}::timestamp(3), ${at}::timestamp(3)
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS s("projectId" text, "videoId" text, task text, label text, "itemId" text, "startFrame" int, "endFrame" int, "startS" float8, "endS" float8,
             boxes jsonb, note text, "authorKind" text, "authorId" text, "runId" text)
      RETURNING id, label, "startFrame", "endFrame", boxes, note, "authorId"
    ), history AS (
      INSERT INTO span_history (id, "spanId", "changedBy", version, after, at)
      SELECT gen_random_uuid()::text, a.id, a."authorId", 1,
             jsonb_build_object('label', a.label, 'startFrame', a."startFrame", 'endFrame', a."endFrame", 'boxes', a.boxes, 'note', a.note),
             ${at}::timestamp(3)
      FROM added a
      RETURNING 1
    )
    SELECT count(*)::int AS kept FROM added`;
  return written?.kept ?? 0;
}

/**
 * Holds the run's judge spans until the transaction ends: a derive and each video's close delete then insert, and
 * two of them at once would each delete only what was committed before it began and both insert (a span twice).
 */
async function lockRunJudgeSpans(tx: Prisma.TransactionClient, runId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`judge_spans:${runId}`}))`;
}

/** The run keeps why one of its videos has no judge spans (the latest reason stands). */
async function recordJudgeSpanFailure(prisma: PrismaClient, runId: string, videoId: string, reason: string) {
  const kept = reason.slice(0, 2000);
  await prisma.judgeSpanFailure.upsert({
    where: { runId_videoId: { runId, videoId } },
    create: { runId, videoId, reason: kept },
    update: { reason: kept, createdAt: new Date() },
  });
}

export interface RederivedJudgeSpans {
  runId: string;
  /** Finished videos whose spans were derived. */
  videos: number;
  spans: number;
  /** Videos without spans, and why (frames unreadable). */
  skipped: { videoId: string; reason: string }[];
  refused: RefusedJudgeSpan[];
}

/** Derives a finished run's judge spans from its stored answers and replaces the run's judge spans with them. */
export async function rederiveRunJudgeSpans(deps: Deps, runId: string): Promise<RederivedJudgeSpans> {
  const run = await deps.prisma.judgeRun.findUnique({
    where: { id: runId },
    select: { id: true, projectId: true, pipeline: true, settings: true },
  });
  if (!run) throw new NotFoundError("No such run.");
  const pipeline = await pipelineOfRun(deps.prisma, run);
  if (!pipeline?.judgeSpans)
    throw new ValidationError(
      `This run's task (${pipeline?.task.label ?? run.pipeline}) does not say where in a video.`,
    );
  const done = await deps.prisma.runVideo.findMany({
    where: { runId, status: "done" },
    select: { videoId: true },
    orderBy: { videoId: "asc" },
  });
  const result: RederivedJudgeSpans = { runId, videos: 0, spans: 0, skipped: [], refused: [] };
  const rows: NewSpan[] = [];
  for (const { videoId } of done) {
    const stored = await storedVideoAnswers(deps.prisma, runId, videoId);
    const times = await timesOf(deps, videoId, "read");
    if (!stored || typeof times === "string") {
      result.skipped.push({ videoId, reason: typeof times === "string" ? times : "the run has no such video" });
      continue;
    }
    const drafts = pipeline.judgeSpans({ ...stored, settings: run.settings, times });
    const checked = judgeSpanRows(pipeline, run, videoId, drafts, times);
    rows.push(...checked.rows);
    result.refused.push(...checked.refused);
    result.videos++;
  }
  result.spans = await deps.prisma.$transaction(
    async (tx) => {
      await lockRunJudgeSpans(tx, runId);
      await tx.span.deleteMany({ where: { runId, authorKind: "judge" } });
      await tx.judgeSpanFailure.deleteMany({ where: { runId } });
      await tx.judgeSpanFailure.createMany({
        data: result.skipped.map(({ videoId, reason }) => ({ runId, videoId, reason })),
      });
      return insertSpans(tx, rows, judgeAuthorId(runId));
    },
    { timeout: 120_000 },
  );
  return result;
}

/** The owner's action on the run page: re-derive a run's judge spans, for a member who may manage the project's runs. */
export async function rederiveRunJudgeSpansAs(
  deps: Deps,
  access: ProjectAccess<"runs.manage">,
  runId: string,
): Promise<RederivedJudgeSpans> {
  const run = await deps.prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: { id: true },
  });
  if (!run) throw new NotFoundError("No such run.");
  return rederiveRunJudgeSpans(deps, runId);
}
