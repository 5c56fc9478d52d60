import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ALL_FORMATS, FilePathSource, Input } from "mediabunny";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vbenchFramesOf } from "../browser-extraction/webcodecs-backend";
import { prisma } from "../db/prisma";
import { SCALE_FLAGS } from "../browser-extraction/ffmpeg-sampling";
import { uniformFrameSetFrames, vbenchUniformIndices } from "../frames/vbench-uniform";
import { vbenchFrameTime } from "../../testkit/frames/vbench-times";
import { createProject } from "../projects/projects";
import { getStorage } from "../storage/storage";
import { makeUser } from "../../testkit/testing/fixtures";
import { uniformFrameSetWhere } from "../videos/uniform-frame-sets";
import { wasmTools } from "./ffmpeg-tools";
import { extractFrameSetFromFile } from "./native-extraction";
import { runImportCli } from "./run-import-cli";

// Two clips whose frame n is a flat grey of luma 16 + 2n, so a stored JPEG tells which decoded frame it is:
// 24 fps for 3.29 s is 79 frames (k / 24 < 3.29 for k ≤ 78), 8 fps for 3.3 s is 27 (k / 8 < 3.3 for k ≤ 26).
const CLIPS = [
  { name: "a ramp at 24 fps-0.mp4", rate: 24, durationS: 3.29, totalFrames: 79 },
  { name: "a ramp at 8 fps-0.mp4", rate: 8, durationS: 3.3, totalFrames: 27 },
] as const;
const WIDTH = 64;
const HEIGHT = 48;

// The stored frame indices: np.linspace(0, total − 1, N, dtype=int), each frame once.
// 79 frames, N = 16, by hand: step = 78 / 15 = 5.2, i·5.2 = 0, 5.2, 10.4, 15.6, 20.8, 26, 31.2, 36.4, 41.6, 46.8,
// 52, 57.2, 62.4, 67.6, 72.8, truncated; the last is the stop, 78.
// 27 frames, N = 16: step = 26 / 15 = 1.733…, i·step = 0, 1.73, 3.47, 5.2, 6.93, 8.67, 10.4, 12.13, 13.87, 15.6,
// 17.33, 19.07, 20.8, 22.53, 24.27, then 26.
// 27 frames, N = 64: step = 26 / 63 < 1, so the list climbs from 0 to 26 naming every frame (most twice, some three
// times, as numpy does); stored, each once: 0…26.
// 79 frames, N = 64: numpy's list (see vbench-uniform.test.ts), no repeats since step = 78 / 63 ≥ 1.
const EXPECTED_INDICES: Record<string, number[]> = {
  "24/16": [0, 5, 10, 15, 20, 26, 31, 36, 41, 46, 52, 57, 62, 67, 72, 78],
  "24/64": [
    0, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24, 26, 27, 28, 29, 30, 32, 33, 34, 35, 37,
    38, 39, 40, 42, 43, 44, 45, 47, 48, 49, 50, 52, 53, 54, 55, 56, 58, 59, 60, 61, 63, 64, 65, 66, 68, 69, 70, 71, 73,
    74, 75, 76, 78,
  ],
  "8/16": [0, 1, 3, 5, 6, 8, 10, 12, 13, 15, 17, 19, 20, 22, 24, 26],
  "8/64": Array.from({ length: 27 }, (_, index) => index),
};
// VBench-2.0's frame_time, from Python's f"{i / avg_fps:.2f}s": 0.125, 0.375, 0.625… are printed to even.
const FRAME_TIME_24_16 =
  "0.00s,0.21s,0.42s,0.62s,0.83s,1.08s,1.29s,1.50s,1.71s,1.92s,2.17s,2.38s,2.58s,2.79s,3.00s,3.25s";
const FRAME_TIME_8_64 =
  "0.00s,0.00s,0.00s,0.12s,0.12s,0.25s,0.25s,0.25s,0.38s,0.38s,0.50s,0.50s,0.50s,0.62s,0.62s,0.75s,0.75s,0.88s,0.88s,0.88s,1.00s,1.00s,1.12s,1.12s,1.12s,1.25s,1.25s,1.38s,1.38s,1.38s,1.50s,1.50s,1.62s,1.62s,1.75s,1.75s,1.75s,1.88s,1.88s,2.00s,2.00s,2.00s,2.12s,2.12s,2.25s,2.25s,2.25s,2.38s,2.38s,2.50s,2.50s,2.62s,2.62s,2.62s,2.75s,2.75s,2.88s,2.88s,2.88s,3.00s,3.00s,3.12s,3.12s,3.25s";

