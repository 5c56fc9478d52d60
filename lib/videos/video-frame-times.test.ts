import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { StorageNotFoundError } from "../storage/object-storage";
import { getStorage } from "../storage/storage";
import { makeUser } from "../../testkit/testing/fixtures";
import { mediaFixtures } from "../../testkit/testing/media-fixtures";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import { sharedDataPath } from "../../testkit/testing/shared-data";
import { frameAtTime, frameSeekS } from "../frames/frame-times";
import { computeVideoFrameTimes, videoFrameTimes } from "./video-frame-times";

const deps = () => ({ prisma, storage: getStorage() });
let projectId: string;
let ownerId: string;

beforeAll(async () => {
  const owner = await makeUser();
  ownerId = owner.userId;
  projectId = (await createProject(prisma, owner, { name: "Frame times" })).id;
});

/** A video row whose stored file is `file`. */
async function storedVideo(file: string) {
  const video = await createReadyVideo(prisma, { projectId, relativePath: path.basename(file), createdById: ownerId });
  await getStorage().put(video.storageKey, fs.readFileSync(file));
  return video;
}

/** Each decoded frame's presentation time as ffprobe prints it, in presentation order. */
function ffprobeFrameTimes(file: string): number[] {
  const out = execFileSync(
    "ffprobe",
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "json", file],
    { encoding: "utf8" },
  );
  const frames = (JSON.parse(out) as { frames: { pts_time: string }[] }).frames;
  return frames.map((f) => Number(f.pts_time)).sort((a, b) => a - b);
}

function ffprobePacketCount(file: string): number {
  const out = execFileSync(
    "ffprobe",
    [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-count_packets",
      "-show_entries",
      "stream=nb_read_packets",
      "-of",
      "csv=p=0",
      file,
    ],
    { encoding: "utf8" },
  );
  return Number(out.trim());
}

function ffmpeg(args: string[]) {
  execFileSync("ffmpeg", ["-loglevel", "error", "-y", ...args]);
}

