import { prisma } from "../../lib/db/prisma";
import { EndpointLimiter } from "../../lib/judge/endpoints/endpoint-limiter";
import { endpointConfigForRun } from "../../lib/judge/endpoints/endpoints";
import { judgeVideo, type JudgeDeps } from "../../lib/judge/engine/judge-video";
import { clientForEndpoint } from "../../lib/judge/calls/llm-client";
import type { JudgeQueue } from "../../lib/judge/workers/judge-queue";
import { getStorage } from "../../lib/storage/storage";
import { fileTemplateSource } from "../../lib/judge/prompts/template-source";
import { appContext } from "../../lib/app-context/app-context";

/**
 * The engine's dependencies for tests: the real database, storage, templates and OpenAI-compatible
 * client (pointed at the stub LLM by the test's endpoint), with quick retries and no real sleeping.
 * A fresh client and limiter per call, so one test's limiter never holds another's requests. The engine's events go
 * to the subscribers the composition root lists, as a worker's do; `subscribers: []` closes videos with nothing after.
 */
export function testJudgeDeps(overrides: Partial<JudgeDeps> = {}): JudgeDeps {
  return {
    prisma,
    storage: getStorage(),
    templates: fileTemplateSource(),
    endpointConfig: (runId, endpointId) => endpointConfigForRun(prisma, runId, endpointId),
    llmFor: (endpoint) => clientForEndpoint(endpoint),
    limiterFor: (endpoint) =>
      new EndpointLimiter({ maxConcurrency: endpoint.maxConcurrency, requestsPerMinute: endpoint.requestsPerMinute }),
    retryPolicy: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
    sleep: async () => {},
    subscribers: appContext().judgeEventSubscribers,
    ...overrides,
  };
}

/** Runs each job inline, as a worker would, so a run is finished when `createRun` returns. */
export function inlineJudgeQueue(deps: JudgeDeps): JudgeQueue {
  return { enqueue: async (jobs) => void (await Promise.all(jobs.map((job) => judgeVideo(deps, job)))) };
}
