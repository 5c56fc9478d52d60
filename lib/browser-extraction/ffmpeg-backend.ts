// Fallback path: the ffmpeg.wasm Emscripten core, loaded directly inside the extraction worker.
//
// Why not @ffmpeg/ffmpeg's FFmpeg class: it runs the core in a second worker of its own (nested in ours)
// and proxies every call and every output file through messages. Loading the core's factory here instead
// lets us (1) mount the user's File read-only with WORKERFS (no copy, any size), (2) run ffprobe and ffmpeg
// synchronously next to the rest of the pipeline, taking raw RGBA out of ffmpeg and encoding JPEGs with
// OffscreenCanvas like the WebCodecs path (same quality semantics and features; it also sidesteps core
// 0.12.10's crash when writing several JPEGs without -huffman default), and (3) cancel by terminating the
// one worker.
//
// The core files are served from public/ffmpeg/ (copied there by scripts/copy-browser-assets.mjs) and
// imported at run time by URL, never bundled. The multi-thread core needs SharedArrayBuffer, so it is used
// only when the page is cross-origin isolated (COOP/COEP headers); otherwise the single-thread core.
//
// Timestamp semantics match the WebCodecs path and <video>: the frame for time t is the one whose
// presentation interval contains t (largest pts ≤ t, edit lists applied by ffmpeg's demuxer; times before
// the first frame get the first frame). We list the packets' pts with ffprobe (demux only, no decoding),
// pick the frames, then decode with -copyts (so filter timestamps equal the demuxer's pts) and keep
// exactly those frames with a select filter on their pts, seeking to the nearest keyframe when a long
// stretch would otherwise be decoded for nothing.
import { audioOnlyError, corruptError, describe, notAVideoError, sniff, unsupportedCodecError } from "./diagnose";
import { encodeJpeg, featuresOf, fitWithin } from "./frame-output";
import type { SampleOptions, VideoProbe, WorkerFrame } from "./types";
import { ExtractionError } from "./types";

interface EmscriptenFS {
  mkdir(path: string): void;
  mount(type: unknown, options: unknown, mountpoint: string): void;
  unmount(mountpoint: string): void;
  readFile(path: string): Uint8Array;
  unlink(path: string): void;
  readdir(path: string): string[];
  filesystems: Record<string, unknown>;
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

/**
 * The multi-thread core needs SharedArrayBuffer (cross-origin isolation) and starts its threads from
 * core-mt/ffmpeg-core.worker.js, which Chromium refuses under isolation unless that script is served with
 * a COEP header; a refused thread worker would hang the core, so check the header first.
 */
async function ffmpegVariant(baseUrl: string): Promise<"core" | "core-mt"> {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  if (!isolated) return "core";
  try {
    const response = await fetch(`${baseUrl}/core-mt/ffmpeg-core.worker.js`, { method: "HEAD", cache: "no-store" });
    const coep = response.headers.get("cross-origin-embedder-policy") ?? "";
    if (response.ok && /require-corp|credentialless/.test(coep)) return "core-mt";
    console.warn(`[frame-extraction] using the single-thread ffmpeg core: ${baseUrl}/core-mt/ffmpeg-core.worker.js is not served with Cross-Origin-Embedder-Policy (got "${coep}")`);
  } catch {
    /* fall through */
  }
  return "core";
}

async function loadCore(baseUrl: string): Promise<FFmpegCore> {
  const variant = await ffmpegVariant(baseUrl.replace(/\/$/, ""));
  const dir = `${baseUrl.replace(/\/$/, "")}/${variant}`;
  const coreURL = `${dir}/ffmpeg-core.js`;
  let factory: CoreFactory;
  try {
    const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ coreURL)) as { default: CoreFactory };
    factory = mod.default;
  } catch (error) {
    throw new ExtractionError("internal", `Could not load the built-in video decoder from ${coreURL} (${describe(error)}). Run "npm install" so public/ffmpeg/ is populated.`);
  }
  // The core's locateFile reads the wasm/worker URLs from this fragment (the same convention @ffmpeg/ffmpeg uses).
  const urls = btoa(JSON.stringify({ wasmURL: `${dir}/ffmpeg-core.wasm`, workerURL: `${dir}/ffmpeg-core.worker.js` }));
  return factory({ mainScriptUrlOrBlob: `${coreURL}#${urls}` });
}

