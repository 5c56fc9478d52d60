// What ffprobe and ffmpeg are asked, and how their answers are read, when frames are sampled with ffmpeg:
// shared by ffmpeg.wasm in the browser (lib/browser-extraction/ffmpeg-backend.ts) and native ffmpeg in
// Node (lib/bulk-import/native-extraction.ts), so both pick the same frames at the same size and colours.
//
// Timestamp semantics match the WebCodecs path and <video>: the frame for time t is the one whose
// presentation interval contains t (largest pts ≤ t, edit lists applied by ffmpeg's demuxer; times before
// the first frame get the first frame). ffprobe lists the packets' pts (demux only, no decoding); the
// frames are picked from that list, then decoded with -copyts (so filter timestamps equal the demuxer's
// pts) and kept by a select filter on their pts, seeking to the nearest keyframe when a long stretch would
// otherwise be decoded for nothing.
import { audioOnlyError, corruptError, notAVideoError, sniff, unsupportedCodecError } from "./diagnose";
import type { VideoProbe } from "./types";
import { ExtractionError } from "./types";
import { computeLumaFeatures, lumaOfRgba } from "../frames/frame-features";

interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  pix_fmt?: string;
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

const FFMPEG_CODECS: Record<string, string> = {
  h264: "avc",
  hevc: "hevc",
  vp8: "vp8",
  vp9: "vp9",
  av1: "av1",
  prores: "prores",
};
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
export const DAMAGE_PATTERN =
  /partial file|truncat|end of file|invalid nal|error while decoding|concealing|corrupt|missing picture|no frame!|invalid data|error reading header|ebml header parsing failed|exceeds containing master element|decode_slice_header error|illegal short term buffer|cabac decode .* failed|out of range/i;

export function lastMeaningfulLine(logs: string[]): string {
  return (
    logs
      .filter((l) => l.trim() && !/^Aborted\(/.test(l))
      .slice(-1)[0]
      ?.replace(/^\[[^\]]+\]\s*/, "")
      .replace(/^[^:]*\/input\/[^:]*:\s*/, "") ?? ""
  );
}

/** Classifies ffmpeg/ffprobe failure logs. The file's signature decides "corrupt" vs "not a video". */
export async function diagnoseFailure(file: Blob, logs: string[]): Promise<ExtractionError> {
  const lower = logs.join("\n").toLowerCase();
  const sniffed = await sniff(file);
  const decoderMissing =
    /decoder \(codec ([a-z0-9_]+)\) not found|unsupported codec|codec not currently supported/.exec(lower);
  if (decoderMissing) return unsupportedCodecError(decoderMissing[1] ?? null);
  if (sniffed.kind === "text" || sniffed.kind === "image" || sniffed.kind === "unknown") return notAVideoError(sniffed);
  if (sniffed.kind === "audio" && !DAMAGE_PATTERN.test(lower)) return audioOnlyError();
  if (lower.includes("moov atom not found"))
    return corruptError("the MP4 index (moov atom) is missing, so the file was probably cut short");
  if (lower.includes("partial file"))
    return corruptError("the file ends before all of its video data, so it was probably cut short");
  return corruptError(
    `it looks like ${sniffed.kind === "video-container" ? sniffed.name : "a media file"} but could not be read (${lastMeaningfulLine(logs) || "unknown error"})`,
  );
}

interface PacketInfo {
  pts: number;
  key: boolean;
}

export interface FfmpegInfo {
  probe: ProbeJson;
  stream: ProbeStream;
  display: { width: number; height: number };
  codec: string | null;
  /** The video stream's frames in presentation order (packets the demuxer marks as discarded are dropped). */
  frames: PacketInfo[];
}

/**
 * One ffprobe pass: format, streams and every packet's timestamps (demux only, no decoding).
 * The wasm core keeps ffprobe's option state between calls (a -show_streams given once stays on), so every
 * call must use exactly these arguments.
 */
export function inspectionArgs(path: string): string[] {
  return [
    "-v",
    "error",
    "-of",
    "json=c=1",
    "-show_format",
    "-show_streams",
    "-show_entries",
    "packet=stream_index,pts_time,dts_time,flags",
    path,
  ];
}

