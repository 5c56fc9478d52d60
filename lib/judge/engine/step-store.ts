import type { TokenLogprob } from "../calls/llm-client";
import type { CallSaw } from "../calls/call-record";
import { randomUUID } from "node:crypto";
import type { PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { ScoreValue } from "../../task-modules/pipeline-types";
import { TickBatcher } from "../workers/tick-batcher";
import { directRows } from "../../db/direct-sql";
import {
  loadVideoJobs,
  planVideosSteps,
  type JobRow,
  type PlannedStep,
  type StepRow,
  type VideoJobKey,
} from "./video-jobs";

/**
 * The judge engine's database work, done in as few round trips as the engine's safety allows:
 * a video's job is read in one statement and its steps planned in another; response-cache reads of
 * every step that asks in the same tick go out as one query; finished steps (with their scores, calls
 * and cache entries) and finished videos are written by a group commit, two statements per batch: the
 * answers paid for first, then the ends.
 *
 * Timestamps go to PostgreSQL as ISO strings in UTC and are cast to `timestamp(3)`, which ignores
 * the zone suffix: the columns hold UTC, as Prisma writes them, whatever the session's time zone.
 *
 * Every statement here may run twice: the database client sends a statement again when the connection
 * broke before its answer came (lib/db/reconnecting-adapter.ts), though the server may have run it. So
 * each one leaves the same result the second time: call rows carry their id from here, a step's start
 * and end match their own earlier write, and the rest are upserts.
 */

export {
  loadVideoJob,
  type JobRow,
  type PlannedStep,
  type PromptVersionRef,
  type RunSampling,
  type StepRow,
  type VideoJobKey,
} from "./video-jobs";

/** How a step ended: its row's new fields, its scores, and the call rows and cache entries that go with it. */
export interface StepFinish {
  id: string;
  runId: string;
  videoId: string;
  itemId: string;
  stepId: string;
  scopeIndex: number;
  status: StepStatus;
  output?: unknown;
  rawText?: string | null;
  error?: string | null;
  templateHash?: string | null;
  /** Set when the step was not marked started on its own (a cached or computed step): counts the attempt too. */
  startedAt?: Date;
  finishedAt: Date;
  scores: ScoreValue[];
  calls: CallRow[];
  cache: CacheRow[];
}

export interface CallRow {
  /** Set when the row is written before the request goes out ("sent"), so that its outcome updates that row. */
  id?: string;
  /** "sent" before the request goes out (with estimated tokens and cost), "answered" (the default) with its outcome. */
  status?: "sent" | "answered";
  /** False when the answer carried no `usage` (tokens and cost unknown, stored as 0). Default true. */
  usageKnown?: boolean;
  /** The model's reasoning, kept apart from the answer. */
  reasoning?: string | null;
  /** The model the answer named (lib/judge/calls/llm-client.ts ChatResult.reportedModel). */
  reportedModel?: string | null;
  runId: string;
  stepResultId: string;
  videoId: string;
  model: string;
  /**
   * What was sent (CallRequestLog); null on the outcome of a call whose "sent" row is stored already: that row
   * keeps it, and a rendered prompt of several kilobytes is not sent to the database twice per call.
   */
  request: unknown;
  responseText: string | null;
  finishReason: string | null;
  httpStatus: number | null;
  error: string | null;
  errorExcerpt: string | null;
  isRepair: boolean;
  cached: boolean;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  latencyMs: number;
  /** Attempts after the first (backoff on 429, 5xx, timeouts). */
  retries: number;
  /** What the request showed the judge (lib/judge/calls/call-record.ts); kept from the "sent" row when its outcome updates it. */
  saw?: CallSaw | null;
  /** The request body's size in bytes as sent; 0 for an answer from the cache (nothing was sent). */
  bytesSent?: number;
  createdAt: Date;
}

export interface CacheRow {
  key: string;
  model: string;
  responseText: string;
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
  /** The answer's content logprobs, kept so a cached answer still gives expected scores; null: none came back. */
  logprobs?: TokenLogprob[] | null;
  /** Replace what the key holds: an answer cached before it had to be valid, found invalid now. */
  replace: boolean;
}

export interface VideoFinish {
  runId: string;
  videoId: string;
  summary: unknown;
  /** Every headline metric of the video and its items (`itemId` '' for the video); unknown values have no row. */
  metrics: { itemId: string; metric: string; value: number }[];
  finishedAt: Date;
}

/** Batches written at once, and the most units in one batch (a wave of a few hundred videos' steps is split). */
const PARALLEL_WRITES = 2;
const MAX_BATCH_UNITS = 250;

type Unit = (
  { kind: "call"; row: CallRow } | { kind: "step"; step: StepFinish } | { kind: "video"; video: VideoFinish }
) & { resolve(written: boolean): void; reject(error: unknown): void };
type UnitData = Unit extends infer U ? (U extends Unit ? Omit<U, "resolve" | "reject"> : never) : never;

export interface CachedAnswer {
  responseText: string;
  finishReason: string | null;
  logprobs: TokenLogprob[] | null;
}

export type LookUp = { cached: CachedAnswer } | { cached: null; started: boolean };

/**
 * Group commit for the engine's writes. Whatever is handed in while batches are being written goes out
 * together in the next one: its calls and cache entries in one statement, then its steps' and videos' ends
 * with their scores in another (a step is never done without its scores, calls and cache entries, and an
 * answer is kept even when its step's end is not). Up to two batches are written at once, so the database
 * can use a second core. That never stores a step before its inputs: the engine hands in a step's
 * result only after its inputs' writes were committed (and a step's end only after its start). A batch
 * that fails is written again unit by unit, so one bad row fails only its own step.
 */
export class JudgeStore {
  /**
   * Videos' jobs and step plans, read and written together for every video that asks in the same turn of the
   * event loop: a worker that takes 512 videos at once read and planned them in 1,024 statements, and its first
   * call went out 1.2 s after the first job was taken (`npm run bench:judge -- --concurrency 256`).
   */
  private readonly jobs = new TickBatcher<VideoJobKey, JobRow | null>(
    (jobs) => loadVideoJobs(this.prisma, jobs),
    MAX_BATCH_UNITS,
  );
  private readonly plans = new TickBatcher<{ job: VideoJobKey; planned: PlannedStep[] }, StepRow[]>(
    (videos) => planVideosSteps(this.prisma, videos, new Date()),
    MAX_BATCH_UNITS,
  );
  private pending: Unit[] = [];
  private writesInFlight = 0;
  private writeScheduled = false;
  private lookUps: {
    key: string;
    start: { id: string; at: Date } | null;
    resolve(found: LookUp): void;
    reject(error: unknown): void;
  }[] = [];
  private lookUpScheduled = false;

  constructor(private readonly prisma: PrismaClient) {}

  /** A video's job (loadVideoJob), read with those of every other video asking in the same tick. */
  loadJob(job: VideoJobKey): Promise<JobRow | null> {
    return this.jobs.ask(job);
  }

  /** A video's step rows (planVideosSteps, at the time the batch goes out), planned with those of every other video asking in the same tick. */
  planSteps(job: VideoJobKey, planned: PlannedStep[]): Promise<StepRow[]> {
    return this.plans.ask({ job, planned });
  }

  /** A call that a later call of the same step follows (the first answer before a repair). */
  async call(row: CallRow): Promise<void> {
    await this.enqueue({ kind: "call", row });
  }

  /**
   * A step's end with its scores, calls and cache entries. False when the step was no longer pending
   * or running (the run's cancellation closed it): it stays as it is and gets no scores, while its
   * calls and a valid answer are still recorded.
   */
  finishStep(step: StepFinish): Promise<boolean> {
    return this.enqueue({ kind: "step", step });
  }

  /** A video's summary and metrics (unless it was cancelled); then its run is done when no video of it is left. */
  async finishVideo(video: VideoFinish): Promise<void> {
    await this.enqueue({ kind: "video", video });
  }

  /**
   * The cached answer for a key, read together with every other key asked for in the same tick. With
   * `start`, a miss also marks that step started (running, one more attempt) for the call it is about to
   * make, in the same statement; `started` is false when the step was no longer pending (the run's
   * cancellation closed it), and it must then make no call.
   */
  lookUp(key: string, start: { id: string; at: Date } | null): Promise<LookUp> {
    return new Promise((resolve, reject) => {
      this.lookUps.push({ key, start, resolve, reject });
      if (!this.lookUpScheduled) {
        this.lookUpScheduled = true;
        setImmediate(() => void this.runLookUps());
      }
    });
  }

  private async runLookUps() {
    const wanted = this.lookUps;
    this.lookUps = [];
    this.lookUpScheduled = false;
    try {
      const starts = wanted.flatMap((w) =>
        w.start ? [{ key: w.key, id: w.start.id, startedAt: w.start.at.toISOString() }] : [],
      );
      const rows = await directRows(this.prisma)<{
        key: string | null;
        responseText: string | null;
        finishReason: string | null;
        logprobs: TokenLogprob[] | null;
        started: string | null;
      }>`
        WITH found AS MATERIALIZED (
          -- One look-up of the key per key (see the note on planVideosSteps).
          SELECT c.key, c."responseText", c."finishReason", c.logprobs
          FROM unnest(${[...new Set(wanted.map((w) => w.key))]}::text[]) AS k(key)
          CROSS JOIN LATERAL (SELECT * FROM response_cache rc WHERE rc.key = k.key OFFSET 0) c
        ), missed AS MATERIALIZED (
          SELECT w.* FROM jsonb_to_recordset(${JSON.stringify(starts)}::jsonb) AS w(key text, id text, "startedAt" timestamp(3))
          WHERE NOT EXISTS (SELECT 1 FROM found f WHERE f.key = w.key)
        ), started AS (
          UPDATE step_result sr SET status = 'running', attempts = sr.attempts + CASE WHEN sr.status = 'pending' THEN 1 ELSE 0 END, "startedAt" = w."startedAt"
          FROM missed w
          WHERE sr.id = w.id AND sr.id = ANY(ARRAY(SELECT id FROM missed)) AND (sr.status = 'pending' OR (sr.status = 'running' AND sr."startedAt" = w."startedAt"))
          RETURNING sr.id
        )
        SELECT key, "responseText", "finishReason", logprobs, NULL::text AS started FROM found
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, id FROM started`;
      const found = new Map(
        rows.flatMap((row) =>
          row.key !== null
            ? [
                [
                  row.key,
                  {
                    responseText: row.responseText ?? "",
                    finishReason: row.finishReason,
                    logprobs: row.logprobs ?? null,
                  },
                ] as const,
              ]
            : [],
        ),
      );
      const started = new Set(rows.flatMap((row) => (row.started !== null ? [row.started] : [])));
      for (const w of wanted) {
        const cached = found.get(w.key);
        w.resolve(cached ? { cached } : { cached: null, started: w.start !== null && started.has(w.start.id) });
      }
    } catch (error) {
      for (const w of wanted) w.reject(error);
    }
  }

  private enqueue(unit: UnitData): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ...unit, resolve, reject } as Unit);
      this.scheduleWrites();
    });
  }

  private scheduleWrites() {
    if (this.writeScheduled || this.writesInFlight >= PARALLEL_WRITES) return;
    this.writeScheduled = true;
    // On the next turn of the event loop: everything handed in during this one goes out together.
    setImmediate(() => {
      this.writeScheduled = false;
      while (this.pending.length > 0 && this.writesInFlight < PARALLEL_WRITES) {
        const batch = this.pending.splice(0, MAX_BATCH_UNITS);
        this.writesInFlight += 1;
        void this.writeBatch(batch).finally(() => {
          this.writesInFlight -= 1;
          if (this.pending.length > 0) this.scheduleWrites();
        });
      }
    });
  }

  private async writeBatch(batch: Unit[]) {
    try {
      const written = await this.write(batch);
      for (const unit of batch) unit.resolve(wasWritten(unit, written));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else {
        for (const unit of batch) {
          await this.write([unit]).then((written) => unit.resolve(wasWritten(unit, written)), unit.reject);
        }
      }
    }
  }

  /** Writes a batch; returns the steps whose end was stored. */
  private async write(batch: Unit[]): Promise<Set<string>> {
    const { finished, scores, calls, cacheRows, videos, metrics } = batchRows(batch);
    // What was paid for is committed before the steps' ends: an end the database refuses, or a connection lost
    // while it is written, then loses no answer, and the step's next attempt reads it from the cache instead of
    // asking again. A step is still never done without its calls and cache entries.
    if (calls.length > 0 || cacheRows.length > 0) await this.writeAnswers({ calls, cacheRows });
    // Each part is a separate table (or separate rows of step_result), so the parts of one statement never
    // touch the same row twice. Steps and videos that the run's cancellation closed stay closed. Metrics are
    // replaced by upserting the new rows and deleting the others.
    const rows = await directRows(this.prisma)<{ id: string }>`
      WITH finished AS (
        UPDATE step_result sr SET status = u.status::"StepStatus", output = u.output, "rawText" = u."rawText", error = u.error,
          "templateHash" = u."templateHash", "finishedAt" = u."finishedAt",
          attempts = sr.attempts + CASE WHEN sr.status IN ('pending', 'running') THEN u.attempts ELSE 0 END,
          "startedAt" = coalesce(u."startedAt", sr."startedAt")
        FROM jsonb_to_recordset(${JSON.stringify(finished)}::jsonb)
          AS u(id text, status text, output jsonb, "rawText" text, error text, "templateHash" text, "startedAt" timestamp(3), attempts int, "finishedAt" timestamp(3))
        WHERE sr.id = u.id AND sr.id = ANY(${finished.map((step) => step.id)}::text[])
          AND (sr.status IN ('pending', 'running') OR (sr.status = u.status::"StepStatus" AND sr."finishedAt" = u."finishedAt"))
        RETURNING sr.id
      ), scores AS (
        INSERT INTO score (id, "runId", "videoId", "itemId", "stepResultId", "stepId", "scopeIndex", category, value, expected)
        SELECT gen_random_uuid()::text, s."runId", s."videoId", s."itemId", s."stepResultId", s."stepId", s."scopeIndex", s.category, s.value, s.expected
        FROM jsonb_to_recordset(${JSON.stringify(scores)}::jsonb)
          AS s("runId" text, "videoId" text, "itemId" text, "stepResultId" text, "stepId" text, "scopeIndex" int, category text, value float8, expected float8)
        WHERE s."stepResultId" IN (SELECT id FROM finished)
        ON CONFLICT ("runId", "videoId", "stepId", "scopeIndex", category) DO UPDATE SET value = excluded.value, expected = excluded.expected, "stepResultId" = excluded."stepResultId", "itemId" = excluded."itemId"
        RETURNING 1
      ), videos AS (
        UPDATE run_video rv SET status = 'done', summary = v.summary, "updatedAt" = v."finishedAt"
        FROM jsonb_to_recordset(${JSON.stringify(videos.map((v) => ({ runId: v.runId, videoId: v.videoId, summary: v.summary ?? null, finishedAt: v.finishedAt.toISOString() })))}::jsonb)
          AS v("runId" text, "videoId" text, summary jsonb, "finishedAt" timestamp(3))
        WHERE rv."runId" = v."runId" AND rv."videoId" = v."videoId" AND rv.status <> 'cancelled'
          AND rv."videoId" = ANY(${videos.map((v) => v.videoId)}::text[])
        RETURNING rv."runId", rv."videoId"
      ), metric_rows AS (
        SELECT m.* FROM jsonb_to_recordset(${JSON.stringify(metrics)}::jsonb) AS m("runId" text, "videoId" text, "itemId" text, metric text, value float8)
        JOIN videos v ON v."runId" = m."runId" AND v."videoId" = m."videoId"
      ), metrics_upserted AS (
        INSERT INTO run_metric ("runId", "videoId", "itemId", metric, value)
        SELECT "runId", "videoId", "itemId", metric, value FROM metric_rows
        ON CONFLICT ("runId", "videoId", "itemId", metric) DO UPDATE SET value = excluded.value
        RETURNING 1
      ), metrics_dropped AS (
        -- By the rows' places, found one probe per video: only one job of a video runs at a time, so no one else
        -- moves them in between.
        DELETE FROM run_metric rm
        WHERE rm.ctid = ANY(ARRAY(
          SELECT old.ctid FROM videos v CROSS JOIN LATERAL (
            SELECT m.ctid, m."itemId", m.metric FROM run_metric m WHERE m."runId" = v."runId" AND m."videoId" = v."videoId" OFFSET 0
          ) old
          WHERE NOT EXISTS (SELECT 1 FROM metric_rows n WHERE n."runId" = v."runId" AND n."videoId" = v."videoId" AND n."itemId" = old."itemId" AND n.metric = old.metric)
        ))
        RETURNING 1
      )
      SELECT id FROM finished`;

    if (videos.length > 0) {
      // After the videos' commit, never inside it: of two workers finishing a run's last two videos at
      // once, the one that commits last then sees both done.
      const runIds = [...new Set(videos.map((v) => v.runId))];
      const at = videos[videos.length - 1]!.finishedAt.toISOString();
      await this.prisma.$executeRaw`
        UPDATE judge_run r SET status = 'done', "finishedAt" = ${at}::timestamp(3)
        WHERE r.id = ANY(${runIds}::text[]) AND r.status IN ('queued', 'running')
          AND NOT EXISTS (SELECT 1 FROM run_video rv WHERE rv."runId" = r.id AND rv.status IN ('queued', 'running'))`;
    }
    return new Set(rows.map((row) => row.id));
  }

  /** The calls and response-cache entries of a batch, in a statement of their own (see write). */
  private async writeAnswers({ calls, cacheRows }: Pick<ReturnType<typeof batchRows>, "calls" | "cacheRows">) {
    await directRows(this.prisma)`
      WITH calls AS (
        INSERT INTO llm_call (id, "runId", "stepResultId", "videoId", model, request, "responseText", "finishReason", "httpStatus", error, "errorExcerpt",
                              "isRepair", cached, "promptTokens", "completionTokens", "costUsd", "latencyMs", retries, "createdAt", status, "usageKnown", reasoning, saw, "bytesSent", "reportedModel")
        SELECT c.id, c."runId", c."stepResultId", c."videoId", c.model, coalesce(c.request, '{}'::jsonb), c."responseText", c."finishReason", c."httpStatus", c.error, c."errorExcerpt",
               c."isRepair", c.cached, c."promptTokens", c."completionTokens", c."costUsd", c."latencyMs", c.retries, c."createdAt", c.status, c."usageKnown", c.reasoning, c.saw, c."bytesSent", c."reportedModel"
        FROM jsonb_to_recordset(${JSON.stringify(calls)}::jsonb)
          AS c(id text, "runId" text, "stepResultId" text, "videoId" text, model text, request jsonb, "responseText" text, "finishReason" text, "httpStatus" int, error text,
               "errorExcerpt" text, "isRepair" boolean, cached boolean, "promptTokens" int, "completionTokens" int, "costUsd" float8, "latencyMs" int, retries int, "createdAt" timestamp(3),
               status text, "usageKnown" boolean, reasoning text, saw jsonb, "bytesSent" int, "reportedModel" text)
        -- A call written when it was sent gets its outcome (also one marked lost meanwhile: its answer came after all).
        -- Such an outcome carries no request (the sent row has it); NOT NULL is checked before the conflict, hence the coalesce.
        ON CONFLICT (id) DO UPDATE SET "responseText" = excluded."responseText", "finishReason" = excluded."finishReason", "httpStatus" = excluded."httpStatus",
          error = excluded.error, "errorExcerpt" = excluded."errorExcerpt", cached = excluded.cached, "promptTokens" = excluded."promptTokens",
          "completionTokens" = excluded."completionTokens", "costUsd" = excluded."costUsd", "latencyMs" = excluded."latencyMs", retries = excluded.retries,
          status = excluded.status, "usageKnown" = excluded."usageKnown", reasoning = excluded.reasoning, "reportedModel" = excluded."reportedModel"
          WHERE llm_call.status IN ('sent', 'lost') AND excluded.status = 'answered'
        RETURNING 1
      ), cache_rows AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(cacheRows)}::jsonb)
          AS c(key text, model text, "responseText" text, "finishReason" text, "promptTokens" int, "completionTokens" int, logprobs jsonb, replace boolean, "createdAt" timestamp(3))
      ), cache_added AS (
        INSERT INTO response_cache (key, model, "responseText", "finishReason", "promptTokens", "completionTokens", logprobs, "createdAt")
        SELECT key, model, "responseText", "finishReason", "promptTokens", "completionTokens", logprobs, "createdAt" FROM cache_rows WHERE NOT replace
        ON CONFLICT (key) DO NOTHING
        RETURNING 1
      ), cache_replaced AS (
        INSERT INTO response_cache (key, model, "responseText", "finishReason", "promptTokens", "completionTokens", logprobs, "createdAt")
        SELECT key, model, "responseText", "finishReason", "promptTokens", "completionTokens", logprobs, "createdAt" FROM cache_rows WHERE replace
        ON CONFLICT (key) DO UPDATE SET model = excluded.model, "responseText" = excluded."responseText", "finishReason" = excluded."finishReason",
          "promptTokens" = excluded."promptTokens", "completionTokens" = excluded."completionTokens", logprobs = excluded.logprobs, "createdAt" = excluded."createdAt"
        RETURNING 1
      )
      SELECT 1`;
  }
}