function getCore(baseUrl: string): Promise<FFmpegCore> {
  corePromise ??= loadCore(baseUrl).catch((error) => {
    corePromise = null;
    throw error;
  });
  return corePromise;
}

interface RunResult {
  ret: number;
  stdout: string[];
  stderr: string[];
}

function run(core: FFmpegCore, tool: "ffmpeg" | "ffprobe", args: string[]): RunResult {
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
  const ret = core.ret;
  core.reset();
  core.setLogger(() => {});
  return { ret, stdout, stderr };
}

const INPUT_DIR = "/input";
const OUTPUT_DIR = "/output";

/** Mounts `file` read-only at /input/<name> for the duration of `fn`. */
async function withMountedFile<T>(core: FFmpegCore, file: Blob, fn: (path: string) => Promise<T>): Promise<T> {
  const fs = core.FS;
  for (const dir of [INPUT_DIR, OUTPUT_DIR]) {
    try {
      fs.mkdir(dir);
    } catch {
      /* exists */
    }
  }
  const original = (file as File).name ?? "";
  const ext = /\.[A-Za-z0-9]{1,5}$/.exec(original)?.[0] ?? "";
  const name = `video${ext.toLowerCase()}`;
  fs.mount(fs.filesystems.WORKERFS, { blobs: [{ name, data: file }] }, INPUT_DIR);
  try {
    return await fn(`${INPUT_DIR}/${name}`);
  } finally {
    try {
      fs.unmount(INPUT_DIR);
    } catch {
      /* already unmounted */
    }
    for (const leftover of safeReaddir(fs, OUTPUT_DIR)) fs.unlink(`${OUTPUT_DIR}/${leftover}`);
  }
}

function safeReaddir(fs: EmscriptenFS, dir: string): string[] {
  try {
    return fs.readdir(dir).filter((n) => n !== "." && n !== "..");
  } catch {
    return [];
  }
}

interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  color_space?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  duration?: string;
  start_time?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; start_time?: string; tags?: Record<string, string> };
  packets?: { stream_index?: number; pts_time?: string; dts_time?: string; flags?: string }[];
}

const FFMPEG_CODECS: Record<string, string> = { h264: "avc", hevc: "hevc", vp8: "vp8", vp9: "vp9", av1: "av1", prores: "prores" };
const IMAGE_FORMATS = /(^|,)(image2|[a-z0-9]+_pipe|gif|apng|webp)(,|$)/;

function rational(value: string | undefined): number | null {
  if (!value) return null;
  const [n, d] = value.split(/[/:]/).map(Number);
  if (n === undefined || !Number.isFinite(n)) return null;
  if (d === undefined) return n;
  if (!Number.isFinite(d) || d === 0) return null;
  return n / d;
}

function rotationOf(stream: ProbeStream): number {
  const side = stream.side_data_list?.find((s) => typeof s.rotation === "number")?.rotation;
  const tag = stream.tags?.rotate !== undefined ? -Number(stream.tags.rotate) : undefined;
  const degrees = side ?? tag ?? 0;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}

function displaySize(stream: ProbeStream): { width: number; height: number } {
  const w = stream.width ?? 0;
  const h = stream.height ?? 0;
  const sar = rational(stream.sample_aspect_ratio);
  const sw = sar && sar > 0 ? Math.round(w * sar) : w;
  return rotationOf(stream) % 180 === 0 ? { width: sw, height: h } : { width: h, height: sw };
}

function containerOf(probe: ProbeJson, videoCodec: string | null): string | null {
  const name = probe.format?.format_name;
  if (!name) return null;
  if (name.startsWith("mov,mp4")) return probe.format?.tags?.major_brand?.trim() === "qt" ? "mov" : "mp4";
  if (name.startsWith("matroska")) return videoCodec && ["vp8", "vp9", "av1"].includes(videoCodec) ? "webm" : "mkv";
  return name.split(",")[0] ?? name;
}