/** Reads ffprobe's answer to inspectionArgs; throws an ExtractionError saying what is wrong with the file. */
export async function readInspection(file: Blob, stdout: string, stderr: string[]): Promise<FfmpegInfo> {
  let probe: ProbeJson = {};
  try {
    probe = JSON.parse(stdout || "{}") as ProbeJson;
  } catch {
    probe = {};
  }
  const streams = probe.streams ?? [];
  // The wasm core's ffprobe entry point does not report an exit code (ret stays -1), so judge by its output.
  if (streams.length === 0) throw await diagnoseFailure(file, stderr);
  if (IMAGE_FORMATS.test(probe.format?.format_name ?? ""))
    throw notAVideoError({ kind: "image", name: probe.format?.format_name ?? "image" });
  const video = streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  if (!video) {
    if (streams.some((s) => s.codec_type === "audio")) throw audioOnlyError();
    throw notAVideoError(await sniff(file), "it contains no video track");
  }
  if (!video.codec_name || video.codec_name === "none" || !video.width || !video.height) {
    throw unsupportedCodecError(video.codec_name ?? (video.tags?.handler_name || null));
  }
  const codec = FFMPEG_CODECS[video.codec_name] ?? video.codec_name;
  if (stderr.some((l) => DAMAGE_PATTERN.test(l) || /moov atom not found/i.test(l)))
    throw await diagnoseFailure(file, stderr);

  const frames: PacketInfo[] = [];
  let packetCount = 0;
  for (const packet of probe.packets ?? []) {
    if (packet.stream_index !== video.index) continue;
    packetCount++;
    // Packets before an edit list's start are demuxed for decoding but never shown.
    if (packet.flags?.includes("D")) continue; // ffprobe's discard flag: not a task name
    const pts = Number(packet.pts_time !== undefined && packet.pts_time !== "N/A" ? packet.pts_time : packet.dts_time);
    if (Number.isFinite(pts)) frames.push({ pts, key: packet.flags?.includes("K") ?? false });
  }
  frames.sort((a, b) => a.pts - b.pts);
  probe.packets = undefined;
  if (frames.length === 0) throw corruptError("no video frames could be read — the file ends before its video data");
  const declared = video.nb_frames !== undefined ? Number(video.nb_frames) : NaN;
  if (Number.isFinite(declared) && declared > packetCount)
    throw corruptError(`only ${packetCount} of ${declared} video frames are present`);
  return { probe, stream: video, display: displaySize(video), codec, frames };
}

