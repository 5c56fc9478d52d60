import { execFileSync, spawn } from "node:child_process";

/**
 * A frame's fingerprint: the mean red, green and blue of each cell of a 32 × 32 grid over the whole frame (3,072
 * numbers, 0–255). Two decoders' pictures of one frame differ only by rounding and colour conversion, a small
 * distance; the frame before or after it differs by the motion between them, a larger one. Cells this small keep the
 * motion of a slow generated clip (an 8 × 8 grid averaged most of it away: neighbours 0.3–0.6 levels apart, as close
 * as the two decoders' pictures of one frame). The same function reads pixels decoded by ffmpeg here and pixels of a
 * `<video>` drawn to a canvas in Chromium (its source is sent to the page, see pageFingerprintSource).
 */
export type Fingerprint = number[];

export const FINGERPRINT_GRID = 32;

/**
 * How ffmpeg turns the decoded YUV into RGB for the reference, as Chromium does: by the stream's colour matrix when it
 * is tagged, else by Chromium's guess for untagged video, BT.709 from 720 lines up and BT.601 below (the sample clips
 * are untagged: 1280 × 720 and 1152 × 640). With ffmpeg's default (BT.601 for all) the 720-line clip's frames
 * differed from Chromium's by ~2 levels; with the matching matrix and accurate rounding by 0.07–0.35 on every clip.
 */
function rgbConversion(colorSpace: string, height: number): string {
  const tagged = colorSpace === "bt709" ? "bt709" : ["smpte170m", "bt470bg"].includes(colorSpace) ? "bt601" : null;
  const matrix = tagged ?? (height >= 720 ? "bt709" : "bt601");
  return `scale=in_color_matrix=${matrix}:in_range=tv:flags=accurate_rnd+full_chroma_int`;
}

/**
 * The fingerprint of width × height pixels of `channels` bytes each (3 for RGB, 4 for RGBA), row by row. Self-contained
 * (no helper functions, no imports): its source text runs in the browser as it is.
 */
export function fingerprintOfPixels(
  data: ArrayLike<number>,
  width: number,
  height: number,
  channels: number,
  grid: number,
): number[] {
  const sums = new Array(grid * grid * 3).fill(0);
  const counts = new Array(grid * grid).fill(0);
  for (let y = 0; y < height; y++) {
    const row = Math.min(grid - 1, Math.floor((y * grid) / height));
    for (let x = 0; x < width; x++) {
      const cell = row * grid + Math.min(grid - 1, Math.floor((x * grid) / width));
      const at = (y * width + x) * channels;
      sums[cell * 3] += data[at]!;
      sums[cell * 3 + 1] += data[at + 1]!;
      sums[cell * 3 + 2] += data[at + 2]!;
      counts[cell]++;
    }
  }
  return sums.map((sum: number, k: number) => sum / Math.max(1, counts[Math.floor(k / 3)]));
}

/** Mean absolute difference of two fingerprints, in 0–255 levels. */
export function fingerprintDistance(a: Fingerprint, b: Fingerprint): number {
  if (a.length !== b.length) throw new Error(`Fingerprints of ${a.length} and ${b.length} values cannot be compared.`);
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += Math.abs(a[k]! - b[k]!);
  return sum / a.length;
}

/** A clip's width and height, and the colour matrix its stream is tagged with ("unknown" when none), read with ffprobe. */
export function clipSize(clip: string): { width: number; height: number; colorSpace: string } {
  const out = execFileSync(
    "ffprobe",
    [
      ...["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,color_space"],
      ...["-of", "default=noprint_wrappers=1", clip],
    ],
    { encoding: "utf8" },
  );
  const fields = new Map(out.split("\n").map((line) => line.trim().split("=") as [string, string]));
  const width = Number(fields.get("width"));
  const height = Number(fields.get("height"));
  if (!width || !height) throw new Error(`ffprobe gave no size for ${clip}: ${out}`);
  return { width, height, colorSpace: fields.get("color_space") ?? "unknown" };
}

/**
 * The fingerprint of frame `index` (0-based, in presentation order, the order the decoder hands frames out) as the
 * native ffmpeg decodes it: `select=eq(n\,index)` keeps that one decoded frame, converted to RGB at full size as
 * Chromium converts it.
 */
