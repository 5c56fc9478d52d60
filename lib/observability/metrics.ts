import { createHash, timingSafeEqual } from "node:crypto";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PrismaClient } from "../generated/prisma/client";
import { processOnce } from "../config/process-slot";

interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  runs: Gauge<"status">;
  runVideos: Gauge<"status">;
  queueJobs: Gauge<"queue" | "state">;
  llmCalls: Counter<"endpoint" | "endpoint_name" | "outcome">;
  llmRetries: Counter<"endpoint" | "endpoint_name">;
  llmTokens: Counter<"endpoint" | "endpoint_name" | "kind">;
  llmCost: Counter<"endpoint" | "endpoint_name">;
}

/**
 * The process's Prometheus registry, one per process (lib/config/process-slot.ts) so that every copy of this module
 * Next.js loads records into the same histogram. HTTP latency is measured in this process; everything about runs,
 * calls and the queue is read from PostgreSQL at scrape time (workers are other processes), so any
 * web process answers for the whole installation.
 */
function metrics(): Metrics {
  return processOnce("metrics", createMetrics);
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const endpointLabels = ["endpoint", "endpoint_name"] as const;
  const created: Metrics = {
    registry,
    httpDuration: new Histogram({
      name: "framejury_http_request_duration_seconds",
      help: "API requests handled by this process: time until the response headers, by method, route pattern and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    runs: new Gauge({
      name: "framejury_runs",
      help: "Judge runs by status.",
      labelNames: ["status"],
      registers: [registry],
    }),
    runVideos: new Gauge({
      name: "framejury_run_videos",
      help: "Videos of judge runs by status.",
      labelNames: ["status"],
      registers: [registry],
    }),
    queueJobs: new Gauge({
      name: "framejury_queue_jobs",
      help: "pg-boss jobs waiting (created, retry) or being worked on (active), by queue.",
      labelNames: ["queue", "state"],
      registers: [registry],
    }),
    llmCalls: new Counter({
      name: "framejury_llm_calls_total",
      help: "LLM calls by endpoint and outcome: ok (answered), error (failed after its retries), cached (answered from the response cache, not sent), lost (sent by a worker that died before storing the answer).",
      labelNames: [...endpointLabels, "outcome"],
      registers: [registry],
    }),
    llmRetries: new Counter({
      name: "framejury_llm_retries_total",
      help: "Retried attempts (429, 5xx, timeouts, unreadable answers) before calls' outcomes, by endpoint.",
      labelNames: [...endpointLabels],
      registers: [registry],
    }),
    llmTokens: new Counter({
      name: "framejury_llm_tokens_total",
      help: "Tokens by endpoint and kind (prompt, completion).",
      labelNames: [...endpointLabels, "kind"],
      registers: [registry],
    }),
    llmCost: new Counter({
      name: "framejury_llm_cost_usd_total",
      help: "Cost in USD by endpoint, from the endpoint's prices.",
      labelNames: [...endpointLabels],
      registers: [registry],
    }),
  };
  return created;
}

export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  metrics().httpDuration.observe({ method, route, status: String(status) }, seconds);
}

const RUN_STATUSES = ["queued", "running", "done", "failed", "cancelled"];
const QUEUE_STATES = ["created", "retry", "active"];