/** A batch's units as the rows its statement writes, each table's apart. */
function batchRows(batch: Unit[]) {
  const steps = batch.flatMap((unit) => (unit.kind === "step" ? [unit.step] : []));
  const finished = steps.map((step) => ({
    id: step.id,
    status: step.status,
    output: step.output === undefined ? null : step.output,
    rawText: step.rawText ?? null,
    error: step.error ?? null,
    templateHash: step.templateHash ?? null,
    startedAt: step.startedAt?.toISOString() ?? null,
    attempts: step.startedAt ? 1 : 0,
    finishedAt: step.finishedAt.toISOString(),
  }));
  const scores = steps.flatMap((step) =>
    step.scores.map((s) => ({
      runId: step.runId,
      videoId: step.videoId,
      itemId: step.itemId,
      stepResultId: step.id,
      stepId: step.stepId,
      scopeIndex: step.scopeIndex,
      category: s.category,
      value: s.value,
      expected: s.expected ?? null,
    })),
  );
  const calls = [
    ...batch.flatMap((unit) => (unit.kind === "call" ? [unit.row] : [])),
    ...steps.flatMap((step) => step.calls),
  ].map((call) => ({
    ...call,
    id: call.id ?? callIds.get(call) ?? (callIds.set(call, randomUUID()), callIds.get(call)!),
    status: call.status ?? "answered",
    usageKnown: call.usageKnown ?? true,
    reasoning: call.reasoning ?? null,
    saw: call.saw ?? null,
    bytesSent: call.bytesSent ?? 0,
    createdAt: call.createdAt.toISOString(),
  }));
  // One row per key (two steps with identical requests may finish together); a replacement wins.
  const cacheByKey = new Map<string, CacheRow>();
  for (const row of steps.flatMap((step) => step.cache))
    if (!cacheByKey.get(row.key)?.replace) cacheByKey.set(row.key, row);
  const cachedAt = new Date().toISOString();
  // In key order, so two batches writing the same keys at once take their locks in the same order.
  const cacheRows = [...cacheByKey.values()]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((row) => ({ ...row, logprobs: row.logprobs ?? null, createdAt: cachedAt }));
  const videos = batch.flatMap((unit) => (unit.kind === "video" ? [unit.video] : []));
  const metrics = videos.flatMap((video) =>
    video.metrics.map((m) => ({ runId: video.runId, videoId: video.videoId, ...m })),
  );
  return { finished, scores, calls, cacheRows, videos, metrics };
}

function wasWritten(unit: Unit, finished: Set<string>): boolean {
  return unit.kind === "step" ? finished.has(unit.step.id) : true;
}

/** A call row's id, fixed the first time the row is written, so that writing it again changes nothing. */
const callIds = new WeakMap<CallRow, string>();

const stores = new WeakMap<PrismaClient, JudgeStore>();

/** The process's store for a database client: every video judged through it shares its batches. */
export function judgeStoreFor(prisma: PrismaClient): JudgeStore {
  let store = stores.get(prisma);
  if (!store) stores.set(prisma, (store = new JudgeStore(prisma)));
  return store;
}
