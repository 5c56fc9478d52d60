// Main-thread wrapper around the extraction worker. One FrameExtractor owns one worker and runs one
// request at a time (later calls queue). Aborting a running request terminates the worker (ffmpeg.wasm
// runs synchronously inside it, so that is the only prompt way to stop it); the next request starts a
// fresh worker.
import type {
  DecoderName,
  KeyFrameSetSample,
  SampledFrame,
  UniformSample,
  VideoProbe,
  WorkerConfig,
  WorkerRequest,
  WorkerResponse,
} from "./types";
import { ExtractionError } from "./types";

export interface FrameExtractorOptions {
  /** Creates the worker. Defaults to the bundled extract-frames.worker.ts (Next.js/Turbopack bundles it). */
  createWorker?: () => Worker;
  /** Absolute or root-relative URL of the ffmpeg.wasm assets (public/ffmpeg). Defaults to "/ffmpeg". */
  ffmpegBaseUrl?: string;
}

export interface SampleRequestOptions {
  maxSide: number;
  jpegQuality: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  forceDecoder?: DecoderName;
}

type Payload =
  | { kind: "probe"; file: Blob; forceDecoder?: DecoderName }
  | { kind: "sample"; file: Blob; timestampsS: number[]; options: Omit<SampleRequestOptions, "signal" | "onProgress"> }
  | { kind: "sample-uniform"; file: Blob; count: number; options: Omit<SampleRequestOptions, "signal" | "onProgress"> }
  | {
      kind: "sample-key-frame-set";
      file: Blob;
      sampleFps: number;
      options: Omit<SampleRequestOptions, "signal" | "onProgress">;
    };

interface Job {
  id: number;
  payload: Payload;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  resolve: (response: WorkerResponse) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

function defaultWorker(): Worker {
  return new Worker(new URL("./extract-frames.worker.ts", import.meta.url), {
    type: "module",
    name: "frame-extraction",
  });
}

function cancelled(): ExtractionError {
  return new ExtractionError("cancelled", "Frame extraction was cancelled.");
}

export class FrameExtractor {
  private worker: Worker | null = null;
  private workerReady = false;
  private running: Job | null = null;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private readonly createWorker: () => Worker;
  private readonly config: WorkerConfig;

  constructor(options: FrameExtractorOptions = {}) {
    this.createWorker = options.createWorker ?? defaultWorker;
    const base = options.ffmpegBaseUrl ?? "/ffmpeg";
    // The worker imports the core by URL, so it needs an absolute one (a module worker resolves relative URLs
    // against its own script URL, which under a bundler is somewhere in /_next/).
    this.config = {
      ffmpegBaseUrl: new URL(base, typeof location !== "undefined" ? location.href : "http://localhost/").href.replace(
        /\/$/,
        "",
      ),
    };
  }

  async probe(
    file: Blob,
    opts: { signal?: AbortSignal; forceDecoder?: DecoderName } = {},
  ): Promise<{ probe: VideoProbe; decoder: DecoderName }> {
    const response = await this.enqueue({ kind: "probe", file, forceDecoder: opts.forceDecoder }, opts.signal);
    if (response.type !== "probe") throw new ExtractionError("internal", `Unexpected worker response ${response.type}`);
    return { probe: response.probe, decoder: response.decoder };
  }

  async sample(
    file: Blob,
    timestampsS: number[],
    opts: SampleRequestOptions,
  ): Promise<{ frames: SampledFrame[]; decoder: DecoderName }> {
    if (!(opts.maxSide >= 1)) throw new ExtractionError("internal", `maxSide must be ≥ 1, got ${opts.maxSide}`);
    if (timestampsS.length === 0) return { frames: [], decoder: opts.forceDecoder ?? "webcodecs" };
    const { maxSide, jpegQuality, forceDecoder } = opts;
    const response = await this.enqueue(
      {
        kind: "sample",
        file,
        timestampsS: [...timestampsS],
        options: { maxSide: Math.floor(maxSide), jpegQuality, forceDecoder },
      },
      opts.signal,
      opts.onProgress,
    );
    if (response.type !== "sample")
      throw new ExtractionError("internal", `Unexpected worker response ${response.type}`);
    return { frames: response.frames, decoder: response.decoder };
  }

  /**
   * VBench-2.0's uniform set of `count` frames (lib/frames/vbench-uniform.ts): the frames at
   * np.linspace(0, total_frames − 1, count) by their index among the video's decoded frames, each once, with
   * the video's frame count and average frame rate as the decoder read them.
   */
  async sampleUniform(
    file: Blob,
    count: number,
    opts: SampleRequestOptions,
  ): Promise<{ sample: UniformSample; decoder: DecoderName; decoderVersion: string }> {
    if (!(opts.maxSide >= 1)) throw new ExtractionError("internal", `maxSide must be ≥ 1, got ${opts.maxSide}`);
    const { maxSide, jpegQuality, forceDecoder } = opts;
    const response = await this.enqueue(
      { kind: "sample-uniform", file, count, options: { maxSide: Math.floor(maxSide), jpegQuality, forceDecoder } },
      opts.signal,
      opts.onProgress,
    );
    if (response.type !== "sample-uniform")
      throw new ExtractionError("internal", `Unexpected worker response ${response.type}`);
    return { sample: response.sample, decoder: response.decoder, decoderVersion: response.decoderVersion };
  }

