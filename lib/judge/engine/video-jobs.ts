/**
 * A video's job as the engine reads it (the run, the video's fields as judged, its frames and items) and the
 * planning of its steps: each in one statement for every video asking at once (see JudgeStore).
 *
 * Every statement here may run twice (lib/db/reconnecting-adapter.ts): planning leaves the same rows the second time.
 */
import type { Prisma, PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { ClipRef, FrameRef, ItemRef, ScoreValue } from "../../task-modules/pipeline-types";
import { inputModeOf, type InputMode } from "../input-modes";
import { directRows } from "../../db/direct-sql";
import type { FrameTimes } from "../../frames/frame-times";

/** A prompt version the run renders instead of the shipped template (see lib/prompt-versions). */
export interface PromptVersionRef {
  text: string;
  hash: string;
}

/** A self-consistency sample run's own temperature (over its endpoint's) and response-cache salt (judge_run.sampling). */
export interface RunSampling {
  temperature?: number | null;
  salt?: string | null;
}

export interface JobRow {
  /** `promptVersions`: the run's edited templates by template id; any other template renders the shipped file. */
  run: {
    pipeline: string;
    /** The run's project: the only project whose frames a prompt version's few-shot examples may show. */
    projectId: string;
    status: string;
    settings: unknown;
    promptVersions: Record<string, PromptVersionRef>;
    batchMode: boolean;
    sampling: RunSampling | null;
    parentRunId: string | null;
    /** How the run shows videos to the judge (lib/judge/input-modes.ts), fixed at its start. */
    inputMode: InputMode;
  };
  frameSetId: string;
  video: {
    prompt: string | null;
    dimensions: string[];
    model: string | null;
    fps: number | null;
    frameCount: number | null;
    /** Each decoded frame's time, when the video's frame times were read already (video_frame_times). */
    frameTimesS: readonly number[] | null;
    /** The video's frame times whole (its judge spans are kept with them at its close); null: not read yet. */
    frameTimes: FrameTimes | null;
    auxiliaryInfo: Record<string, unknown>;
    /** The video's file, which a `video-file` run's calls send. */
    clip: ClipRef;
  };
  /** The frame set's frames in index order. */
  frames: FrameRef[];
  /** The run's items of the video in position order. */
  items: ItemRef[];
}

/** One video of one run with its frames and the run's items of it, in one statement; null when the run has no such video. */
export async function loadVideoJob(prisma: PrismaClient, runId: string, videoId: string): Promise<JobRow | null> {
  return (await loadVideoJobs(prisma, [{ runId, videoId }]))[0] ?? null;
}

/** Several videos' jobs (loadVideoJob) in one statement, in the order asked; null for a run with no such video. */
export async function loadVideoJobs(prisma: PrismaClient, jobs: readonly VideoJobKey[]): Promise<(JobRow | null)[]> {
  const rows = await prisma.$queryRaw<
    {
      runId: string;
      videoId: string;
      pipeline: string;
      projectId: string;
      status: string;
      settings: unknown;
      promptVersions: Record<string, PromptVersionRef>;
      batchMode: boolean;
      sampling: RunSampling | null;
      parentRunId: string | null;
      inputMode: string;
      frameSetId: string;
      clipStorageKey: string;
      clipSha256: string;
      clipSizeBytes: number;
      clipContentType: string;
      clipDurationS: number | null;
      prompt: string | null;
      dimensions: string[];
      model: string | null;
      fps: number | null;
      frameCount: number | null;
      frameTimes: FrameTimes | null;
      auxiliaryInfo: Record<string, unknown> | null;
      frames: FrameRef[];
      items: ItemRef[];
    }[]
  >`
    SELECT rv."runId", rv."videoId", r.pipeline, r."projectId", r.status::text AS status, r.settings, r."batchMode", r.sampling, r."parentRunId", r."inputMode", rv."frameSetId",
      v."storageKey" AS "clipStorageKey", v.sha256 AS "clipSha256", v."sizeBytes"::float8 AS "clipSizeBytes",
      v."contentType" AS "clipContentType", v."durationS" AS "clipDurationS",
      -- The fields the run was created with (run_video.judgedWith), else the video's current ones.
      CASE WHEN rv."judgedWith" IS NULL THEN v.prompt ELSE rv."judgedWith"->>'prompt' END AS prompt,
      CASE WHEN rv."judgedWith" IS NULL THEN v.dimensions ELSE ARRAY(SELECT jsonb_array_elements_text(coalesce(rv."judgedWith"->'dimensions', '[]'::jsonb))) END AS dimensions,
      CASE WHEN rv."judgedWith" IS NULL THEN v.model ELSE rv."judgedWith"->>'model' END AS model,
      v.fps, v."frameCount", (SELECT json_build_object('timesS', vft."timesS", 'endS', vft."endS", 'variable', vft.variable)
         FROM video_frame_times vft WHERE vft."videoId" = rv."videoId") AS "frameTimes",
      CASE WHEN rv."judgedWith" ? 'auxiliaryInfo' THEN rv."judgedWith"->'auxiliaryInfo' ELSE v."auxiliaryInfo" END AS "auxiliaryInfo",
      (SELECT coalesce(json_object_agg(pv."templateId", json_build_object('text', pv.text, 'hash', pv.hash)), '{}'::json)
         FROM prompt_version pv WHERE pv.id IN (SELECT value FROM jsonb_each_text(r."promptVersionIds"))) AS "promptVersions",
      (SELECT coalesce(json_agg(json_build_object('id', f.id, 'index', f.index, 'timestampS', f."timestampS", 'isKeyFrame', f."isKeyFrame",
                'cluster', f.cluster, 'storageKey', f."storageKey", 'sha256', f.sha256) ORDER BY f.index), '[]'::json)
         FROM frame f WHERE f."frameSetId" = rv."frameSetId") AS frames,
      (SELECT coalesce(json_agg(json_build_object('id', i.id, 'externalId', i."externalId", 'kind', i.kind, 'group', i."group", 'model', i.model,
                'payload', i.payload,
                'reference', CASE WHEN ref.id IS NULL THEN NULL ELSE json_build_object('id', ref.id, 'externalId', ref."externalId", 'payload', ref.payload) END)
                ORDER BY ri.position), '[]'::json)
         FROM run_item ri JOIN item i ON i.id = ri."itemId" LEFT JOIN item ref ON ref.id = i."referenceItemId"
         WHERE ri."runId" = rv."runId" AND ri."videoId" = rv."videoId") AS items
    FROM unnest(${jobs.map((job) => job.runId)}::text[], ${jobs.map((job) => job.videoId)}::text[]) AS wanted("runId", "videoId")
    JOIN run_video rv ON rv."runId" = wanted."runId" AND rv."videoId" = wanted."videoId"
    JOIN judge_run r ON r.id = rv."runId"
    JOIN video v ON v.id = rv."videoId"`;
  const byJob = new Map(rows.map((row) => [jobKey(row), row]));
  return jobs.map((job) => {
    const row = byJob.get(jobKey(job));
    if (!row) return null;
    return {
      run: {
        pipeline: row.pipeline,
        projectId: row.projectId,
        status: row.status,
        settings: row.settings,
        promptVersions: row.promptVersions,
        batchMode: row.batchMode,
        sampling: row.sampling,
        parentRunId: row.parentRunId,
        inputMode: inputModeOf(row.inputMode),
      },
      frameSetId: row.frameSetId,
      video: {
        prompt: row.prompt,
        dimensions: row.dimensions,
        model: row.model,
        fps: row.fps,
        frameCount: row.frameCount,
        frameTimesS: row.frameTimes?.timesS ?? null,
        frameTimes: row.frameTimes,
        auxiliaryInfo: row.auxiliaryInfo ?? {},
        clip: {
          storageKey: row.clipStorageKey,
          sha256: row.clipSha256,
          sizeBytes: row.clipSizeBytes,
          contentType: row.clipContentType,
          durationS: row.clipDurationS,
        },
      },
      frames: row.frames,
      items: row.items,
    };
  });
}

/** A video of a run: what a judge job names. */
export interface VideoJobKey {
  runId: string;
  videoId: string;
}
export const jobKey = (job: VideoJobKey) => `${job.runId}\u0000${job.videoId}`;

export interface PlannedStep {
  stepId: string;
  scopeIndex: number;
  itemId: string;
  templateId: string;
}

export interface StepRow {
  id: string;
  itemId: string;
  stepId: string;
  scopeIndex: number;
  status: StepStatus;
  output: Prisma.JsonValue;
  /** A finished step's scores (kept in memory for the video's summary). */
  scores: ScoreValue[];
}

// How the engine's batched statements find their rows. The planner takes any jsonb_to_recordset for 100 rows, and a
// run started since the tables were last analyzed has no statistics of its own, so a join of a batch with
// step_result, run_video or run_metric was planned as a hash join over a scan of the whole table: every batch of
// finished steps read every step row (at 256 in flight, a third of PostgreSQL's CPU on 20,000 step rows,
// docs/benchmarks.md). So each statement names its rows in a form that only an index answers: `id = ANY(…)` on the
// primary key, or one probe per video (`CROSS JOIN LATERAL (… OFFSET 0)`, which the planner keeps as a loop of
// index look-ups on the unique (runId, videoId, …) keys).

/**
 * In one statement, for several videos: creates the step rows each video is missing, puts back to `pending` the steps
 * a dead worker left `running`, marks the videos (and a queued run) running, and returns each video's step rows,
 * finished ones with their scores, in its plan order, the videos in the order asked.
 */
export async function planVideosSteps(
  prisma: PrismaClient,
  videos: readonly { job: VideoJobKey; planned: PlannedStep[] }[],
  now: Date,
): Promise<StepRow[][]> {
  const at = now.toISOString();
  const planned = videos.flatMap(({ job, planned }) =>
    planned.map((p) => ({ runId: job.runId, videoId: job.videoId, ...p })),
  );
  const runIds = videos.map(({ job }) => job.runId);
  const videoIds = videos.map(({ job }) => job.videoId);
  const rows = await directRows(prisma)<Omit<StepRow, "scores"> & VideoJobKey & { scores: ScoreValue[] | null }>`
    WITH planned AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(planned)}::jsonb) AS p("runId" text, "videoId" text, "stepId" text, "scopeIndex" int, "itemId" text, "templateId" text)
    ), jobs AS (
      SELECT * FROM unnest(${runIds}::text[], ${videoIds}::text[]) AS j("runId", "videoId")
    ), inserted AS (
      INSERT INTO step_result (id, "runId", "videoId", "itemId", "stepId", "scopeIndex", "templateId")
      SELECT gen_random_uuid()::text, p."runId", p."videoId", p."itemId", p."stepId", p."scopeIndex", p."templateId" FROM planned p
      ON CONFLICT ("runId", "videoId", "stepId", "scopeIndex") DO NOTHING
      RETURNING "runId", "videoId", id, "itemId", "stepId", "scopeIndex", status::text AS status, output
    ), steps AS MATERIALIZED (
      -- One index probe per video (see the note above).
      SELECT sr.* FROM jobs j CROSS JOIN LATERAL (
        SELECT s.id, s."runId", s."videoId", s."itemId", s."stepId", s."scopeIndex", s.status, s.output FROM step_result s
        WHERE s."runId" = j."runId" AND s."videoId" = j."videoId" OFFSET 0
      ) sr
    ), lost AS (
      -- Calls a dead worker sent and never stored the answer of: paid, unanswered. Only one job of a video
      -- runs at a time, so every call still "sent" here belongs to an attempt that is gone. Their tokens and
      -- cost were estimated when they were sent (lib/judge/calls/lost-calls.ts).
      UPDATE llm_call c SET status = 'lost'
      WHERE c.id = ANY(ARRAY(
        SELECT l.id FROM jobs j CROSS JOIN LATERAL (
          SELECT id FROM llm_call s WHERE s."runId" = j."runId" AND s."videoId" = j."videoId" AND s.status = 'sent' OFFSET 0
        ) l
      ))
      RETURNING 1
    ), reset AS (
      UPDATE step_result sr SET status = 'pending' WHERE sr.id = ANY(ARRAY(SELECT id FROM steps WHERE status = 'running')) RETURNING sr.id
    ), video AS (
      UPDATE run_video rv SET status = 'running', "updatedAt" = ${at}::timestamp(3) FROM jobs j
      WHERE rv."runId" = j."runId" AND rv."videoId" = j."videoId" AND rv."videoId" = ANY(${videoIds}::text[])
      RETURNING 1
    ), run AS (
      UPDATE judge_run SET status = 'running', "startedAt" = ${at}::timestamp(3) WHERE id = ANY(${runIds}::text[]) AND status = 'queued' RETURNING 1
    )
    SELECT sr."runId", sr."videoId", sr.id, sr."itemId", sr."stepId", sr."scopeIndex",
      CASE WHEN sr.status = 'running' THEN 'pending' ELSE sr.status::text END AS status, sr.output,
      CASE WHEN sr.status = 'done' THEN
        (SELECT coalesce(json_agg(json_build_object('category', s.category, 'value', s.value) ORDER BY s.category), '[]'::json)
           FROM score s WHERE s."runId" = sr."runId" AND s."videoId" = sr."videoId" AND s."stepId" = sr."stepId" AND s."scopeIndex" = sr."scopeIndex")
      END AS scores
    FROM steps sr
    UNION ALL
    SELECT "runId", "videoId", id, "itemId", "stepId", "scopeIndex", status, output, NULL FROM inserted`;
  const byJob = new Map<string, StepRow[]>();
  for (const { runId, videoId, ...row } of rows) {
    const key = jobKey({ runId, videoId });
    let list = byJob.get(key);
    if (!list) byJob.set(key, (list = []));
    list.push({ ...row, scores: row.scores ?? [] });
  }
  return videos.map(({ job, planned: steps }) => {
    const order = new Map(steps.map((p, i) => [`${p.stepId}#${p.scopeIndex}`, i]));
    const place = (row: { stepId: string; scopeIndex: number }) =>
      order.get(`${row.stepId}#${row.scopeIndex}`) ?? Number.MAX_SAFE_INTEGER;
    return (byJob.get(jobKey(job)) ?? []).sort((a, b) => place(a) - place(b));
  });
}
