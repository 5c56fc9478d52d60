/**
 * Frame times computed once, by a job queued when a video's frames are registered; a request only reads them, and
 * a video without them is answered so, with nothing read from storage.
 */
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import type { ObjectStorage } from "../storage/object-storage";
import { getStorage } from "../storage/storage";
import { catalogFor } from "../task-modules/task-catalogue";
import { makeUser } from "../../testkit/testing/fixtures";
import { mediaFixtures } from "../../testkit/testing/media-fixtures";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import { createFrameSet } from "./frame-sets";
import { FRAME_TIMES_QUEUE, runFrameTimesJob, videosWithoutFrameTimes } from "./frame-times-jobs";
import { importSpanLabelSet } from "../spans/span-files/span-import";
import { videoFrameTimes } from "./video-frame-times";

let owner: Actor;
let projectId: string;
beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Frame times jobs" })).id;
  await prisma.project.update({
    where: { id: projectId },
    data: { spanLabels: [{ id: "note", label: "Worth a note", definition: "" }] },
  });
});

/** A ready video whose stored file is the 50-frame, 25 fps fixture. */
async function videoWithFile(relativePath: string) {
  const video = await createReadyVideo(prisma, { projectId, relativePath, createdById: owner.userId });
  await getStorage().put(video.storageKey, fs.readFileSync(mediaFixtures().goodMp4));
  return video;
}

/** The object storage with every call written down (method and key): what a request read from it. */
function countingStorage(storage: ObjectStorage): { storage: ObjectStorage; calls: string[] } {
  const calls: string[] = [];
  const counted = new Proxy(storage, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(`${String(property)} ${String(args[0])}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage: counted, calls };
}

const queuedFrameTimesJobs = async (videoId: string) =>
  prisma.$queryRaw<{ state: string }[]>`
    SELECT state::text AS state FROM pgboss.job WHERE name = ${FRAME_TIMES_QUEUE} AND data->>'videoId' = ${videoId}`;

describe("frame times computed by a job", () => {
  it("registering a video's frames queues its job once; the job stores the times a request then reads", async () => {
    const video = await videoWithFile("registered.mp4");
    const jpeg = fs.readFileSync(mediaFixtures().jpeg);
    const access = await projectAccess(prisma, owner, projectId, "videos.import");
    const register = (sampleFps: number) =>
      createFrameSet({ prisma, storage: getStorage() }, access, video.id, {
        parameters: { mode: "density-peaks", sampleFps },
        manifest: [{ name: "f0.jpg", index: 0, timestampS: 0.125, isKeyFrame: true, cluster: 0 }],
        files: new Map([["f0.jpg", new Uint8Array(jpeg)]]),
      });
    expect((await register(4)).created).toBe(true);
    expect(await queuedFrameTimesJobs(video.id)).toEqual([{ state: "created" }]);
    // A second frame set while the first job waits queues no second job.
    expect((await register(2)).created).toBe(true);
    expect(await queuedFrameTimesJobs(video.id)).toHaveLength(1);
    expect(await videosWithoutFrameTimes(prisma)).toContain(video.id);

    expect(await runFrameTimesJob({ prisma, storage: getStorage() }, { videoId: video.id })).toBe("stored");
    const row = await prisma.videoFrameTimes.findUniqueOrThrow({ where: { videoId: video.id } });
    expect(row.timesS).toHaveLength(50);
    expect(row.endS).toBeCloseTo(2, 5);
    expect(await videosWithoutFrameTimes(prisma)).not.toContain(video.id);
    expect((await videoFrameTimes({ prisma }, video)).timesS).toEqual(row.timesS);
  });

  it("two workers running a video's job at once store one result", async () => {
    const video = await videoWithFile("twice.mp4");
    const deps = { prisma, storage: getStorage() };
    const outcomes = await Promise.all([1, 2].map(() => runFrameTimesJob(deps, { videoId: video.id })));
    expect(outcomes).toEqual(["stored", "stored"]);
    expect(await prisma.videoFrameTimes.count({ where: { videoId: video.id } })).toBe(1);
  });

  it("ends with the reason for a file whose frames cannot be read, and with nothing for a video that is gone", async () => {
    const video = await createReadyVideo(prisma, { projectId, relativePath: "text.mp4", createdById: owner.userId });
    await getStorage().put(video.storageKey, fs.readFileSync(mediaFixtures().textAsMp4));
    expect(await runFrameTimesJob({ prisma, storage: getStorage() }, { videoId: video.id })).toEqual({
      unreadable: expect.stringContaining("cannot be read"),
    });
    // The reason is kept: no worker reads the file again, and a request answers it (422) instead of waiting.
    expect(await videosWithoutFrameTimes(prisma)).not.toContain(video.id);
    await expect(videoFrameTimes({ prisma }, video)).rejects.toMatchObject({ status: 422, code: "unreadable_frames" });
    expect(await runFrameTimesJob({ prisma, storage: getStorage() }, { videoId: "no-such-video" })).toBe("gone");
  });
});

describe("a request for frame times that are not computed yet", () => {
  it("a dry-run span import reads nothing from storage and says the times are not yet computed", async () => {
    await videoWithFile("Mechanics/pending.mp4");
    const { storage, calls } = countingStorage(getStorage());
    const catalogue = (await catalogFor(prisma, projectId)).declarations();
    const dry = await importSpanLabelSet(
      { prisma, storage },
      await projectAccess(prisma, owner, projectId, "videos.import"),
      {
        file: new TextEncoder().encode("video,label,start_frame,end_frame\nMechanics/pending.mp4,note,1,5\n"),
        fileName: "spans.csv",
        name: "pending",
        format: "csv",
        task: "project",
        dryRun: true,
      },
      catalogue,
    );
    expect(calls).toEqual([]);
    expect(dry.plan.problemCount).toBe(1);
    expect(dry.plan.problems[0]!.message).toMatch(/Mechanics\/pending\.mp4: .*not yet computed/);
  });
});