/** Reads the database-backed metrics and renders every metric in Prometheus's text format. */
export async function renderMetrics(prisma: PrismaClient): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const [runs, runVideos, calls, jobs] = await Promise.all([
    prisma.$queryRaw<
      { status: string; n: number }[]
    >`SELECT status::text AS status, count(*)::int AS n FROM judge_run GROUP BY 1`,
    prisma.$queryRaw<{ status: string; n: number }[]>`
      SELECT rv.status::text AS status, count(*)::int AS n FROM run_video rv JOIN judge_run r ON r.id = rv."runId"
      WHERE r.status IN ('queued', 'running') GROUP BY 1`,
    prisma.$queryRaw<
      {
        endpoint: string;
        name: string;
        ok: number;
        errors: number;
        cached: number;
        lost: number;
        retries: number;
        prompt: number;
        completion: number;
        cost: number;
      }[]
    >`
      SELECT e.id AS endpoint, e.name,
             count(*) FILTER (WHERE NOT c.cached AND c.error IS NULL AND c.status = 'answered')::float8 AS ok,
             count(*) FILTER (WHERE c.status = 'lost')::float8 AS lost,
             count(*) FILTER (WHERE c.error IS NOT NULL)::float8 AS errors,
             count(*) FILTER (WHERE c.cached)::float8 AS cached,
             coalesce(sum(c.retries), 0)::float8 AS retries,
             coalesce(sum(c."promptTokens"), 0)::float8 AS prompt,
             coalesce(sum(c."completionTokens"), 0)::float8 AS completion,
             coalesce(sum(c."costUsd"), 0)::float8 AS cost
      FROM llm_call c JOIN judge_run r ON r.id = c."runId" JOIN judge_endpoint e ON e.id = r."endpointId"
      GROUP BY e.id, e.name`,
    queueJobs(prisma),
  ]);
  m.runs.reset();
  for (const status of RUN_STATUSES) m.runs.set({ status }, 0);
  for (const row of runs) m.runs.set({ status: row.status }, row.n);
  // Only unfinished runs' videos: a finished run's are history, not load.
  m.runVideos.reset();
  for (const row of runVideos) m.runVideos.set({ status: row.status }, row.n);
  m.queueJobs.reset();
  for (const row of jobs) m.queueJobs.set({ queue: row.queue, state: row.state }, row.n);
  for (const counter of [m.llmCalls, m.llmRetries, m.llmTokens, m.llmCost]) counter.reset();
  for (const row of calls) {
    const labels = { endpoint: row.endpoint, endpoint_name: row.name };
    m.llmCalls.inc({ ...labels, outcome: "ok" }, row.ok);
    m.llmCalls.inc({ ...labels, outcome: "error" }, row.errors);
    m.llmCalls.inc({ ...labels, outcome: "cached" }, row.cached);
    m.llmCalls.inc({ ...labels, outcome: "lost" }, row.lost);
    m.llmRetries.inc(labels, row.retries);
    m.llmTokens.inc({ ...labels, kind: "prompt" }, row.prompt);
    m.llmTokens.inc({ ...labels, kind: "completion" }, row.completion);
    m.llmCost.inc(labels, row.cost);
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}

/** Jobs per queue and open state; none before pg-boss has created its schema (no worker yet). */
async function queueJobs(prisma: PrismaClient): Promise<{ queue: string; state: string; n: number }[]> {
  const [present] = await prisma.$queryRaw<
    { present: boolean }[]
  >`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`;
  const queues = present?.present
    ? await prisma.$queryRaw<{ queue: string }[]>`SELECT name AS queue FROM pgboss.queue`
    : [];
  const counts = present?.present
    ? await prisma.$queryRaw<{ queue: string; state: string; n: number }[]>`
        SELECT name AS queue, state::text AS state, count(*)::int AS n FROM pgboss.job
        WHERE state IN ('created', 'retry', 'active') GROUP BY 1, 2`
    : [];
  // Every queue reports every open state, 0 included, so an empty queue is a value and not a gap.
  return queues.flatMap(({ queue }) =>
    QUEUE_STATES.map((state) => ({
      queue,
      state,
      n: counts.find((c) => c.queue === queue && c.state === state)?.n ?? 0,
    })),
  );
}

export type MetricsAccess = "ok" | "disabled" | "unauthorized";

/** METRICS_TOKEN guards GET /api/metrics (Bearer); without one the endpoint does not exist. */
export function metricsAccess(authorization: string | null, token: string | undefined): MetricsAccess {
  if (!token) return "disabled";
  const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "");
  if (!match) return "unauthorized";
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token)) ? "ok" : "unauthorized";
}