/** ffmpeg log lines (at -v error) that mean the video data itself is damaged. */
const DAMAGE_PATTERN =
  /partial file|truncat|end of file|invalid nal|error while decoding|concealing|corrupt|missing picture|no frame!|invalid data|error reading header|ebml header parsing failed|exceeds containing master element|decode_slice_header error|illegal short term buffer|cabac decode .* failed|out of range/i;

function lastMeaningfulLine(logs: string[]): string {
  return (
    logs
      .filter((l) => l.trim() && !/^Aborted\(/.test(l))
      .slice(-1)[0]
      ?.replace(/^\[[^\]]+\]\s*/, "")
      .replace(/^[^:]*\/input\/[^:]*:\s*/, "") ?? ""
  );
}

/** Classifies ffmpeg/ffprobe failure logs. The file's signature decides "corrupt" vs "not a video". */
async function diagnoseFailure(file: Blob, logs: string[]): Promise<ExtractionError> {
  const lower = logs.join("\n").toLowerCase();
  const sniffed = await sniff(file);
  const decoderMissing = /decoder \(codec ([a-z0-9_]+)\) not found|unsupported codec|codec not currently supported/.exec(lower);
  if (decoderMissing) return unsupportedCodecError(decoderMissing[1] ?? null);
  if (sniffed.kind === "text" || sniffed.kind === "image" || sniffed.kind === "unknown") return notAVideoError(sniffed);
  if (sniffed.kind === "audio" && !DAMAGE_PATTERN.test(lower)) return audioOnlyError();
  if (lower.includes("moov atom not found")) return corruptError("the MP4 index (moov atom) is missing, so the file was probably cut short");
  if (lower.includes("partial file")) return corruptError("the file ends before all of its video data, so it was probably cut short");
  return corruptError(`it looks like ${sniffed.kind === "video-container" ? sniffed.name : "a media file"} but could not be read (${lastMeaningfulLine(logs) || "unknown error"})`);
}

interface PacketInfo {
  pts: number;
  key: boolean;
}

interface FfmpegInfo {
  probe: ProbeJson;
  stream: ProbeStream;
  display: { width: number; height: number };
  codec: string | null;
  /** The video stream's frames in presentation order (packets the demuxer marks as discarded are dropped). */
  frames: PacketInfo[];
}

/**
 * One ffprobe pass: format, streams and every packet's timestamps (demux only, no decoding).
 * The core keeps ffprobe's option state between calls (a -show_streams given once stays on), so every
 * call must use exactly these arguments.
 */
async function inspect(core: FFmpegCore, file: Blob, path: string): Promise<FfmpegInfo> {
  const args = ["-v", "error", "-of", "json=c=1", "-show_format", "-show_streams", "-show_entries", "packet=stream_index,pts_time,dts_time,flags", path];
  const result = run(core, "ffprobe", args);
  let probe: ProbeJson = {};
  try {
    probe = JSON.parse(result.stdout.join("\n") || "{}") as ProbeJson;
  } catch {
    probe = {};
  }
  const streams = probe.streams ?? [];
  // The core's ffprobe entry point does not report an exit code (ret stays -1), so judge by its output.
  if (streams.length === 0) throw await diagnoseFailure(file, result.stderr);
  if (IMAGE_FORMATS.test(probe.format?.format_name ?? "")) throw notAVideoError({ kind: "image", name: probe.format?.format_name ?? "image" });
  const video = streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  if (!video) {
    if (streams.some((s) => s.codec_type === "audio")) throw audioOnlyError();
    throw notAVideoError(await sniff(file), "it contains no video track");
  }
  if (!video.codec_name || video.codec_name === "none" || !video.width || !video.height) {
    throw unsupportedCodecError(video.codec_name ?? (video.tags?.handler_name || null));
  }
  const codec = FFMPEG_CODECS[video.codec_name] ?? video.codec_name;
  if (result.stderr.some((l) => DAMAGE_PATTERN.test(l) || /moov atom not found/i.test(l))) throw await diagnoseFailure(file, result.stderr);

  const frames: PacketInfo[] = [];
  let packetCount = 0;
  for (const packet of probe.packets ?? []) {
    if (packet.stream_index !== video.index) continue;
    packetCount++;
    // Packets before an edit list's start are demuxed for decoding but never shown.
    if (packet.flags?.includes("D")) continue;
    const pts = Number(packet.pts_time !== undefined && packet.pts_time !== "N/A" ? packet.pts_time : packet.dts_time);
    if (Number.isFinite(pts)) frames.push({ pts, key: packet.flags?.includes("K") ?? false });
  }
  frames.sort((a, b) => a.pts - b.pts);
  probe.packets = undefined;
  if (frames.length === 0) throw corruptError("no video frames could be read — the file ends before its video data");
  const declared = video.nb_frames !== undefined ? Number(video.nb_frames) : NaN;
  if (Number.isFinite(declared) && declared > packetCount) throw corruptError(`only ${packetCount} of ${declared} video frames are present`);
  return { probe, stream: video, display: displaySize(video), codec, frames };
}

