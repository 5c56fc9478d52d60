import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The benchmark's clip: `seconds` of `fps` frames at 320 × 180 made by the native ffmpeg, each frame carrying its own
 * index as 16 vertical bars (bar b white when bit b of the index is set), so the page can read which frame is
 * presented from the picture itself. H.264 with a key frame every second (`-g fps`) and the encoder's default
 * B-frames. Made once per length and rate and kept in the temporary folder (10 minutes take a minute or two).
 */
export function timelineClip(seconds: number, fps: number): string {
  const file = path.join(os.tmpdir(), `framejury-bench-timeline-${seconds}s-${fps}fps.mp4`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.partial.mp4`;
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi"],
    "-i",
    // A 16 × 2 picture computed per frame (N is the frame's index), scaled up without smoothing to 20-pixel bars.
    `color=c=black:s=16x2:r=${fps}:d=${seconds},format=gray,geq=lum='255*mod(floor(N/pow(2\\,X))\\,2)',` +
      "scale=320:180:flags=neighbor,format=yuv420p",
    ...["-c:v", "libx264", "-preset", "veryfast", "-g", String(fps), "-movflags", "+faststart", partial],
  ]);
  fs.renameSync(partial, file);
  return file;
}

/** Bars across the frame, one per bit of the frame index. */
export const CODE_BITS = 16;
