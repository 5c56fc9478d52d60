import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import type { Actor } from "../../lib/auth/actor";
import { getStorage, frameKey } from "../../lib/storage/storage";
import { mediaFixtures } from "./media-fixtures";
import { insertFrameSet, insertProject, insertVideo } from "./raw-rows";

/**
 * A project with `videoCount` videos that already have a frame set of `keyFrames` key frames,
 * each with a cluster of 3 frames, stored like the browser would store them. `allBlack`: every frame
 * of every video is the same black picture (a black clip), so identical steps share cache keys.
 */
export async function projectWithFramedVideos(
  prisma: PrismaClient,
  owner: Actor,
  options: {
    videoCount: number;
    keyFrames: number;
    name?: string;
    /** null: videos without a prompt. */
    prompt?: null;
    /** Also a uniform frame set of this many frames (every one a key frame), for the first `uniformVideos` videos (default all). */
    uniformFrames?: number;
    uniformVideos?: number;
    allBlack?: boolean;
    /** Add the videos to this project instead of a new one. */
    projectId?: string;
  },
) {
  // A raw row: migration tests seed databases whose project table lacks later columns.
  const project = {
    id: options.projectId ?? (await insertProject(prisma, options.name ?? "Judge test", owner.userId)),
  };
  const jpeg = fs.readFileSync(options.allBlack ? mediaFixtures().blackJpeg : mediaFixtures().jpeg);
  const storage = getStorage();
  const videoIds: string[] = [];
  // Fresh frame bytes per call: the response cache must not carry answers from one test to another.
  const nonce = randomUUID();
  for (let v = 0; v < options.videoCount; v++) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    // A raw row: migration tests seed databases whose video table lacks later columns.
    const video = {
      id: await insertVideo(prisma, {
        projectId: project.id,
        sha256: sha,
        sizeBytes: BigInt(1000),
        fileName: `clip-${v}.mp4`,
        relativePath: `Mechanics/A ball rolls down a ramp number ${v}-0.mp4`,
        storageKey: `projects/${project.id}/videos/${sha}.mp4`,
        contentType: "video/mp4",
        status: "ready",
        prompt: options.prompt === null ? null : `A ball rolls down a ramp number ${v}`,
        dimensions: ["Mechanics"],
        createdById: owner.userId,
      }),
    };
    const frameSetId = randomUUID();
    const frames = [];
    // Frame k*3+1 is key frame k; k*3 and k*3+2 are its neighbours.
    for (let i = 0; i < options.keyFrames * 3; i++) {
      const keyIndex = Math.floor(i / 3) * 3 + 1;
      const key = frameKey(project.id, frameSetId, i);
      // Distinct bytes per frame and video, so frame hashes (and cache keys) differ; a black clip's
      // frames are all alike (only this call's nonce after the JPEG's end, so tests don't share a cache).
      const bytes = Buffer.concat([jpeg, Buffer.from(options.allBlack ? nonce : `${nonce}:${v}:${i}`)]);
      const stored = await storage.put(key, bytes);
      frames.push({
        frameSetId,
        index: i,
        timestampS: i * 0.25,
        isKeyFrame: i === keyIndex,
        cluster: keyIndex,
        storageKey: key,
        sha256: stored.sha256,
        sizeBytes: stored.size,
        width: 64,
        height: 48,
      });
    }
    await insertFrameSet(prisma, {
      id: frameSetId,
      videoId: video.id,
      identity: randomUUID(),
      parameters: { mode: "density-peaks" },
      mode: "density-peaks",
      frameCount: frames.length,
      keyFrameCount: options.keyFrames,
      createdById: owner.userId,
    });
    await prisma.frame.createMany({ data: frames });
    if (options.uniformFrames && v < (options.uniformVideos ?? options.videoCount))
      await addUniformFrameSet(prisma, owner, video.id, {
        projectId: project.id,
        count: options.uniformFrames,
        frameBytes: (i) => Buffer.concat([jpeg, Buffer.from(`${nonce}:${v}:uniform:${i}`)]),
      });
    videoIds.push(video.id);
  }
  return { projectId: project.id, videoIds };
}

/** A uniform frame set of `count` frames (every one a key frame, half a second apart) for the video, stored. */
async function addUniformFrameSet(
  prisma: PrismaClient,
  owner: Actor,
  videoId: string,
  { projectId, count, frameBytes }: { projectId: string; count: number; frameBytes: (index: number) => Buffer },
) {
  const storage = getStorage();
  const uniformSetId = randomUUID();
  const uniform = [];
  for (let i = 0; i < count; i++) {
    const key = frameKey(projectId, uniformSetId, i);
    const stored = await storage.put(key, frameBytes(i));
    uniform.push({
      frameSetId: uniformSetId,
      index: i,
      timestampS: i * 0.5,
      isKeyFrame: true,
      cluster: null,
      storageKey: key,
      sha256: stored.sha256,
      sizeBytes: stored.size,
      width: 64,
      height: 48,
    });
  }
  await insertFrameSet(prisma, {
    id: uniformSetId,
    videoId,
    identity: randomUUID(),
    parameters: { mode: "uniform", count, maxSide: 768, jpegQuality: 0.85 },
    mode: "uniform",
    frameCount: uniform.length,
    keyFrameCount: uniform.length,
    createdById: owner.userId,
  });
  await prisma.frame.createMany({ data: uniform });
}
