// Fast path: mediabunny demuxes (edit lists applied) and decodes through WebCodecs inside the worker.
// Anything mediabunny cannot demux, or whose track WebCodecs cannot decode, raises NeedsFallback so the
// worker can retry with ffmpeg.wasm.
import {
  ALL_FORMATS,
  BlobSource,
  EncodedPacketSink,
  Input,
  type InputFormat,
  type InputVideoTrack,
  MATROSKA,
  MP4,
  MPEG_TS,
  OGG,
  QTFF,
  VideoSample,
  VideoSampleSink,
  WEBM,
} from "mediabunny";
import { audioOnlyError, corruptError, describe, isExtractionError } from "./diagnose";
import { computeLumaFeatures, FEATURE_GRID, lumaOfRgba } from "../frames/frame-features";
import { keyFrameSampling } from "../frames/plan-frame-set";
import { uniformFrameSetFrames } from "../frames/vbench-uniform";
import { fitWithin } from "../frames/frame-size";
import { encodeJpeg } from "./frame-output";
import type { KeyFrameSetSample, SampleOptions, UniformSample, VideoProbe, WorkerFrame } from "./types";
import { ExtractionError } from "./types";

/** mediabunny or WebCodecs cannot handle this file; ffmpeg.wasm might. */
export class NeedsFallback extends Error {
  constructor(
    readonly reason: "demux" | "decode",
    message: string,
    readonly codec: string | null = null,
  ) {
    super(message);
  }
}

/** Files up to this size get a full packet scan for non-indexed containers (WebM without cues, MPEG-TS). */
const FULL_SCAN_MAX_BYTES = 64 * 1024 * 1024;
/** How many packets to look at when only estimating the frame rate. */
const FPS_ESTIMATE_PACKETS = 240;

function containerName(format: InputFormat): string {
  if (format === MP4) return "mp4";
  if (format === QTFF) return "mov";
  if (format === WEBM) return "webm";
  if (format === MATROSKA) return "mkv";
  if (format === MPEG_TS) return "mpegts";
  if (format === OGG) return "ogg";
  return format.name.toLowerCase();
}

/** A decoder/read failure from mediabunny or WebCodecs → ExtractionError. */
function decodeFailure(error: unknown): ExtractionError {
  if (isExtractionError(error)) return error;
  const message = describe(error);
  const name = error instanceof Error ? error.name : "";
  if (
    name === "EncodingError" ||
    /decod|corrupt|invalid|out of bounds|offset|unexpected end|end of file|truncat|range/i.test(message)
  ) {
    return corruptError(`the video data could not be decoded (${message})`);
  }
  return new ExtractionError("internal", `Frame extraction failed unexpectedly: ${message}`, { cause: error });
}

interface Opened {
  input: Input;
  format: InputFormat;
  video: InputVideoTrack;
  hasAudio: boolean;
}

async function open(file: Blob): Promise<Opened> {
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  try {
    let format: InputFormat;
    try {
      format = await input.getFormat();
    } catch (error) {
      throw new NeedsFallback("demux", describe(error));
    }
    let tracks;
    try {
      tracks = await input.getTracks();
    } catch (error) {
      // Recognized signature but unreadable structure (e.g. an MP4 whose index is missing).
      throw new NeedsFallback("demux", describe(error));
    }
    const video = await input.getPrimaryVideoTrack();
    const hasAudio = tracks.some((t) => t.isAudioTrack());
    if (!video) {
      if (hasAudio) throw audioOnlyError();
      throw new NeedsFallback("demux", "no video track found");
    }
    const codec = await video.getCodec();
    if (!codec || !(await video.canDecode())) {
      throw new NeedsFallback("decode", `WebCodecs cannot decode ${codec ?? "this codec"}`, codec);
    }
    return { input, format, video, hasAudio };
  } catch (error) {
    input.dispose();
    throw error;
  }
}

/** Reads the first and last packets, so a file cut short fails even when its index (moov) survived. */
async function verifyComplete(video: InputVideoTrack, fileSize: number): Promise<void> {
  const packets = new EncodedPacketSink(video);
  let first, last;
  try {
    first = await packets.getFirstPacket();
    last = await packets.getPacket(Infinity);
  } catch (error) {
    throw corruptError(`reading the video packets failed (${describe(error)})`);
  }
  if (!first || !last || last.byteLength === 0 || first.byteLength === 0) {
    throw corruptError(`the file ends before all of its video data (${fileSize} bytes), so it was probably cut short`);
  }
}