export async function probeWithFfmpeg(file: Blob, baseUrl: string): Promise<VideoProbe> {
  const core = await getCore(baseUrl);
  return withMountedFile(core, file, async (path) => {
    const info = await inspect(core, file, path);
    const { probe, stream, frames } = info;
    const lastGap = frames.length > 1 ? frames[frames.length - 1]!.pts - frames[frames.length - 2]!.pts : 0;
    const videoEnd = frames[frames.length - 1]!.pts + lastGap;
    let durationS = Number(stream.duration ?? probe.format?.duration ?? NaN);
    if (!Number.isFinite(durationS) || durationS <= 0) durationS = videoEnd;
    let fps = rational(stream.avg_frame_rate);
    if (!fps || !Number.isFinite(fps) || fps <= 0) fps = durationS > 0 ? frames.length / durationS : rational(stream.r_frame_rate);
    return {
      durationS,
      fps: fps && Number.isFinite(fps) && fps > 0 ? fps : null,
      width: info.display.width,
      height: info.display.height,
      codec: info.codec,
      container: containerOf(probe, info.codec),
      frameCount: frames.length,
      hasVideo: true,
      hasAudio: (probe.streams ?? []).some((s) => s.codec_type === "audio"),
    };
  });
}

/** Index of the frame shown at time t: the last frame with pts ≤ t, or the first frame. */
function frameIndexAt(frames: PacketInfo[], t: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  if (t < frames[0]!.pts) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid]!.pts <= t + 1e-7) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Start a new (seeking) ffmpeg run when more than this many frames would otherwise be decoded for nothing. */
const SEEK_GAP_FRAMES = 48;
/** Raw RGBA output kept in the in-memory FS per run. */
const MAX_SEGMENT_BYTES = 64 * 1024 * 1024;