/** Half a second at 24 fps then half a second at 30 fps, timestamps kept as they are (variable frame rate). */
function variableRateClip(): string {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vfr-")), "vfr.mp4");
  ffmpeg([
    ...["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=24:duration=0.5"],
    ...["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=0.5"],
    ...["-filter_complex", "[0:v]settb=1/1000000[a];[1:v]settb=1/1000000[b];[a][b]concat=n=2:v=1[v]"],
    ...["-map", "[v]", "-fps_mode", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p"],
    ...["-video_track_timescale", "90000", out],
  ]);
  return out;
}

function expectTimesEqual(actual: readonly number[], expected: readonly number[]) {
  expect(actual).toHaveLength(expected.length);
  const origin = expected[0]!;
  // ffprobe prints six decimals.
  actual.forEach((t, i) => expect(Math.abs(t - (expected[i]! - origin))).toBeLessThan(1e-6));
}

describe("computeVideoFrameTimes on the real clips", () => {
  for (const name of ["t2vhalubench-5.mp4", "t2vhalubench-12.mp4", "t2vhalubench-31.mp4"]) {
    it(`${name}: as many frames as ffprobe counts, at ffprobe's pts_time from the first, a constant rate`, async () => {
      const file = sharedDataPath(`samples/${name}`);
      const video = await storedVideo(file);
      const times = await computeVideoFrameTimes(deps(), video);
      const expected = ffprobeFrameTimes(file);
      expect(times.timesS).toHaveLength(ffprobePacketCount(file));
      expectTimesEqual(times.timesS, expected);
      expect(times.variable).toBe(false);
      const gap = expected[1]! - expected[0]!;
      expect(times.endS).toBeCloseTo(expected[expected.length - 1]! - expected[0]! + gap, 5);
      // Every frame's seek time names that frame again.
      for (let i = 0; i < times.timesS.length; i++) expect(frameAtTime(times, frameSeekS(times, i))).toBe(i);
    });
  }
});

describe("computeVideoFrameTimes", () => {
  it("a variable frame rate (24 fps, then 30 fps) reads variable, with each frame's own time", async () => {
    const file = variableRateClip();
    const video = await storedVideo(file);
    const times = await computeVideoFrameTimes(deps(), video);
    const expected = ffprobeFrameTimes(file);
    expect(expected.length).toBeGreaterThan(20);
    expectTimesEqual(times.timesS, expected);
    expect(times.variable).toBe(true);
    // The gaps really differ: a 24 fps gap early, a 30 fps gap late.
    expect(times.timesS[1]! - times.timesS[0]!).toBeCloseTo(1 / 24, 4);
    expect(times.timesS.at(-1)! - times.timesS.at(-2)!).toBeCloseTo(1 / 30, 4);
  });

  it("a WebM at 30 fps (a millisecond time base: gaps of 33 and 34 ms) is one frame rate", async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "webm-")), "30.webm");
    ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=1", "-c:v", "libvpx", "-b:v", "200k", out]);
    const times = await computeVideoFrameTimes(deps(), await storedVideo(out));
    expect(times.timesS).toHaveLength(30);
    expect(times.variable).toBe(false);
  });

  it("is read once and kept: the stored row answers after the file is gone", async () => {
    const video = await storedVideo(mediaFixtures().goodMp4);
    const first = await computeVideoFrameTimes(deps(), video);
    expect(first.timesS).toHaveLength(50);
    const row = await prisma.videoFrameTimes.findUniqueOrThrow({ where: { videoId: video.id } });
    expect(row.timesS).toEqual(first.timesS);
    await getStorage().delete(video.storageKey);
    expect(await computeVideoFrameTimes(deps(), video)).toEqual(first);
    // A request reads the same row.
    expect(await videoFrameTimes(deps(), video)).toEqual(first);
  });

  it("a request never reads the file: a video without stored times is a 409 that says they are not yet computed", async () => {
    const video = await storedVideo(mediaFixtures().goodMp4);
    await expect(videoFrameTimes(deps(), video)).rejects.toMatchObject({
      status: 409,
      code: "frame_times_pending",
      message: expect.stringContaining("not yet computed"),
    });
    expect(await prisma.videoFrameTimes.count({ where: { videoId: video.id } })).toBe(0);
    // Asked with a way to queue work, the request queues the video's job (a video registered without one).
    const queued: string[][] = [];
    await expect(
      videoFrameTimes({ ...deps(), queueFrameTimes: async (ids) => void queued.push(ids) }, video),
    ).rejects.toMatchObject({ status: 409 });
    expect(queued).toEqual([[video.id]]);
  });

  it("two first reads at once (the page and a judge run) both answer, and one row is kept", async () => {
    const video = await storedVideo(mediaFixtures().goodMp4);
    const reads = await Promise.all([1, 2, 3].map(() => computeVideoFrameTimes(deps(), video)));
    expect(reads.map((t) => t.timesS.length)).toEqual([50, 50, 50]);
    expect(await prisma.videoFrameTimes.count({ where: { videoId: video.id } })).toBe(1);
  });

  it("a video whose file is missing from storage is the same 422, in a local directory and in a bucket; nothing is kept, since the file may come", async () => {
    const video = await createReadyVideo(prisma, { projectId, relativePath: "gone.mp4", createdById: ownerId });
    await expect(computeVideoFrameTimes(deps(), video)).rejects.toMatchObject({
      status: 422,
      code: "unreadable_frames",
    });
    expect(await prisma.videoFrameTimes.count({ where: { videoId: video.id } })).toBe(0);
    // An S3-compatible bucket answers a missing object before any file exists (s3-storage.ts withLocalFile).
    const bucket = {
      ...getStorage(),
      withLocalFile: () => Promise.reject(new StorageNotFoundError(`No object ${video.storageKey}`)),
    };
    await expect(computeVideoFrameTimes({ prisma, storage: bucket }, video)).rejects.toMatchObject({
      status: 422,
      code: "unreadable_frames",
    });
  });

  for (const [what, file] of [
    ["text named .mp4", () => mediaFixtures().textAsMp4],
    ["an empty file", () => mediaFixtures().empty],
    ["an audio-only file", () => mediaFixtures().audioOnly],
  ] as const) {
    it(`a file whose frames cannot be read (${what}) is a 422 whose reason is kept: a request answers it without reading the file`, async () => {
      const video = await storedVideo(file());
      await expect(computeVideoFrameTimes(deps(), video)).rejects.toMatchObject({
        status: 422,
        code: "unreadable_frames",
      });
      expect(await prisma.videoFrameTimes.count({ where: { videoId: video.id, unreadable: { not: null } } })).toBe(1);
      await getStorage().delete(video.storageKey);
      await expect(videoFrameTimes(deps(), video)).rejects.toMatchObject({
        status: 422,
        code: "unreadable_frames",
        message: expect.stringContaining("cannot be read"),
      });
    });
  }
});