/** Also decodes the first frame, so undecodable files fail at probe. */
async function verifyReadable(video: InputVideoTrack, fileSize: number): Promise<void> {
  await verifyComplete(video, fileSize);
  let sample;
  try {
    sample = await new VideoSampleSink(video).getSample(await video.getFirstTimestamp());
  } catch (error) {
    throw decodeFailure(error);
  }
  if (!sample) throw corruptError("the first video frame could not be decoded");
  sample.close();
}

export async function probeWithWebCodecs(file: Blob): Promise<VideoProbe> {
  const { input, format, video, hasAudio } = await open(file);
  try {
    const container = containerName(format);
    const indexed = format === MP4 || format === QTFF;
    const fullScan = indexed || file.size <= FULL_SCAN_MAX_BYTES;
    let stats;
    try {
      stats = fullScan ? await video.computePacketStats() : await video.computePacketStats(FPS_ESTIMATE_PACKETS);
    } catch (error) {
      throw corruptError(`the video index could not be read (${describe(error)})`);
    }
    const durationS = await video.computeDuration().catch(async () => (await input.computeDuration()) ?? 0);
    await verifyReadable(video, file.size);
    const fps =
      Number.isFinite(stats.averagePacketRate) && stats.averagePacketRate > 0 ? stats.averagePacketRate : null;
    return {
      durationS,
      fps,
      width: await video.getDisplayWidth(),
      height: await video.getDisplayHeight(),
      codec: await video.getCodec(),
      container,
      frameCount: fullScan ? stats.packetCount : null,
      hasVideo: true,
      hasAudio,
    };
  } finally {
    input.dispose();
  }
}

/**
 * Offset between mediabunny's timeline and the one <video> uses, for MP4/MOV files whose edit list starts
 * inside a frame (e.g. cut with "ffmpeg -ss 1.02 -c copy"). mediabunny shows that partial first frame
 * from a negative time; Chromium's demuxer (FFmpeg) drops it and shifts the track so the next frame
 * starts at 0. Returns the mediabunny time of <video>'s time 0 (0 for ordinary files).
 */
async function videoTimelineShift(video: InputVideoTrack, format: InputFormat): Promise<number> {
  if (format !== MP4 && format !== QTFF) return 0;
  if ((await video.getFirstTimestamp()) >= 0) return 0;
  const atZero = await new EncodedPacketSink(video).getPacket(0, { metadataOnly: true });
  if (!atZero || atZero.timestamp >= 0) return 0;
  return atZero.timestamp + atZero.duration;
}

/**
 * The colour space <video> would use when the file does not say. Chromium's media pipeline assumes BT.601
 * for untagged video under 720 lines and BT.709 from 720 lines up; WebCodecs (and mediabunny, which fills
 * missing fields with BT.709) would always use BT.709. Returns the override to apply, or null.
 */
async function untaggedColorSpace(video: InputVideoTrack): Promise<VideoColorSpaceInit | null> {
  const colorSpace = await video.getColorSpace();
  if (colorSpace.matrix) return null;
  if ((await video.getCodedHeight()) >= 720) return null; // BT.709: what mediabunny already uses
  return {
    matrix: "smpte170m",
    primaries: colorSpace.primaries ?? "smpte170m",
    transfer: colorSpace.transfer ?? "smpte170m",
    fullRange: colorSpace.fullRange ?? false,
  };
}

/** Re-labels a decoded frame's colour space (copies its planes; only done for the frames we output). */
async function withColorSpace(sample: VideoSample, colorSpace: VideoColorSpaceInit): Promise<VideoSample> {
  if (!sample.format || !["I420", "I420A", "I422", "I444", "NV12"].includes(sample.format)) return sample;
  const buffer = new Uint8Array(sample.allocationSize());
  const layout = await sample.copyTo(buffer);
  return new VideoSample(buffer, {
    format: sample.format,
    codedWidth: sample.codedWidth,
    codedHeight: sample.codedHeight,
    layout,
    timestamp: sample.timestamp,
    duration: sample.duration,
    rotation: sample.rotation,
    flip: sample.flip,
    displayWidth: Math.round(sample.squarePixelWidth),
    displayHeight: Math.round(sample.squarePixelHeight),
    colorSpace,
  });
}

