import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { startS3rver, type RunningS3rver } from "../../testkit/testing/s3rver";
import { deleteVideos } from "../videos/delete-videos";
import type { ObjectStorage } from "./object-storage";
import { removeStoredObjects } from "./remove-objects";
import { createS3Client, S3Storage } from "./s3-storage";
import { frameKey, videoKey } from "./storage";
import { projectAccess } from "../authz/permissions";

let s3: RunningS3rver;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
});

describe("removing the stored objects of deleted rows", () => {
  it("deletes a video's file and frames from an S3 bucket after its rows are gone", async () => {
    const config = s3.config();
    const storage = new S3Storage(createS3Client(config), config.bucket, config.prefix);
    const owner = await makeUser();
    const projectId = (await createProject(prisma, owner, { name: "S3 delete" })).id;
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const key = videoKey(projectId, sha, ".mp4");
    await storage.put(key, Buffer.from("video bytes"));
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 11n,
        fileName: "a.mp4",
        relativePath: "a.mp4",
        storageKey: key,
        contentType: "video/mp4",
        createdById: owner.userId,
      },
    });
    const frameSet = await prisma.frameSet.create({
      data: {
        videoId: video.id,
        identity: randomUUID(),
        parameters: {},
        mode: "uniform",
        frameCount: 2,
        keyFrameCount: 2,
        createdById: owner.userId,
      },
    });
    const frameKeys = [0, 1].map((index) => frameKey(projectId, frameSet.id, index));
    for (const [index, fk] of frameKeys.entries()) {
      const stored = await storage.put(fk, Buffer.from(`frame ${index}`));
      await prisma.frame.create({
        data: {
          frameSetId: frameSet.id,
          index,
          timestampS: index,
          isKeyFrame: true,
          storageKey: fk,
          sha256: stored.sha256,
          sizeBytes: stored.size,
          width: 8,
          height: 8,
        },
      });
    }

    const result = await deleteVideos(
      { prisma, storage },
      await projectAccess(prisma, owner, projectId, "videos.delete"),
      { videoIds: [video.id], dryRun: false },
    );
    expect(result.storage).toEqual({ removed: 3, failed: [], failedCount: 0 });
    for (const k of [key, ...frameKeys]) expect(await storage.stat(k)).toBeNull();
    expect(await prisma.video.count({ where: { id: video.id } })).toBe(0);
  });

  it("retries a failing removal, then reports the key it could not remove without failing", async () => {
    const attempts = new Map<string, number>();
    const flaky = {
      async delete(key: string) {
        attempts.set(key, (attempts.get(key) ?? 0) + 1);
        if (key === "always/fails") throw new Error("503 Slow Down");
        if (key === "fails/once" && attempts.get(key) === 1) throw new Error("503 Slow Down");
      },
    } as unknown as ObjectStorage;
    const result = await removeStoredObjects(flaky, ["ok/1", "fails/once", "always/fails"], { attempts: 3 });
    expect(result).toEqual({ removed: 2, failed: ["always/fails"], failedCount: 1 });
    expect(Object.fromEntries(attempts)).toEqual({ "ok/1": 1, "fails/once": 2, "always/fails": 3 });
  });
});
