import { prisma } from "../db/prisma";
import { log } from "../observability/logger";
import { getStorage } from "../storage/storage";
import { endpointConfigForRun } from "./endpoints/endpoints";
import type { EndpointConfig, JudgeDeps } from "./engine/judge-video";
import type { JudgeEventSubscriber } from "./engine/judge-events";
import { clientForEndpoint, type LlmClient } from "./calls/llm-client";
import { SharedLimits } from "./endpoints/shared-endpoint-limiter";
import { fileTemplateSource } from "./prompts/template-source";
import { jobBoss } from "../jobs/job-boss";
import { pgBossQueue } from "./workers/queue";
import { openAiBatchApi, type BatchApi, type BatchRunnerDeps } from "./batch/batch-runner";
import type { JudgeQueue } from "./workers/judge-queue";
import type { SlotSource } from "./endpoints/endpoint-limiter";

/** Video jobs sent through the process's job queue (lib/jobs/job-boss.ts): how requests and alignments start runs. */
export function appJudgeQueue(): JudgeQueue {
  return {
    async enqueue(jobs) {
      await pgBossQueue(await jobBoss()).enqueue(jobs);
    },
    async startBatchChecks(runId) {
      await pgBossQueue(await jobBoss()).startBatchChecks!(runId);
    },
  };
}

/** What a worker's batch checks need (lib/judge/batch/batch-runner.ts): one SDK client per endpoint. */
export function workerBatchDeps(): Omit<BatchRunnerDeps, "enqueueVideos" | "videoJobsInFlight"> {
  const apis = new Map<string, BatchApi>();
  return {
    prisma,
    storage: getStorage(),
    endpointConfig: (runId, endpointId) => endpointConfigForRun(prisma, runId, endpointId),
    batchApiFor(endpoint) {
      const k = JSON.stringify([endpoint.id, endpoint.baseUrl, endpoint.apiKey]);
      let api = apis.get(k);
      if (!api) apis.set(k, (api = openAiBatchApi(endpoint)));
      return api;
    },
  };
}

/**
 * The real engine dependencies for a worker process: one client per endpoint, endpoint limits shared
 * with every other worker through the database, and the engine's own lines (retries, a failed step's
 * stack) in the job's JSON log.
 * `send` is the guardedFetch the clients share (each its own unless
 * given); `slotsFor` replaces the shared limits (a benchmark's per-process limiter).
 */
export function workerJudgeDeps(
  options: {
    send?: typeof fetch;
    slotsFor?: (endpoint: EndpointConfig) => SlotSource;
    subscribers?: readonly JudgeEventSubscriber[];
  } = {},
): JudgeDeps {
  const engineLog = (line: string) => log().warn(line);
  const clients = new Map<string, LlmClient>();
  const sharedLimits = new SharedLimits(prisma, undefined, engineLog);
  const slotsFor = options.slotsFor ?? ((endpoint: EndpointConfig) => sharedLimits.limiterFor(endpoint));
  const fingerprint = (e: EndpointConfig) =>
    JSON.stringify([e.id, e.baseUrl, e.apiKey, e.apiVersion ?? null, e.maxConcurrency, e.requestsPerMinute]);
  return {
    prisma,
    storage: getStorage(),
    templates: fileTemplateSource(),
    endpointConfig: (runId, endpointId) => endpointConfigForRun(prisma, runId, endpointId),
    llmFor(endpoint) {
      const k = fingerprint(endpoint);
      let client = clients.get(k);
      if (!client) clients.set(k, (client = clientForEndpoint(endpoint, options.send)));
      return client;
    },
    limiterFor: (endpoint) => slotsFor(endpoint),
    subscribers: options.subscribers,
    log: engineLog,
  };
}
