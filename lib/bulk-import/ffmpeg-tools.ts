// The ffmpeg and ffprobe that headless frame extraction runs: native binaries on PATH when present (faster:
// multi-threaded decoding, separate processes), else the ffmpeg.wasm core the browser's fallback already
// ships (@ffmpeg/core, single-thread), one per Node worker thread (ffmpeg-wasm-thread.mjs). Both take the
// same arguments, so native-extraction.ts drives either one the same way and picks the same frames.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { describe } from "../browser-extraction/diagnose";
import { ExtractionError } from "../browser-extraction/types";

/** What a frame set is recorded as (`frame_set.decoder`): native ffmpeg, or the ffmpeg.wasm core in Node (as the browser's fallback records it). */
export type HeadlessDecoder = "ffmpeg" | "ffmpeg.wasm";

/** `--ffmpeg` / FRAMEJURY_FFMPEG: native only, the wasm core only, or native when it runs (the default). */
export const FFMPEG_CHOICES = ["auto", "native", "wasm"] as const;
export type FfmpegChoice = (typeof FFMPEG_CHOICES)[number];

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string[];
}

/** A video made readable to the tools, with a scratch folder for their outputs and the tools to run on it. */
export interface StagedFile {
  /** The path to give ffmpeg/ffprobe as input. */
  input: string;
  /** A folder (in the tools' file system) for output files, emptied when the call ends. */
  scratch: string;
  /** An output file's bytes, or null when the tool did not write it. */
  read(toolPath: string): Promise<Uint8Array | null>;
  run(tool: "ffmpeg" | "ffprobe", args: string[], signal?: AbortSignal): Promise<ToolResult>;
}

export interface FfmpegTools {
  decoder: HeadlessDecoder;
  /** Said in progress output: which ffmpeg extracts the frames. */
  description: string;
  withFile<T>(filePath: string, fn: (staged: StagedFile) => Promise<T>): Promise<T>;
  /** The ffmpeg build, e.g. "ffmpeg 5.1.9", asked once: recorded with each frame set it makes. */
  version(): Promise<string>;
  /** Output arguments for several JPEGs from one run (core 0.12.10 hangs writing them with optimal Huffman tables). */
  jpegArgs: string[];
}

/** Native ffmpeg and ffprobe are not on PATH (or do not run), and native was asked for. */
export class NativeFfmpegMissingError extends Error {
  constructor(detail: string) {
    super(
      `Native ffmpeg was asked for (--ffmpeg native or FRAMEJURY_FFMPEG=native), and ${detail}. Install it (Debian/Ubuntu: "sudo apt-get install -y ffmpeg"; macOS: "brew install ffmpeg") so "ffmpeg" and "ffprobe" are on PATH, or use --ffmpeg auto to fall back to the slower built-in ffmpeg.wasm.`,
    );
    this.name = "NativeFfmpegMissingError";
  }
}

function cancelled(): ExtractionError {
  return new ExtractionError("cancelled", "Frame extraction was cancelled.");
}

/** Why native ffmpeg cannot be used, or null when both `ffmpeg` and `ffprobe` run. */
export function nativeFfmpegProblem(): string | null {
  for (const tool of ["ffmpeg", "ffprobe"]) {
    const result = spawnSync(tool, ["-version"], { stdio: ["ignore", "pipe", "ignore"] });
    if (result.error || result.status !== 0)
      return `"${tool}" could not be run (${result.error ? describe(result.error) : `exit code ${result.status}`})`;
  }
  return null;
}

function runNative(tool: "ffmpeg" | "ffprobe", args: string[], signal?: AbortSignal): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const child = spawn(tool, args, { stdio: ["ignore", "pipe", "pipe"], signal });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      if (signal?.aborted) reject(cancelled());
      else if ((error as NodeJS.ErrnoException).code === "ENOENT")
        reject(new NativeFfmpegMissingError(`"${tool}" is not on PATH`));
      else reject(error);
    });
    child.on("close", (code) => {
      if (signal?.aborted) return reject(cancelled());
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8").split("\n").filter(Boolean),
      });
    });
  });
}

/** "ffmpeg <version>" from the first line `ffmpeg -version` prints ("ffmpeg version 5.1.9-0+deb12u1 Copyright …"). */
function ffmpegVersionOf(output: string): string {
  const version = /ffmpeg version (\S+)/i.exec(output)?.[1];
  return `ffmpeg ${version ?? "(unknown version)"}`;
}

let nativeVersion: Promise<string> | null = null;

export const nativeTools: FfmpegTools = {
  decoder: "ffmpeg",
  description: "native ffmpeg",
  jpegArgs: [],
  version() {
    nativeVersion ??= runNative("ffmpeg", ["-hide_banner", "-version"]).then((result) =>
      ffmpegVersionOf(result.stdout),
    );
    return nativeVersion;
  },
  async withFile(filePath, fn) {
    const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), "framejury-frames-"));
    try {
      return await fn({
        input: filePath,
        scratch,
        read: (toolPath) => fs.promises.readFile(toolPath).catch(() => null),
        run: runNative,
      });
    } finally {
      await fs.promises.rm(scratch, { recursive: true, force: true });
    }
  },
};

