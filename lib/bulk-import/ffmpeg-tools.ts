// The ffmpeg and ffprobe that headless frame extraction runs: native binaries on PATH when present (faster:
// multi-threaded decoding, separate processes), else the ffmpeg.wasm core the browser's fallback already
// ships (@ffmpeg/core, single-thread), run inside this Node process. Both take the same arguments, so
// native-extraction.ts drives either one the same way and picks the same frames.
//
// The core is an Emscripten build for browsers and web workers only (ENVIRONMENT_IS_WORKER is hard-wired):
// it reads `self.location.href` at load and would fetch its .wasm by URL. Evaluating its UMD script with our
// own `self` and handing it the .wasm bytes (`wasmBinary`) is all it needs to run in Node. Its WORKERFS reads
// through FileReaderSync, which Node lacks, so the video is copied into the core's in-memory file system
// (MEMFS) for the duration of one call, and outputs are read back from there.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
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

/** A video made readable to the tools, with a scratch folder for their outputs. */
export interface StagedFile {
  /** The path to give ffmpeg/ffprobe as input. */
  input: string;
  /** A folder (in the tools' file system) for output files, emptied when the call ends. */
  scratch: string;
  /** An output file's bytes, or null when the tool did not write it. */
  read(toolPath: string): Promise<Uint8Array | null>;
}

export interface FfmpegTools {
  decoder: HeadlessDecoder;
  /** Said in progress output: which ffmpeg extracts the frames. */
  description: string;
  run(tool: "ffmpeg" | "ffprobe", args: string[], signal?: AbortSignal): Promise<ToolResult>;
  withFile<T>(filePath: string, fn: (staged: StagedFile) => Promise<T>): Promise<T>;
  /** Output arguments for several JPEGs from one run (core 0.12.10 crashes writing optimal Huffman tables). */
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
    if (result.error || result.status !== 0) return `"${tool}" could not be run (${result.error ? describe(result.error) : `exit code ${result.status}`})`;
  }
  return null;
}

export const nativeTools: FfmpegTools = {
  decoder: "ffmpeg",
  description: "native ffmpeg",
  jpegArgs: [],
  run(tool, args, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(cancelled());
      const child = spawn(tool, args, { stdio: ["ignore", "pipe", "pipe"], signal });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.on("error", (error) => {
        if (signal?.aborted) reject(cancelled());
        else if ((error as NodeJS.ErrnoException).code === "ENOENT") reject(new NativeFfmpegMissingError(`"${tool}" is not on PATH`));
        else reject(error);
      });
      child.on("close", (code) => {
        if (signal?.aborted) return reject(cancelled());
        resolve({ code, stdout: Buffer.concat(stdout).toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8").split("\n").filter(Boolean) });
      });
    });
  },
  async withFile(filePath, fn) {
    const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), "framejury-frames-"));
    try {
      return await fn({ input: filePath, scratch, read: (toolPath) => fs.promises.readFile(toolPath).catch(() => null) });
    } finally {
      await fs.promises.rm(scratch, { recursive: true, force: true });
    }
  },
};

interface EmscriptenFS {
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
  readFile(path: string): Uint8Array;
  readdir(path: string): string[];
  unlink(path: string): void;
  rmdir(path: string): void;
}

interface FFmpegCore {
  FS: EmscriptenFS;
  exec(...args: string[]): number;
  ffprobe(...args: string[]): number;
  setLogger(logger: (entry: { type: string; message: string }) => void): void;
  setTimeout(ms: number): void;
  reset(): void;
  ret: number;
}

type CoreFactory = (module: Record<string, unknown>) => Promise<FFmpegCore>;

let corePromise: Promise<FFmpegCore> | null = null;