function ffmpeg(args: string[], input?: Buffer): Buffer {
  return execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", ...args], {
    input,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The mean grey of each picture in raw 8-bit planes of `planeBytes` bytes, every `stride`-th byte. */
function means(raw: Buffer, planeBytes: number, stride: number): number[] {
  return Array.from({ length: raw.length / planeBytes }, (_, frame) => {
    let sum = 0;
    for (let i = 0; i < planeBytes; i += stride) sum += raw[frame * planeBytes + i]!;
    return sum / (planeBytes / stride);
  });
}

/** Which decoded frame of the clip a stored JPEG is: the frame whose grey (as the extraction converts it to RGB) is nearest. */
function frameOfJpeg(jpeg: Buffer, reference: number[]): { frame: number; distance: number } {
  const [grey] = means(ffmpeg(["-i", "pipe:0", "-f", "rawvideo", "-pix_fmt", "gray", "-"], jpeg), WIDTH * HEIGHT, 1);
  return reference
    .map((value, frame) => ({ frame, distance: Math.abs(value - grey!) }))
    .sort((a, b) => a.distance - b.distance)[0]!;
}

async function storedBytes(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await getStorage().get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function io() {
  let err = "";
  return { err: () => err, io: { stdout: () => {}, stderr: { isTTY: false, write: (text: string) => (err += text) } } };
}

describe("uniform N frame sets are VBench-2.0's frames, by decoded frame index, on every extraction path", () => {
  let root: string;
  let clipsDir: string;
  /** Per clip, the grey of each decoded frame after the extraction's conversion to RGB (BT.601 below 720 lines). */
  const reference = new Map<string, number[]>();

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-uniform-"));
    clipsDir = path.join(root, "clips");
    fs.mkdirSync(clipsDir);
    for (const clip of CLIPS) {
      const file = path.join(clipsDir, clip.name);
      const source = `testsrc=duration=${clip.durationS}:size=${WIDTH}x${HEIGHT}:rate=${clip.rate}`;
      ffmpeg([
        "-y",
        "-f",
        "lavfi",
        "-i",
        source,
        "-vf",
        "geq=lum='16+2*N':cb=128:cr=128",
        "-c:v",
        "libx264",
        "-qp",
        "1",
        "-pix_fmt",
        "yuv420p",
        file,
      ]);
      const rgba = ffmpeg([
        "-i",
        file,
        "-vf",
        `scale=${WIDTH}:${HEIGHT}:flags=${SCALE_FLAGS}:in_color_matrix=bt601,format=rgba`,
        "-f",
        "rawvideo",
        "-",
      ]);
      reference.set(clip.name, means(rgba, WIDTH * HEIGHT * 4, 4));
    }
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("npm run import -- --mode uniform --count 16 (and 64) stores the frames at np.linspace(0, total − 1, N) under their indices, at index / avg_fps", async () => {
    const owner = await makeUser();
    for (const count of [16, 64]) {
      const project = await createProject(prisma, owner, { name: `uniform ${count}` });
      const run = io();
      const argv = [
        "--project",
        project.id,
        "--mode",
        "uniform",
        "--count",
        String(count),
        "--ffmpeg",
        "native",
        "--jobs",
        "1",
        "--state",
        path.join(root, `state-${count}.json`),
        clipsDir,
      ];
      expect(await runImportCli(argv, run.io), run.err()).toBe(0);

      for (const clip of CLIPS) {
        const video = await prisma.video.findFirstOrThrow({
          where: { projectId: project.id, relativePath: `clips/${clip.name}` },
          include: { frameSets: { include: { frames: { orderBy: { index: "asc" } } } } },
        });
        // The server's own record of the video (mediabunny's packet count and rate) is VBench's total_frames and avg_fps.
        expect({ frameCount: video.frameCount, fps: video.fps }).toEqual({
          frameCount: clip.totalFrames,
          fps: clip.rate,
        });
        expect(video.frameSets).toHaveLength(1);
        const [set] = video.frameSets;
        const expected = EXPECTED_INDICES[`${clip.rate}/${count}`]!;
        expect({
          mode: set!.mode,
          count: (set!.parameters as { count: number }).count,
          frameCount: set!.frameCount,
          keyFrameCount: set!.keyFrameCount,
        }).toEqual({
          mode: "uniform",
          count,
          frameCount: expected.length,
          keyFrameCount: expected.length,
        });
        expect(set!.frames.map((frame) => frame.index)).toEqual(expected);
        expect(set!.frames.map((frame) => frame.timestampS)).toEqual(expected.map((index) => index / clip.rate));
        expect(set!.frames.every((frame) => frame.isKeyFrame && frame.cluster === frame.index)).toBe(true);
        // Each stored JPEG is the decoded frame of its index.
        for (const frame of set!.frames) {
          const found = frameOfJpeg(await storedBytes(frame.storageKey), reference.get(clip.name)!);
          expect({ index: frame.index, frame: found.frame, close: found.distance < 1 }).toEqual({
            index: frame.index,
            frame: frame.index,
            close: true,
          });
        }
        // A run asking for a uniform set of `count` frames finds it, however few frames a short video gave.
        expect(await prisma.frameSet.count({ where: { videoId: video.id, ...uniformFrameSetWhere(count) } })).toBe(1);
      }
    }

    // VBench's frame_time from the recorded total and rate: the stored frames' own times (no repeats), and the
    // list with repeats when the video is shorter than N.
    const videos = await prisma.video.findMany({
      where: {
        relativePath: { in: CLIPS.map((clip) => `clips/${clip.name}`) },
        project: { members: { some: { userId: owner.userId } } },
      },
      include: { frameSets: { include: { frames: { orderBy: { index: "asc" } } } } },
    });
    const stored24x16 = videos.find(
      (video) => video.fps === 24 && (video.frameSets[0]!.parameters as { count: number }).count === 16,
    )!;
    expect(
      vbenchFrameTime(
        stored24x16.frameSets[0]!.frames.map((frame) => frame.index),
        stored24x16.fps!,
      ),
    ).toBe(FRAME_TIME_24_16);
    const stored8 = videos.find((video) => video.fps === 8)!;
    expect(vbenchFrameTime(vbenchUniformIndices(stored8.frameCount!, 64), stored8.fps!)).toBe(FRAME_TIME_8_64);
  }, 180_000);

  it("the browser's paths pick the same frames: ffmpeg.wasm (run here in Node) extracts them, and the WebCodecs path's frame list (mediabunny) plans them", async () => {
    const clip = CLIPS[1];
    const wasm = await extractFrameSetFromFile(
      path.join(clipsDir, clip.name),
      { mode: "uniform", count: 16 },
      { tools: wasmTools },
    );
    expect(wasm.decoder).toBe("ffmpeg.wasm");
    expect(wasm.manifest.map((entry) => entry.index)).toEqual(EXPECTED_INDICES["8/16"]);
    expect(wasm.manifest.map((entry) => entry.timestampS)).toEqual(EXPECTED_INDICES["8/16"]!.map((index) => index / 8));
    for (const entry of wasm.manifest)
      expect(frameOfJpeg(Buffer.from(wasm.files.get(entry.name)!), reference.get(clip.name)!).frame).toBe(entry.index);

    for (const { name, rate, totalFrames } of CLIPS) {
      const input = new Input({ source: new FilePathSource(path.join(clipsDir, name)), formats: ALL_FORMATS });
      try {
        const { frames, avgFps } = await vbenchFramesOf((await input.getPrimaryVideoTrack())!, await input.getFormat());
        expect({ totalFrames: frames.length, avgFps }).toEqual({ totalFrames, avgFps: rate });
        expect(frames.map((frame) => frame.timestamp)).toEqual(
          Array.from({ length: totalFrames }, (_, index) => index / rate),
        );
        for (const count of [16, 64]) {
          expect(uniformFrameSetFrames(frames.length, avgFps, count)).toEqual(
            EXPECTED_INDICES[`${rate}/${count}`]!.map((index) => ({ index, timestampS: index / rate })),
          );
        }
      } finally {
        input.dispose();
      }
    }
  }, 120_000);
});