  /**
   * The frames a key-frame set samples at `sampleFps` (keyFrameSampling in lib/frames/plan-frame-set.ts): picked by
   * their index among the decoded frames, with features from each frame's luma plane, so WebCodecs, ffmpeg.wasm
   * and native ffmpeg sample, and then pick, the same frames. `decoderVersion` says which build decoded them.
   */
  async sampleKeyFrameSet(
    file: Blob,
    sampleFps: number,
    opts: SampleRequestOptions,
  ): Promise<{ sample: KeyFrameSetSample; decoder: DecoderName; decoderVersion: string }> {
    if (!(opts.maxSide >= 1)) throw new ExtractionError("internal", `maxSide must be ≥ 1, got ${opts.maxSide}`);
    const { maxSide, jpegQuality, forceDecoder } = opts;
    const response = await this.enqueue(
      {
        kind: "sample-key-frame-set",
        file,
        sampleFps,
        options: { maxSide: Math.floor(maxSide), jpegQuality, forceDecoder },
      },
      opts.signal,
      opts.onProgress,
    );
    if (response.type !== "sample-key-frame-set")
      throw new ExtractionError("internal", `Unexpected worker response ${response.type}`);
    return { sample: response.sample, decoder: response.decoder, decoderVersion: response.decoderVersion };
  }

  /** Stops the worker; running and queued requests reject with "cancelled". The extractor stays usable. */
  terminate(): void {
    const jobs = [...(this.running ? [this.running] : []), ...this.queue.splice(0)];
    this.running = null;
    this.killWorker();
    for (const job of jobs) {
      job.cleanup();
      job.reject(cancelled());
    }
  }

  private enqueue(
    payload: Payload,
    signal?: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<WorkerResponse> {
    return new Promise<WorkerResponse>((resolve, reject) => {
      if (signal?.aborted) {
        reject(cancelled());
        return;
      }
      const job: Job = { id: this.nextId++, payload, signal, onProgress, resolve, reject, cleanup: () => {} };
      if (signal) {
        const onAbort = () => this.abort(job);
        signal.addEventListener("abort", onAbort, { once: true });
        job.cleanup = () => signal.removeEventListener("abort", onAbort);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  private abort(job: Job) {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
    } else if (this.running === job) {
      this.running = null;
      this.killWorker();
    } else {
      return;
    }
    job.cleanup();
    job.reject(cancelled());
    this.pump();
  }

  private killWorker() {
    this.worker?.terminate();
    this.worker = null;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    this.workerReady = false;
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.onMessage(worker, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault?.();
      this.onWorkerFailure(
        worker,
        this.workerReady
          ? `the extraction worker crashed${event.message ? `: ${event.message}` : ""}`
          : `the extraction worker could not start${event.message ? ` (${event.message})` : ""}. If the page is cross-origin isolated, its worker scripts must be served with "Cross-Origin-Embedder-Policy: require-corp"`,
      );
    };
    worker.onmessageerror = () => this.onWorkerFailure(worker, "a worker message could not be deserialized");
    this.worker = worker;
    return worker;
  }

  private onWorkerFailure(worker: Worker, message: string) {
    if (worker !== this.worker) return;
    const job = this.running;
    this.running = null;
    this.killWorker();
    if (job) {
      job.cleanup();
      job.reject(new ExtractionError("internal", `Frame extraction failed: ${message}.`));
    }
    this.pump();
  }

  private onMessage(worker: Worker, message: WorkerResponse) {
    if (message.type === "ready") {
      if (worker === this.worker) this.workerReady = true;
      return;
    }
    const job = this.running;
    if (worker !== this.worker || !job || message.id !== job.id) return;
    if (message.type === "progress") {
      job.onProgress?.(message.done, message.total);
      return;
    }
    this.running = null;
    job.cleanup();
    if (message.type === "error") job.reject(new ExtractionError(message.code, message.message));
    else job.resolve(message);
    this.pump();
  }

  private pump() {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    let request: WorkerRequest;
    if (job.payload.kind === "probe") {
      request = {
        id: job.id,
        kind: "probe",
        file: job.payload.file,
        config: this.config,
        forceDecoder: job.payload.forceDecoder,
      };
    } else if (job.payload.kind === "sample-key-frame-set") {
      request = {
        id: job.id,
        kind: "sample-key-frame-set",
        file: job.payload.file,
        config: this.config,
        sampleFps: job.payload.sampleFps,
        options: job.payload.options,
      };
    } else if (job.payload.kind === "sample-uniform") {
      request = {
        id: job.id,
        kind: "sample-uniform",
        file: job.payload.file,
        config: this.config,
        count: job.payload.count,
        options: job.payload.options,
      };
    } else {
      request = {
        id: job.id,
        kind: "sample",
        file: job.payload.file,
        config: this.config,
        timestampsS: job.payload.timestampsS,
        options: job.payload.options,
      };
    }
    try {
      this.ensureWorker().postMessage(request);
    } catch (error) {
      this.running = null;
      job.cleanup();
      job.reject(
        new ExtractionError(
          "internal",
          `Could not start frame extraction: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      this.pump();
    }
  }
}