/** At most this many frames are being JPEG-encoded at once (each holds a canvas). */
const ENCODE_CONCURRENCY = 4;

export async function sampleWithWebCodecs(
  file: Blob,
  timestampsS: number[],
  options: SampleOptions,
  onProgress: (done: number, total: number) => void,
): Promise<WorkerFrame[]> {
  const opened = await open(file);
  try {
    await verifyComplete(opened.video, file.size);
    const firstTimestamp = await opened.video.getFirstTimestamp();
    const shift = await videoTimelineShift(opened.video, opened.format);
    // <video> shows the first frame for any time before it; mediabunny would return null there.
    // (With a shift, nudge up so float error cannot land a frame boundary in the previous frame.)
    const wanted = timestampsS.map((t) => Math.max(shift ? t + shift + 1e-7 : t, firstTimestamp));
    const decoded = await decodeAt(opened, wanted, shift, options, onProgress);
    return timestampsS.map((timestampS, i) => ({ timestampS, ...decoded[i]! }));
  } finally {
    opened.input.dispose();
  }
}

/** A frame of the video in presentation order: its mediabunny timestamp and duration, seconds. */
export interface PresentedFrame {
  timestamp: number;
  duration: number;
}

/**
 * The video's frames in presentation order, from its packets (metadata only, nothing decoded): the frames a
 * uniform set indexes into. Frames before <video>'s time 0 (`shift`: those an MP4 edit list cuts, including a
 * partial first frame) are left out, as ffmpeg's demuxer discards them on the ffmpeg path.
 */
async function presentedFrames(video: InputVideoTrack, shift: number): Promise<PresentedFrame[]> {
  const frames: PresentedFrame[] = [];
  for await (const packet of new EncodedPacketSink(video).packets(undefined, undefined, { metadataOnly: true })) {
    if (packet.timestamp >= shift - 1e-7) frames.push({ timestamp: packet.timestamp, duration: packet.duration });
  }
  return frames.sort((a, b) => a.timestamp - b.timestamp);
}

/**
 * VBench-2.0's total_frames and avg_fps as this decoder sees the file (lib/frames/vbench-uniform.ts):
 * total_frames counts the frames in presentation order (presentedFrames; a count, where decord's len(vr) is its
 * own index of the packets); avg_fps is mediabunny's average packet rate, packets over the span of their
 * presentation times, which is what ffmpeg's avg_frame_rate is for MP4 and MOV (sample count over track
 * duration) and what the server records as the video's fps (lib/video/probe-video-file.ts). mediabunny does not
 * expose the container's own frame rate; for WebM and MKV ffmpeg estimates avg_frame_rate, and the times may
 * differ from the ffmpeg.wasm path in the last digits (the frame indices do not depend on the rate).
 */
export async function vbenchFramesOf(
  video: InputVideoTrack,
  format: InputFormat,
): Promise<{ frames: PresentedFrame[]; avgFps: number }> {
  const frames = await presentedFrames(video, await videoTimelineShift(video, format));
  if (frames.length === 0) throw corruptError("no video frames could be read — the file ends before its video data");
  const { averagePacketRate } = await video.computePacketStats();
  if (!(Number.isFinite(averagePacketRate) && averagePacketRate > 0))
    throw corruptError("the video's frame rate is unknown, so its frames cannot be given times");
  return { frames, avgFps: averagePacketRate };
}

