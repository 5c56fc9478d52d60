/** What the judge engine is given: an endpoint's settings as a run calls it, and the engine's outside world. */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ObjectStorage } from "../../storage/object-storage";
import type { CallLimiter } from "../endpoints/endpoint-limiter";
import type { LlmClient, RetryPolicy } from "../calls/llm-client";
import type { TemplateSource } from "../prompts/template-source";
import type { EndpointCapabilities } from "../endpoints/endpoint-capabilities";
import type { JudgeEventSubscriber } from "./judge-events";

export interface EndpointConfig {
  id: string;
  baseUrl: string;
  model: string;
  apiKey: string | null;
  imageDetail: "low" | "high" | "auto";
  temperature: number | null;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  timeoutSeconds: number;
  structuredOutput: boolean;
  pricePer1kInput: number | null;
  pricePer1kOutput: number | null;
  /** The endpoint serves the Batch API: a batch-mode run's calls to it go in batches. */
  supportsBatchApi?: boolean;
  /** The most answer tokens a request may ask for: the ceiling of the retry of an answer cut off; null: the server's default. */
  maxTokens?: number | null;
  /** Azure OpenAI's `api-version`; set, the client speaks Azure's dialect (lib/judge/calls/llm-client.ts). */
  apiVersion?: string | null;
  /** False: images go without a `detail` field (Gemini, Ollama). */
  sendImageDetail?: boolean;
  /** What the endpoint's last probe found; null: never probed (everything is asked for). */
  capabilities?: EndpointCapabilities | null;
  /** Ask for the answer's token logprobs (`topLogprobs` alternatives each), for expected scores. */
  requestLogprobs?: boolean;
  topLogprobs?: number;
}

/**
 * What the engine needs from the outside, passed in so tests can hand it fakes: the database,
 * frame storage, an LLM client and a limiter per endpoint, the templates and the clock.
 */
export interface JudgeDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
  templates: TemplateSource;
  llmFor(endpoint: EndpointConfig): LlmClient;
  limiterFor(endpoint: EndpointConfig): CallLimiter;
  /** The run's endpoint, or (with `endpointId`) another endpoint of the run's project that a step calls. */
  endpointConfig(runId: string, endpointId?: string): Promise<EndpointConfig>;
  /**
   * Who hears the engine's events ("video closed", "run finished": ./judge-events.ts), in order, as the process's
   * start hands them in (the composition root's judgeEventSubscribers); none: a video closes with its summary and
   * metrics alone.
   */
  subscribers?: readonly JudgeEventSubscriber[];
  retryPolicy?: RetryPolicy;
  sleep?(ms: number): Promise<void>;
  log?(line: string): void;
}
