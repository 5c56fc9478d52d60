/**
 * TEST TOOL. What the stub LLM server is and keeps: its options, the records a test reads (requests, batches, batch
 * lines), and the state its route handlers share (./stub-state.ts makes it).
 */
import type http from "node:http";
import type { z } from "zod";
import type { Fault, QueuedFault, queuedFaultSchema } from "./stub-faults";
import type { StubRule } from "./stub-rule";
import type { StubVideoOptions } from "./stub-video";

export interface StubRequestRecord {
  id: string;
  /** When the request arrived (its body read), Date.now(). */
  at: number;
  /** When the answer was sent or the connection closed; null while it is in flight. */
  endedAt: number | null;
  /** The HTTP status answered (null: no answer, e.g. a hang or a disconnect). */
  status: number | null;
  model: string;
  rule: string;
  fault: Fault["kind"] | null;
  imageCount: number;
  text: string;
  /** The messages' roles in order, e.g. ["system", "user"]. */
  roles: string[];
  /** The path and query asked for (Azure's deployment path and `api-version`). */
  path: string;
  /** The request headers that identify a caller: OpenRouter's attribution headers, Azure's `api-key`, `authorization` (present or not). */
  headers: { httpReferer: string | null; title: string | null; apiKey: string | null; authorization: boolean };
  /** `max_tokens` as asked; null when not set. */
  maxTokens: number | null;
  /** Whether any image part carried a `detail` field. */
  imageDetail: boolean;
  /** `top_logprobs` as asked with `logprobs: true`; null when logprobs were not asked for. */
  topLogprobs: number | null;
  /** Each video part as read (./stub-video.ts): its form, the frames the rules saw, a clip's duration and frame count. */
  videos: { form: "jpeg-frames" | "clip"; frames: number; durationS: number | null; totalFrames: number }[];
  /** The request body's size in bytes. */
  bodyBytes: number;
}

export interface StubServerOptions {
  port?: number;
  host?: string;
  /** Added to every answer, e.g. 300 for the judge benchmark. */
  latencyMs?: number;
  /** With it, each answer's added latency is drawn uniformly between latencyMs and this, as a real model's varies. */
  latencyMaxMs?: number;
  /** A completion's JSON padded to about this many bytes (a real answer's usage, reasoning and ids), for the benchmark. */
  answerBytes?: number;
  rules?: StubRule[];
  log?: (line: string) => void;
  /** The Batch API's behaviour (see StubBatchOptions); changeable later with setBatchOptions or `POST /__stub/batch-options`. */
  batch?: Partial<StubBatchOptions>;
  /** How video parts are taken (./stub-video.ts); changeable later with setVideoOptions or `POST /__stub/video-options`. */
  video?: Partial<StubVideoOptions>;
}

export interface StubBatchOptions {
  /** How long after its creation a batch completes (its lines are answered then), in milliseconds. */
  completionDelayMs: number;
  /** The share of a batch's lines (0–1) that fail with a server error instead of an answer, chosen by a hash of the custom_id. */
  failedShare: number;
}

/** One line of a batch as the stub answered it. */
export interface StubBatchLineRecord {
  batchId: string;
  customId: string;
  text: string;
  /** A short hash of each image, as the rules see them. */
  images: string[];
  rule: string;
  fault: Fault["kind"] | "failed_line" | null;
  /** 200 for an answer; the error status of a failed line. */
  status: number;
}

export interface StubBatchRecord {
  id: string;
  inputFileId: string;
  status: "validating" | "in_progress" | "finalizing" | "completed" | "failed" | "expired" | "cancelling" | "cancelled";
  lineCount: number;
  createdAt: number;
  completeAt: number;
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number };
  cancelledAt: number | null;
  metadata: Record<string, string> | null;
}

export interface StubServer {
  url: string;
  /** The base URL to give an OpenAI client: `${url}/v1`. */
  baseURL: string;
  port: number;
  requests: StubRequestRecord[];
  /** Batches created through `/v1/batches`, by id, and every batch line answered so far. */
  batches: Map<string, StubBatchRecord>;
  batchLines: StubBatchLineRecord[];
  setBatchOptions(options: Partial<StubBatchOptions>): void;
  /** Changes how video parts are taken (a mode, a frame or body limit); fields left out keep their value. */
  setVideoOptions(options: Partial<StubVideoOptions>): void;
  addFault(fault: z.input<typeof queuedFaultSchema>): void;
  reset(): void;
  close(): Promise<void>;
}

/** An uploaded file (`/v1/files`): a batch's input, or the output and error files the stub writes. */
export interface StubFile {
  id: string;
  purpose: string;
  filename: string;
  bytes: Buffer;
  createdAt: number;
}

/** What the route handlers share: the options, the queued faults, the records and the Batch API's files and batches. */
export interface StubState {
  options: StubServerOptions;
  /** The rules, read per request. */
  rules(): readonly StubRule[];
  log(line: string): void;
  faults: QueuedFault[];
  requests: StubRequestRecord[];
  /** Answers held open by a `hang` fault, destroyed when the server closes. */
  hanging: Set<http.ServerResponse>;
  batchOptions: StubBatchOptions;
  videoOptions: StubVideoOptions;
  files: Map<string, StubFile>;
  batches: Map<string, StubBatchRecord>;
  batchLines: StubBatchLineRecord[];
  /** How often each model and text was answered by a rule, by `${model}\n${text}`. */
  answered: Map<string, number>;
}
