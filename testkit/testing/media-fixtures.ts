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

function ffmpeg(args: string[]) {
  execFileSync("ffmpeg", ["-loglevel", "error", "-y", ...args], { stdio: "inherit" });
}

/** How each file is made, into `out`; `made` gives another fixture's path, making it first. */
const MAKERS: Record<
  Exclude<keyof MediaFixtures, "dir">,
  { name: string; make: (out: string, made: (key: "goodMp4") => string) => void }
> = {
  goodMp4: {
    name: "good.mp4",
    make: (out) =>
      ffmpeg([
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=320x180:rate=25:duration=2",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p",
        "-movflags",
        "+faststart",
        out,
      ]),
  },
  otherMp4: {
    name: "other.mp4",
    make: (out) =>
      ffmpeg([
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=320x180:rate=25:duration=2",
        "-vf",
        "noise=alls=20:allf=t",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p",
        out,
      ]),
  },
  goodWebm: {
    name: "good.webm",
    make: (out) =>
      ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-c:v", "libvpx", "-b:v", "300k", out]),
  },
  audioOnly: {
    name: "audio.m4a",
    make: (out) => ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", out]),
  },
  jpeg: {
    name: "frame.jpg",
    make: (out) => ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=1:duration=1", "-frames:v", "1", out]),
  },
  blackJpeg: {
    name: "black.jpg",
    make: (out) => ffmpeg(["-f", "lavfi", "-i", "color=c=black:size=64x48:rate=1:duration=1", "-frames:v", "1", out]),
  },
  truncatedMp4: {
    name: "truncated.mp4",
    make: (out, made) => {
      const good = fs.readFileSync(made("goodMp4"));
      fs.writeFileSync(out, good.subarray(0, Math.floor(good.length * 0.4)));
    },
  },
  textAsMp4: { name: "text.mp4", make: (out) => fs.writeFileSync(out, "this is not a video\n") },
  empty: { name: "empty.mp4", make: (out) => fs.writeFileSync(out, "") },
};

let cached: MediaFixtures | null = null;

/**
 * The fixtures of this process, each file made the first time it is read: most callers want one small JPEG (the
 * judge fixtures' frames), and making every clip for each of the ~120 test files that read one cost some 3 s of
 * ffmpeg each. The folder goes when the process exits (in Vitest, with the file's temporary folder: testkit/testing/vitest-setup.ts).
 */
export function mediaFixtures(): MediaFixtures {
  if (cached) return cached;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-media-"));
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  const made = (key: keyof typeof MAKERS): string => {
    const { name, make } = MAKERS[key];
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) make(file, made);
    return file;
  };
  const fixtures = { dir } as MediaFixtures;
  for (const key of Object.keys(MAKERS) as (keyof typeof MAKERS)[])
    Object.defineProperty(fixtures, key, { enumerable: true, get: () => made(key) });
  cached = fixtures;
  return cached;
}

let uniqueCount = 0;

/** A copy of the good clip with different bytes (a metadata comment), so it is not a duplicate. */
export function uniqueMp4(label = "clip"): string {
  const { dir, goodMp4 } = mediaFixtures();
  uniqueCount += 1;
  const out = path.join(dir, `${label}-${process.pid}-${uniqueCount}.mp4`);
  ffmpeg([
    "-i",
    goodMp4,
    "-c",
    "copy",
    "-movflags",
    "+faststart",
    "-metadata",
    `comment=${label}-${uniqueCount}-${Date.now()}`,
    out,
  ]);
  return out;
}
