import type { PgBoss } from "pg-boss";
import { prisma } from "../db/prisma";
import { getStorage } from "../storage/storage";
import { EndpointLimiter } from "./endpoint-limiter";
import { endpointConfigForRun } from "./endpoints";
import type { EndpointConfig, JudgeDeps } from "./engine/judge-video";
import { openAiCompatibleClient, type LlmClient } from "./llm-client";
import { PIPELINES } from "./pipelines";
import { fileTemplateSource } from "./template-source";
import { pgBossQueue, startBoss } from "./queue";
import type { JudgeQueue } from "./runs";

const globalForJudge = globalThis as unknown as { bossForSending?: Promise<PgBoss> };

/** The web process only sends jobs: a pg-boss without supervision, started on first use. */
export function appJudgeQueue(): JudgeQueue {
  return {
    async enqueue(jobs) {
      globalForJudge.bossForSending ??= startBoss(process.env.DATABASE_URL!, { supervise: false });
      await pgBossQueue(await globalForJudge.bossForSending).enqueue(jobs);
    },
  };
}

/** The real engine dependencies for a worker process: one client and limiter per endpoint. */
export function workerJudgeDeps(log: (line: string) => void = () => {}): JudgeDeps {
  const clients = new Map<string, LlmClient>();
  const limiters = new Map<string, EndpointLimiter>();
  const fingerprint = (e: EndpointConfig) => JSON.stringify([e.id, e.baseUrl, e.apiKey, e.maxConcurrency, e.requestsPerMinute]);
  return {
    prisma,
    storage: getStorage(),
    pipelines: PIPELINES,
    templates: fileTemplateSource(),
    endpointConfig: (runId, endpointId) => endpointConfigForRun(prisma, runId, endpointId),
    llmFor(endpoint) {
      const k = fingerprint(endpoint);
      let client = clients.get(k);
      if (!client) clients.set(k, (client = openAiCompatibleClient({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey })));
      return client;
    },
    limiterFor(endpoint) {
      const k = fingerprint(endpoint);
      let limiter = limiters.get(k);
      if (!limiter) limiters.set(k, (limiter = new EndpointLimiter({ maxConcurrency: endpoint.maxConcurrency, requestsPerMinute: endpoint.requestsPerMinute })));
      return limiter;
    },
    log,
  };
}