export function probeFromInspection(info: FfmpegInfo): VideoProbe {
  const { probe, stream, frames } = info;
  const lastGap = frames.length > 1 ? frames[frames.length - 1]!.pts - frames[frames.length - 2]!.pts : 0;
  const videoEnd = frames[frames.length - 1]!.pts + lastGap;
  let durationS = Number(stream.duration ?? probe.format?.duration ?? NaN);
  if (!Number.isFinite(durationS) || durationS <= 0) durationS = videoEnd;
  let fps = rational(stream.avg_frame_rate);
  if (!fps || !Number.isFinite(fps) || fps <= 0)
    fps = durationS > 0 ? frames.length / durationS : rational(stream.r_frame_rate);
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

export interface SamplingPlan {
  /** For each requested timestamp (or frame), the index (into info.frames) of the frame it shows. */
  requestedIndex: number[];
  /** Runs of frame indices, each decoded by one ffmpeg run. */
  segments: number[][];
  /** Half-width of the pts window the select filter matches. */
  epsilon: number;
}

/** Which frames the timestamps show, grouped into runs of at most `maxPerSegment` frames. */
export function planSampling(info: FfmpegInfo, timestampsS: number[], maxPerSegment: number): SamplingPlan {
  return planFrameSampling(
    info,
    timestampsS.map((t) => frameIndexAt(info.frames, t)),
    maxPerSegment,
  );
}

/**
 * VBench-2.0's total_frames and avg_fps (lib/frames/vbench-uniform.ts), as decord reads them.
 *
 * total_frames: the number of the stream's frames, counted here from its packets in presentation order. Not
 * nb_frames: these are the frames a uniform set indexes into (frame i must exist and be shown), and a count is
 * exact where nb_frames is missing (WebM, MKV), where decord's fallback, duration × fps, can be a frame off.
 * decord's len(vr) is the size of its own index of the stream's packets (older releases: nb_frames); where the
 * container declares nb_frames (MP4, MOV) the count equals it (readInspection refuses a file with fewer packets
 * than declared), except for frames an edit list cuts, which are never shown and not counted.
 *
 * avg_fps: the stream's avg_frame_rate, which decord's get_avg_fps() returns (for MP4, ffmpeg derives it from
 * the sample count and the track's duration). When the demuxer gives none (0/0), frames per second of duration.
 */
export function vbenchFrameCountAndRate(info: FfmpegInfo): { totalFrames: number; avgFps: number } {
  const totalFrames = info.frames.length;
  const declared = rational(info.stream.avg_frame_rate);
  if (declared && Number.isFinite(declared) && declared > 0) return { totalFrames, avgFps: declared };
  const durationS = probeFromInspection(info).durationS;
  if (Number.isFinite(durationS) && durationS > 0) return { totalFrames, avgFps: totalFrames / durationS };
  throw corruptError("the video's frame rate is unknown, so its frames cannot be given times");
}

/** The frames at these indices (into info.frames, in any order, repeats allowed), grouped into runs of at most `maxPerSegment` frames. */
export function planFrameSampling(info: FfmpegInfo, requestedIndex: number[], maxPerSegment: number): SamplingPlan {
  const frames = info.frames;
  for (const index of requestedIndex)
    if (!(Number.isInteger(index) && index >= 0 && index < frames.length))
      throw new RangeError(`Frame ${index} is not one of the video's ${frames.length} frames.`);
  const selected = [...new Set(requestedIndex)].sort((a, b) => a - b);
  const minGap = frames.slice(1).reduce((m, f, i) => Math.min(m, f.pts - frames[i]!.pts), Infinity);
  const epsilon = Math.min(0.0005, Number.isFinite(minGap) && minGap > 0 ? minGap / 4 : 0.0005);
  // Each run seeks (by pts) to just before the keyframe that precedes its first frame, decodes from there,
  // and keeps only the selected frames.
  const segments: number[][] = [];
  for (const index of selected) {
    const current = segments[segments.length - 1];
    const previous = current?.[current.length - 1];
    if (
      !current ||
      previous === undefined ||
      current.length >= maxPerSegment ||
      keyIndexBefore(info, index) - previous > SEEK_GAP_FRAMES
    )
      segments.push([index]);
    else current.push(index);
  }
  return { requestedIndex, segments, epsilon };
}

/** swscale flags for every scale of a sampled frame (see segmentDecoding). */
export const SCALE_FLAGS = "area+accurate_rnd+bitexact";

/** The keyframe at or before frame `index` (0 when none is marked). */
export function keyIndexBefore(info: FfmpegInfo, index: number): number {
  for (let k = index; k >= 0; k--) if (info.frames[k]!.key) return k;
  return 0;
}

/** How a segment's luma planes come out of ffmpeg (the [luma] output of segmentDecoding), for computeLumaFeatures. */
interface LumaOutput {
  /** The filter that turns a decoded frame into its luma samples. */
  filter: string;
  width: number;
  height: number;
  /** Bytes per sample: 1, or 2 (little-endian) for video of more than 8 bits. */
  bytesPerSample: 1 | 2;
  /** Largest sample value (255, 1023, …). */
  maxValue: number;
  /** True when the frame has no Y plane (RGB video): the output is RGB24 and luma comes from lumaOfRgba. */
  rgb: boolean;
}

/**
 * The decoded frame's own Y plane, untouched (extractplanes copies it; no scaling, no colour conversion): the
 * samples every decoder agrees on (lib/frames/frame-features.ts). The plane has the stream's (cropped) coded
 * size; ffmpeg's autorotate turns it like the picture, which the WebCodecs path matches by turning its grid.
 */
export function lumaOutput(info: FfmpegInfo): LumaOutput {
  const pixelFormat = info.stream.pix_fmt ?? "";
  const width = info.stream.width ?? 0;
  const height = info.stream.height ?? 0;
  const turned = rotationOf(info.stream) % 180 !== 0;
  const size = turned ? { width: height, height: width } : { width, height };
  if (!/^(yuv|yuvj|yuva|nv12|nv21|nv16|nv24|p010|p016|gray)/.test(pixelFormat))
    return { filter: "format=rgb24", ...size, bytesPerSample: 1, maxValue: 255, rgb: true };
  const depth = Number(
    /(?:p|gray)(9|10|12|14|16)(?:le|be)?$/.exec(pixelFormat)?.[1] ?? (pixelFormat.startsWith("p01") ? 16 : 8),
  );
  if (depth > 8)
    return {
      filter: `extractplanes=y,format=gray${depth === 9 ? 10 : depth}le`,
      ...size,
      bytesPerSample: 2,
      maxValue: 2 ** (depth === 9 ? 10 : depth) - 1,
      rgb: false,
    };
  return {
    filter: pixelFormat.startsWith("gray") ? "format=gray" : "extractplanes=y",
    ...size,
    bytesPerSample: 1,
    maxValue: 255,
    rgb: false,
  };
}

/**
 * ffmpeg's input arguments and the filter graph that decodes one segment's frames, with two outputs: [frame],
 * the picture scaled to width×height RGBA, and [luma], its luma plane (lumaOutput) for the features. Untagged
 * video gets the matrix <video> would use (Chromium: BT.601 below 720 lines, BT.709 from 720 up; ffmpeg alone
 * would always pick BT.601); tagged video follows its tags, like the browser.
 */
export function segmentDecoding(
  info: FfmpegInfo,
  path: string,
  segment: number[],
  seek: boolean,
  epsilon: number,
  size: { width: number; height: number },
) {
  const select = segment.map((i) => `lt(abs(t-${info.frames[i]!.pts.toFixed(6)})\\,${epsilon})`).join("+");
  // -copyts: filter timestamps are the demuxer's pts (what we selected on). -noaccurate_seek: no trimming
  // after the seek, the select filter does the picking.
  const inputArgs = ["-hide_banner", "-v", "error", "-copyts", "-seek_timestamp", "1", "-noaccurate_seek"];
  const key = keyIndexBefore(info, segment[0]!);
  if (seek && key > 0) inputArgs.push("-ss", (info.frames[key]!.pts - epsilon).toFixed(6));
  inputArgs.push("-i", path);
  const untagged = !info.stream.color_space || info.stream.color_space === "unknown";
  const matrix = untagged ? `:in_color_matrix=${(info.stream.height ?? 0) >= 720 ? "bt709" : "bt601"}` : "";
  const luma = lumaOutput(info);
  // accurate_rnd+bitexact: native ffmpeg's SIMD scalers round differently from the C code ffmpeg.wasm runs
  // (pixels off by up to 5); with them native gives the wasm core's pixels byte for byte. (The key frames no
  // longer depend on these pixels: they come from the [luma] output.)
  const graph =
    `[0:${info.stream.index}]select=${select},split=2[picked][plane];` +
    `[picked]scale=${size.width}:${size.height}:flags=${SCALE_FLAGS}${matrix},setsar=1,format=rgba[frame];` +
    `[plane]${luma.filter}[luma]`;
  return { inputArgs, graph, luma };
}

/** Bytes of one frame of the [luma] output. */
export function lumaPlaneBytes(luma: LumaOutput): number {
  return luma.width * luma.height * (luma.rgb ? 3 : luma.bytesPerSample);
}

/** computeLumaFeatures of one frame of the [luma] output (its lumaPlaneBytes bytes). */
export function lumaOutputFeatures(luma: LumaOutput, bytes: Uint8Array): Float32Array {
  const { width, height } = luma;
  if (luma.rgb) return computeLumaFeatures({ samples: lumaOfRgba(bytes, width, height, 3), width, height });
  if (luma.bytesPerSample === 1) return computeLumaFeatures({ samples: bytes, width, height });
  const samples = new Uint16Array(width * height);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
  return computeLumaFeatures({ samples, width, height, maxValue: luma.maxValue });
}