export async function sampleWithFfmpeg(file: Blob, timestampsS: number[], options: SampleOptions, baseUrl: string, onProgress: (done: number, total: number) => void): Promise<WorkerFrame[]> {
  const core = await getCore(baseUrl);
  return withMountedFile(core, file, async (path) => {
    const info = await inspect(core, file, path);
    const frames = info.frames;
    const { width, height } = fitWithin(info.display.width, info.display.height, options.maxSide);
    const frameBytes = width * height * 4;

    const requestedIndex = timestampsS.map((t) => frameIndexAt(frames, t));
    const selected = [...new Set(requestedIndex)].sort((a, b) => a - b);
    const minGap = frames.slice(1).reduce((m, f, i) => Math.min(m, f.pts - frames[i]!.pts), Infinity);
    const epsilon = Math.min(0.0005, Number.isFinite(minGap) && minGap > 0 ? minGap / 4 : 0.0005);

    // Group the selected frames into runs. Each run seeks (by pts) to just before the keyframe that
    // precedes its first frame, decodes from there, and keeps only the selected frames.
    const keyIndexBefore = (i: number) => {
      for (let k = i; k >= 0; k--) if (frames[k]!.key) return k;
      return 0;
    };
    const maxPerSegment = Math.max(1, Math.floor(MAX_SEGMENT_BYTES / frameBytes));
    const segments: number[][] = [];
    for (const index of selected) {
      const current = segments[segments.length - 1];
      const previous = current?.[current.length - 1];
      if (!current || previous === undefined || current.length >= maxPerSegment || keyIndexBefore(index) - previous > SEEK_GAP_FRAMES) segments.push([index]);
      else current.push(index);
    }

    // Untagged video: use the matrix <video> would (Chromium: BT.601 below 720 lines, BT.709 from 720 up);
    // ffmpeg alone would always pick BT.601. Tagged video: ffmpeg follows the tags, like the browser.
    const untagged = !info.stream.color_space || info.stream.color_space === "unknown";
    const matrix = untagged ? `:in_color_matrix=${(info.stream.height ?? 0) >= 720 ? "bt709" : "bt601"}` : "";
    const scaleFilter = `scale=${width}:${height}:flags=area${matrix},setsar=1,format=rgba`;
    const out = `${OUTPUT_DIR}/frames.rgba`;
    const decodeSegment = (segment: number[], seek: boolean) => {
      const select = segment.map((i) => `lt(abs(t-${frames[i]!.pts.toFixed(6)})\\,${epsilon})`).join("+");
      // -copyts: filter timestamps are the demuxer's pts (what we selected on). -noaccurate_seek: no trimming
      // after the seek, the select filter does the picking.
      const args = ["-hide_banner", "-v", "error", "-copyts", "-seek_timestamp", "1", "-noaccurate_seek"];
      const key = keyIndexBefore(segment[0]!);
      if (seek && key > 0) args.push("-ss", (frames[key]!.pts - epsilon).toFixed(6));
      args.push("-i", path, "-map", `0:${info.stream.index}`, "-an", "-sn", "-dn");
      args.push("-vf", `select=${select},${scaleFilter}`, "-fps_mode", "passthrough", "-frames:v", String(segment.length), "-f", "rawvideo", "-y", out);
      const result = run(core, "ffmpeg", args);
      let data: Uint8Array | null = null;
      try {
        data = core.FS.readFile(out);
        core.FS.unlink(out);
      } catch {
        data = null;
      }
      return { result, data, count: data ? Math.floor(data.length / frameBytes) : 0 };
    };

    const total = timestampsS.length;
    const results = new Map<number, { jpeg: Blob; features: Float32Array }>();
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext("2d", { alpha: false });
    if (!context) throw new ExtractionError("internal", "OffscreenCanvas 2D context unavailable in the worker");
    let done = 0;

    for (const segment of segments) {
      let decoded = decodeSegment(segment, true);
      // A demuxer that seeks imprecisely may land after the first wanted frame: decode from the start instead.
      if (decoded.count < segment.length && keyIndexBefore(segment[0]!) > 0) decoded = decodeSegment(segment, false);
      const { result, data, count } = decoded;
      if (result.ret !== 0 && count < segment.length) throw await diagnoseFailure(file, result.stderr);
      // ffmpeg conceals damaged data and carries on; the WebCodecs path fails on it, and so do we.
      const damage = result.stderr.find((l) => DAMAGE_PATTERN.test(l));
      if (damage) throw corruptError(`the video data could not be decoded (${lastMeaningfulLine([damage])})`);
      if (!data || count < segment.length) {
        const detail = lastMeaningfulLine(result.stderr);
        throw corruptError(`only ${count} of ${segment.length} frames near ${frames[segment[0]!]!.pts.toFixed(2)} s could be decoded${detail ? ` (${detail})` : ""}`);
      }
      // Encode this run's frames before the next run, so at most one run of raw frames is held.
      for (const [k, index] of segment.entries()) {
        const pixels = new Uint8ClampedArray(data.buffer as ArrayBuffer, data.byteOffset + k * frameBytes, frameBytes);
        context.putImageData(new ImageData(pixels, width, height), 0, 0);
        const features = featuresOf(canvas, info.display.width, info.display.height);
        const jpeg = await encodeJpeg(canvas, options.jpegQuality);
        results.set(index, { jpeg, features });
        done += requestedIndex.filter((r) => r === index).length;
        onProgress(done, total);
      }
    }

    const frames_: WorkerFrame[] = [];
    for (let i = 0; i < timestampsS.length; i++) {
      const index = requestedIndex[i]!;
      const { jpeg, features } = results.get(index)!;
      frames_.push({ timestampS: timestampsS[i]!, frameTimestampS: frames[index]!.pts, jpeg, width, height, features });
    }
    return frames_;
  });
}