/** VBench-2.0's uniform set of `count` frames (uniformFrameSetFrames), each decoded by its index. */
export async function sampleUniformWithWebCodecs(
  file: Blob,
  count: number,
  options: SampleOptions,
  onProgress: (done: number, total: number) => void,
): Promise<UniformSample> {
  const opened = await open(file);
  try {
    await verifyComplete(opened.video, file.size);
    const shift = await videoTimelineShift(opened.video, opened.format);
    const { frames, avgFps } = await vbenchFramesOf(opened.video, opened.format);
    const picked = uniformFrameSetFrames(frames.length, avgFps, count);
    const wanted = picked.map(({ index }) => middleOf(frames, index));
    const decoded = await decodeAt(opened, wanted, shift, options, onProgress);
    return {
      totalFrames: frames.length,
      avgFps,
      frames: picked.map(({ index, timestampS }, i) => ({ index, timestampS, ...decoded[i]! })),
    };
  } finally {
    opened.input.dispose();
  }
}

/** The middle of each frame's display interval: asking for it returns that frame whatever the rounding of the decoder's timestamps. */
function middleOf(frames: PresentedFrame[], index: number): number {
  const frame = frames[index]!;
  const next = frames[index + 1];
  return frame.timestamp + (next ? next.timestamp - frame.timestamp : frame.duration > 0 ? frame.duration : 2e-6) / 2;
}

/** A key-frame set's sampled frames at `sampleFps`, picked by frame index (keyFrameSampling), as the ffmpeg paths do. */
export async function sampleKeyFrameSetWithWebCodecs(
  file: Blob,
  sampleFps: number,
  options: SampleOptions,
  onProgress: (done: number, total: number) => void,
): Promise<KeyFrameSetSample> {
  const opened = await open(file);
  try {
    await verifyComplete(opened.video, file.size);
    const shift = await videoTimelineShift(opened.video, opened.format);
    const frames = await presentedFrames(opened.video, shift);
    if (frames.length === 0) throw corruptError("no video frames could be read — the file ends before its video data");
    const { durationS, samples } = keyFrameSampling(
      frames.map((frame) => frame.timestamp),
      sampleFps,
    );
    const decoded = await decodeAt(
      opened,
      samples.map(({ frameIndex }) => middleOf(frames, frameIndex)),
      shift,
      options,
      onProgress,
    );
    return {
      durationS,
      frameCount: frames.length,
      frames: samples.map(({ timestampS, frameIndex }, i) => ({ timestampS, frameIndex, ...decoded[i]! })),
    };
  } finally {
    opened.input.dispose();
  }
}

const EIGHT_BIT_YUV = new Set(["I420", "I420A", "I422", "I422A", "I444", "I444A", "NV12"]);
const RGB_FORMATS = new Set(["RGBA", "RGBX", "BGRA", "BGRX"]);

/**
 * computeLumaFeatures of a decoded frame's own Y plane (its visible rectangle), the samples ffmpeg's paths read
 * with extractplanes; a frame that comes as RGB (some hardware decoders) falls back to lumaOfRgba. The grid is
 * turned by the frame's rotation, as ffmpeg's autorotate turns the plane before reading it.
 */
async function lumaFeaturesOf(sample: VideoSample): Promise<Float32Array> {
  const format = sample.format ?? "";
  const { width, height } = sample.visibleRect;
  const highDepth = /^I4[24][024]A?P(10|12)$/.exec(format);
  let grid: Float32Array;
  if (EIGHT_BIT_YUV.has(format) || highDepth) {
    const buffer = new Uint8Array(sample.allocationSize());
    const [luma] = await sample.copyTo(buffer);
    if (!luma) throw new ExtractionError("internal", `a decoded ${format} frame has no luma plane`);
    if (highDepth) {
      const samples = new Uint16Array(
        buffer.buffer,
        buffer.byteOffset + luma.offset,
        (luma.stride / 2) * (height - 1) + width,
      );
      grid = computeLumaFeatures({
        samples,
        width,
        height,
        stride: luma.stride / 2,
        maxValue: 2 ** Number(highDepth[1]) - 1,
      });
    } else {
      grid = computeLumaFeatures({ samples: buffer.subarray(luma.offset), width, height, stride: luma.stride });
    }
  } else if (RGB_FORMATS.has(format)) {
    const buffer = new Uint8Array(sample.allocationSize());
    const [plane] = await sample.copyTo(buffer);
    const packed = new Uint8Array(width * height * 4);
    for (let row = 0; row < height; row++)
      packed.set(
        buffer.subarray(plane!.offset + row * plane!.stride, plane!.offset + row * plane!.stride + width * 4),
        row * width * 4,
      );
    grid = computeLumaFeatures({
      samples: lumaOfRgba(packed, width, height, 4, format.startsWith("BGR") ? "bgr" : "rgb"),
      width,
      height,
    });
  } else {
    throw new ExtractionError("internal", `decoded frames come in an unexpected pixel format (${format || "none"})`);
  }
  return turnGrid(grid, sample.rotation);
}