export function ffmpegFrameFingerprint(clip: string, index: number): Fingerprint {
  const { width, height, colorSpace } = clipSize(clip);
  const rgb = execFileSync(
    "ffmpeg",
    [
      ...[
        "-v",
        "error",
        "-i",
        clip,
        "-vf",
        `select=eq(n\\,${index}),${rgbConversion(colorSpace, height)}`,
        "-fps_mode",
        "passthrough",
      ],
      ...["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    ],
    { maxBuffer: width * height * 3 + 1024 },
  );
  if (rgb.length !== width * height * 3) throw new Error(`ffmpeg decoded no frame ${index} of ${clip}.`);
  return fingerprintOfPixels(rgb, width, height, 3, FINGERPRINT_GRID);
}

/**
 * Every frame's fingerprint, indexed by frame (presentation order), from one pass of the native ffmpeg over the clip;
 * with `frames`, those of frames from..to only, the rest left empty (decoded, not converted: seconds less per clip).
 */
export async function ffmpegFingerprints(clip: string, frames?: { from: number; to: number }): Promise<Fingerprint[]> {
  const { width, height, colorSpace } = clipSize(clip);
  const frameBytes = width * height * 3;
  const conversion = rgbConversion(colorSpace, height);
  const filter = frames ? `select=between(n\\,${frames.from}\\,${frames.to}),${conversion}` : conversion;
  const child = spawn(
    "ffmpeg",
    [
      "-v",
      "error",
      "-i",
      clip,
      "-vf",
      filter,
      "-fps_mode",
      "passthrough",
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const fingerprints: Fingerprint[] = [];
  let next = frames?.from ?? 0;
  const frame = Buffer.alloc(frameBytes);
  let filled = 0;
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(frameBytes - filled, chunk.length - offset);
      chunk.copy(frame, filled, offset, offset + take);
      filled += take;
      offset += take;
      if (filled === frameBytes) {
        fingerprints[next++] = fingerprintOfPixels(frame, width, height, 3, FINGERPRINT_GRID);
        filled = 0;
      }
    }
  }
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code !== 0 || filled !== 0) throw new Error(`ffmpeg failed on ${clip} (${code}): ${stderr}`);
  return fingerprints;
}

/** How far a picture is from frame i and from its neighbours, and whether it is frame i. */
export interface FrameMatch {
  index: number;
  /** Distance to frame i. */
  atFrame: number;
  /** Distance to the nearer of frames i − 1 and i + 1 (one of them at the clip's first or last frame). */
  toNeighbour: number;
  /** Within the tolerance of frame i, and nearer to it than to either neighbour by at least the margin. */
  same: boolean;
}

/**
 * Two decoders' pictures of one frame differ by at most this (0–255 levels, mean over the fingerprint): measured
 * 0.07–0.38 between Chromium's canvas and ffmpeg on the sample clips, so 1 leaves room for another build's rounding.
 */
export const SAME_FRAME_TOLERANCE = 1;
/** A neighbour must be this much farther than the frame itself: an off-by-one never passes as a match. */
export const NEIGHBOUR_MARGIN = 0.25;
/**
 * Boundary frames for a frame-accuracy check differ from both neighbours by at least this in the reference: then the
 * picture of a neighbour is at least 1 − 0.38 from frame i while the right picture is within 0.38 of it.
 */
export const DISTINCT_NEIGHBOUR_DISTANCE = 1;

/** Compares a picture's fingerprint with frames i − 1, i and i + 1 of the reference (every frame of the clip). */
export function matchFrame(shown: Fingerprint, reference: readonly Fingerprint[], index: number): FrameMatch {
  const at = reference[index];
  if (!at) throw new Error(`The reference has no frame ${index} (it has ${reference.length}).`);
  // A neighbour is left out only at the clip's ends: one missing inside the reference would let an off-by-one pass.
  if ((index > 0 && !reference[index - 1]) || (index + 1 < reference.length && !reference[index + 1]))
    throw new Error(`The reference lacks a neighbour of frame ${index}: decode frames ${index - 1}..${index + 1}.`);
  const neighbours = [reference[index - 1], reference[index + 1]].filter((f): f is Fingerprint => f !== undefined);
  const atFrame = fingerprintDistance(shown, at);
  const toNeighbour = Math.min(...neighbours.map((f) => fingerprintDistance(shown, f)));
  return {
    index,
    atFrame,
    toNeighbour,
    same: atFrame <= SAME_FRAME_TOLERANCE && toNeighbour - atFrame >= NEIGHBOUR_MARGIN,
  };
}

/**
 * Frames whose neighbours both differ from them by at least `minDistance`: boundaries where an off-by-one shows. In a
 * clip where consecutive frames are nearly alike (a still stretch), frame i and i + 1 cannot be told apart by picture.
 */
export function distinctFrames(reference: readonly Fingerprint[], minDistance: number): number[] {
  const frames: number[] = [];
  for (let i = 0; i < reference.length; i++) {
    const [previous, at, following] = [reference[i - 1], reference[i], reference[i + 1]];
    if (!at || (i > 0 && !previous) || (i + 1 < reference.length && !following)) continue;
    const before = previous ? fingerprintDistance(at, previous) : Infinity;
    const after = following ? fingerprintDistance(at, following) : Infinity;
    if (before >= minDistance && after >= minDistance) frames.push(i);
  }
  return frames;
}

/**
 * A browser expression (for page.evaluate) that draws the page's `<video>` (or the element `selector` names) at its
 * current frame to a canvas of the video's own size and returns its fingerprint. The video must come from the page's
 * origin (a cross-origin one taints the canvas).
 */
export function pageFingerprintSource(selector = "video"): string {
  return `(() => {
    const video = document.querySelector(${JSON.stringify(selector)});
    if (!(video instanceof HTMLVideoElement)) throw new Error("No video element matches " + ${JSON.stringify(selector)});
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    return (${fingerprintOfPixels.toString()})(pixels, canvas.width, canvas.height, 4, ${FINGERPRINT_GRID});
  })()`;
}