/** One worker thread with its own ffmpeg.wasm core; calls are answered in the order they are made. */
class WasmThread {
  private readonly worker = new Worker(new URL("./ffmpeg-wasm-thread.mjs", import.meta.url));
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  private nextId = 1;
  /** Ended (cancelled, crashed or trapped): never reused. */
  ended = false;
  private terminated = false;

  constructor() {
    // An idle thread must not keep the command running; a call under way refs it again.
    this.worker.unref();
    this.worker.on(
      "message",
      ({ id, ok, result, message }: { id: number; ok: boolean; result: unknown; message?: string }) => {
        const call = this.pending.get(id);
        this.pending.delete(id);
        if (this.pending.size === 0) this.worker.unref();
        if (ok) call?.resolve(result);
        else call?.reject(new ExtractionError("internal", `ffmpeg.wasm failed: ${message}`));
      },
    );
    this.worker.on("error", (error) =>
      this.fail(new ExtractionError("internal", `ffmpeg.wasm's thread crashed: ${describe(error)}`)),
    );
    this.worker.on("exit", () => this.fail(new ExtractionError("internal", "ffmpeg.wasm's thread stopped")));
  }

  call<T>(op: string, payload: Record<string, unknown>): Promise<T> {
    if (this.ended) return Promise.reject(new ExtractionError("internal", "ffmpeg.wasm's thread stopped"));
    const id = this.nextId++;
    this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, op, ...payload });
    });
  }

  async run(tool: "ffmpeg" | "ffprobe", args: string[], signal?: AbortSignal): Promise<ToolResult> {
    if (signal?.aborted) throw cancelled();
    // A cancel ends the thread, stopping the synchronous run part-way.
    const onAbort = () => this.fail(cancelled());
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const { trapped, ...result } = await this.call<ToolResult & { trapped: boolean }>("run", { tool, args });
      if (trapped) this.ended = true;
      return result;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Ends the thread; calls under way reject with `error`. */
  fail(error: Error) {
    this.ended = true;
    if (!this.terminated) {
      this.terminated = true;
      void this.worker.terminate();
    }
    for (const call of this.pending.values()) call.reject(error);
    this.pending.clear();
  }
}

const idleThreads: WasmThread[] = [];
let stagedCount = 0;

let wasmVersion: Promise<string> | null = null;

export const wasmTools: FfmpegTools = {
  decoder: "ffmpeg.wasm",
  description: "ffmpeg.wasm in Node (one thread per job; install native ffmpeg for faster extraction)",
  jpegArgs: ["-huffman", "default"],
  version() {
    // A thread of its own, ended afterwards: a core that ran `-version` fails the next file it is given.
    wasmVersion ??= (async () => {
      const thread = new WasmThread();
      try {
        const result = await thread.run("ffmpeg", ["-hide_banner", "-version"]);
        return ffmpegVersionOf([result.stdout, ...result.stderr].join("\n"));
      } finally {
        thread.fail(new ExtractionError("internal", "ffmpeg.wasm's version thread ended"));
      }
    })();
    return wasmVersion;
  },
  async withFile(filePath, fn) {
    // One thread per file under way: --jobs N files at once use N threads (and cores).
    const thread = idleThreads.pop() ?? new WasmThread();
    const dir = `/work-${++stagedCount}`;
    const ext = /\.[A-Za-z0-9]{1,5}$/.exec(filePath)?.[0]?.toLowerCase() ?? "";
    const input = `${dir}/video${ext}`;
    try {
      await thread.call("stage", { dir, input, filePath });
      return await fn({
        input,
        scratch: `${dir}/out`,
        read: (toolPath) => thread.call<Uint8Array | null>("read", { path: toolPath }),
        run: (tool, args, signal) => thread.run(tool, args, signal),
      });
    } finally {
      if (!thread.ended) await thread.call("unstage", { dir }).catch(() => (thread.ended = true));
      if (thread.ended) thread.fail(new ExtractionError("internal", "ffmpeg.wasm's thread stopped"));
      else idleThreads.push(thread);
    }
  },
};

/** The tools `choice` names: native (throws NativeFfmpegMissingError when it does not run), the wasm core, or native when it runs. */
export function chooseFfmpegTools(choice: FfmpegChoice = "auto"): FfmpegTools {
  if (choice === "wasm") return wasmTools;
  const problem = nativeFfmpegProblem();
  if (!problem) return nativeTools;
  if (choice === "native") throw new NativeFfmpegMissingError(problem);
  return wasmTools;
}

/** FRAMEJURY_FFMPEG, checked: an unknown value is an error, not a silent default. */
export function ffmpegChoiceFromEnvironment(value = process.env.FRAMEJURY_FFMPEG): FfmpegChoice {
  const choice = (value ?? "").trim().toLowerCase() || "auto";
  if (!(FFMPEG_CHOICES as readonly string[]).includes(choice))
    throw new Error(`FRAMEJURY_FFMPEG must be one of ${FFMPEG_CHOICES.join(", ")} (got "${value}")`);
  return choice as FfmpegChoice;
}

let defaultTools: FfmpegTools | null = null;

/** The tools used when a caller names none: FRAMEJURY_FFMPEG's choice, decided once per process. */
export function defaultFfmpegTools(): FfmpegTools {
  defaultTools ??= chooseFfmpegTools(ffmpegChoiceFromEnvironment());
  return defaultTools;
}
