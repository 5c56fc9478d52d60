import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Small real media files made with the native ffmpeg (a test dependency installed by .ci/run):
 * good clips, and the bad inputs the importer must refuse with a clear message.
 */
export interface MediaFixtures {
  dir: string;
  goodMp4: string;
  goodWebm: string;
  /** The same picture as goodMp4 with another seed of noise: different bytes. */
  otherMp4: string;
  truncatedMp4: string;
  audioOnly: string;
  textAsMp4: string;
  empty: string;
  jpeg: string;
  /** One all-black frame, as every frame of a black clip looks. */
  blackJpeg: string;
}

let cached: MediaFixtures | null = null;

function ffmpeg(args: string[]) {
  execFileSync("ffmpeg", ["-loglevel", "error", "-y", ...args], { stdio: "inherit" });
}

export function mediaFixtures(): MediaFixtures {
  if (cached) return cached;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-media-"));
  const file = (name: string) => path.join(dir, name);
  ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", file("good.mp4")]);
  ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-vf", "noise=alls=20:allf=t", "-c:v", "libx264", "-pix_fmt", "yuv420p", file("other.mp4")]);
  ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-c:v", "libvpx", "-b:v", "300k", file("good.webm")]);
  ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", file("audio.m4a")]);
  ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=1:duration=1", "-frames:v", "1", file("frame.jpg")]);
  ffmpeg(["-f", "lavfi", "-i", "color=c=black:size=64x48:rate=1:duration=1", "-frames:v", "1", file("black.jpg")]);
  const good = fs.readFileSync(file("good.mp4"));
  fs.writeFileSync(file("truncated.mp4"), good.subarray(0, Math.floor(good.length * 0.4)));
  fs.writeFileSync(file("text.mp4"), "this is not a video\n");
  fs.writeFileSync(file("empty.mp4"), "");
  cached = {
    dir,
    goodMp4: file("good.mp4"),
    goodWebm: file("good.webm"),
    otherMp4: file("other.mp4"),
    truncatedMp4: file("truncated.mp4"),
    audioOnly: file("audio.m4a"),
    textAsMp4: file("text.mp4"),
    empty: file("empty.mp4"),
    jpeg: file("frame.jpg"),
    blackJpeg: file("black.jpg"),
  };
  return cached;
}

let uniqueCount = 0;

/** A copy of the good clip with different bytes (a metadata comment), so it is not a duplicate. */
export function uniqueMp4(label = "clip"): string {
  const { dir, goodMp4 } = mediaFixtures();
  uniqueCount += 1;
  const out = path.join(dir, `${label}-${process.pid}-${uniqueCount}.mp4`);
  ffmpeg(["-i", goodMp4, "-c", "copy", "-movflags", "+faststart", "-metadata", `comment=${label}-${uniqueCount}-${Date.now()}`, out]);
  return out;
}