/** The feature grid turned clockwise by `degrees` (0, 90, 180 or 270). */
function turnGrid(grid: Float32Array, degrees: number): Float32Array {
  if (degrees === 0) return grid;
  const n = FEATURE_GRID;
  const turned = new Float32Array(grid.length);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      // Clockwise by 90: the output's (x, y) shows the input's (y, n−1−x).
      const [sourceX, sourceY] =
        degrees === 90 ? [y, n - 1 - x] : degrees === 180 ? [n - 1 - x, n - 1 - y] : [n - 1 - y, x];
      turned[y * n + x] = grid[sourceY * n + sourceX]!;
    }
  }
  return turned;
}

/** The frames on display at these mediabunny times (≥ the first frame's), each as a JPEG with its features. */
async function decodeAt(
  opened: Opened,
  wanted: number[],
  shift: number,
  options: SampleOptions,
  onProgress: (done: number, total: number) => void,
): Promise<{ frameTimestampS: number; jpeg: Blob; width: number; height: number; features: Float32Array }[]> {
  const { video } = opened;
  const displayWidth = await video.getDisplayWidth();
  const displayHeight = await video.getDisplayHeight();
  const { width, height } = fitWithin(displayWidth, displayHeight, options.maxSide);
  const colorOverride = await untaggedColorSpace(video);
  const order = [...new Set(wanted)].sort((a, b) => a - b);

  type Job = Promise<{ frameTimestampS: number; jpeg: Blob; features: Float32Array }>;
  const sink = new VideoSampleSink(video);
  const byRequest = new Map<number, Job>();
  const byFrame = new Map<number, Job>();
  const inFlight = new Set<Promise<unknown>>();
  let done = 0;
  const total = wanted.length;
  try {
    let index = 0;
    for await (const decoded of sink.samplesAtTimestamps(order)) {
      const requested = order[index++]!;
      if (!decoded)
        throw corruptError(`no frame could be decoded at ${requested.toFixed(3)} s, so the file probably ends early`);
      let job = byFrame.get(decoded.timestamp);
      if (!job) {
        const frameTimestampS = Math.round((decoded.timestamp - shift) * 1e6) / 1e6;
        // Before any colour conversion or scaling: the decoder's own luma plane (computeLumaFeatures).
        const features = await lumaFeaturesOf(decoded);
        // Rotation, pixel aspect ratio and a mipmapped downscale are handled by mediabunny's transform.
        let sample = decoded;
        if (colorOverride) {
          sample = await withColorSpace(decoded, colorOverride);
          if (sample !== decoded) decoded.close();
        }
        const resized = await sample.transform({ width, height, fit: "fill" });
        sample.close();
        const canvas = new OffscreenCanvas(width, height);
        const context = canvas.getContext("2d", { alpha: false });
        if (!context) throw new ExtractionError("internal", "OffscreenCanvas 2D context unavailable in the worker");
        resized.draw(context, 0, 0, width, height);
        resized.close();
        job = encodeJpeg(canvas, options.jpegQuality).then((jpeg) => ({ frameTimestampS, jpeg, features }));
        byFrame.set(decoded.timestamp, job);
        const tracked = job.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
        if (inFlight.size >= ENCODE_CONCURRENCY) await Promise.race(inFlight);
      } else {
        decoded.close();
      }
      byRequest.set(requested, job);
      const count = wanted.filter((t) => t === requested).length;
      job.then(
        () => {
          done += count;
          onProgress(done, total);
        },
        () => {},
      );
    }
    if (index !== order.length) throw corruptError(`only ${index} of ${order.length} frames could be decoded`);
  } catch (error) {
    throw decodeFailure(error);
  }
  const frames = [];
  for (const t of wanted) frames.push({ ...(await byRequest.get(t)!), width, height });
  return frames;
}