async function loadCore(): Promise<FFmpegCore> {
  let scriptPath: string;
  try {
    scriptPath = createRequire(import.meta.url).resolve("@ffmpeg/core");
  } catch (error) {
    throw new ExtractionError("internal", `The built-in ffmpeg.wasm (@ffmpeg/core) is not installed (${describe(error)}). Run "npm install", or install native ffmpeg.`);
  }
  const [source, wasmBinary] = await Promise.all([fs.promises.readFile(scriptPath, "utf8"), fs.promises.readFile(scriptPath.replace(/\.js$/, ".wasm"))]);
  // The UMD script assigns module.exports; `self` stands in for the worker global it expects.
  const evaluate = vm.runInThisContext(`(function (self, module, exports) {${source}\n})`, { filename: scriptPath }) as (self: unknown, module: { exports: unknown }, exports: unknown) => void;
  const loaded: { exports: unknown } = { exports: {} };
  evaluate({ location: { href: `file://${scriptPath}` } }, loaded, loaded.exports);
  return (loaded.exports as CoreFactory)({ wasmBinary });
}

function getCore(): Promise<FFmpegCore> {
  corePromise ??= loadCore().catch((error) => {
    corePromise = null;
    throw error;
  });
  return corePromise;
}

let stagedCount = 0;

function removeTree(fsys: EmscriptenFS, dir: string) {
  let names: string[] = [];
  try {
    names = fsys.readdir(dir).filter((name) => name !== "." && name !== "..");
  } catch {
    return;
  }
  for (const name of names) fsys.unlink(`${dir}/${name}`);
  fsys.rmdir(dir);
}

export const wasmTools: FfmpegTools = {
  decoder: "ffmpeg.wasm",
  description: "ffmpeg.wasm in Node (single-thread; install native ffmpeg for faster extraction)",
  jpegArgs: ["-huffman", "default"],
  async run(tool, args, signal) {
    if (signal?.aborted) throw cancelled();
    const core = await getCore();
    if (signal?.aborted) throw cancelled();
    // The core runs synchronously on this thread; a cancel takes effect between runs (one segment of frames).
    const stdout: string[] = [];
    const stderr: string[] = [];
    core.setLogger(({ type, message }) => (type === "stdout" ? stdout : stderr).push(message));
    core.setTimeout(-1);
    try {
      if (tool === "ffmpeg") core.exec(...args);
      else core.ffprobe(...args);
    } catch (error) {
      // A wasm trap (not ffmpeg's normal exit) may leave the core unusable: load a fresh one next time.
      stderr.push(describe(error));
      corePromise = null;
    }
    const code = core.ret;
    core.reset();
    core.setLogger(() => {});
    return { code, stdout: stdout.join("\n"), stderr: stderr.filter((line) => line && !/^Aborted\(\)$/.test(line)) };
  },
  async withFile(filePath, fn) {
    const core = await getCore();
    const bytes = await fs.promises.readFile(filePath);
    const dir = `/work-${++stagedCount}`;
    const ext = /\.[A-Za-z0-9]{1,5}$/.exec(filePath)?.[0]?.toLowerCase() ?? "";
    core.FS.mkdir(dir);
    core.FS.mkdir(`${dir}/out`);
    const input = `${dir}/video${ext}`;
    core.FS.writeFile(input, bytes);
    try {
      return await fn({
        input,
        scratch: `${dir}/out`,
        read: async (toolPath) => {
          try {
            return core.FS.readFile(toolPath);
          } catch {
            return null;
          }
        },
      });
    } finally {
      // The core in use now (a trap may have replaced it) holds no other copy of this call's files.
      const current = await getCore().catch(() => null);
      if (current === core) {
        removeTree(core.FS, `${dir}/out`);
        removeTree(core.FS, dir);
      }
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
  if (!(FFMPEG_CHOICES as readonly string[]).includes(choice)) throw new Error(`FRAMEJURY_FFMPEG must be one of ${FFMPEG_CHOICES.join(", ")} (got "${value}")`);
  return choice as FfmpegChoice;
}

let defaultTools: FfmpegTools | null = null;

/** The tools used when a caller names none: FRAMEJURY_FFMPEG's choice, decided once per process. */
export function defaultFfmpegTools(): FfmpegTools {
  defaultTools ??= chooseFfmpegTools(ffmpegChoiceFromEnvironment());
  return defaultTools;
}
