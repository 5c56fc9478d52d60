import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { getStorage } from "../storage/storage";
import { makeUser } from "../../testkit/testing/fixtures";
import { mediaFixtures, uniqueMp4 } from "../../testkit/testing/media-fixtures";
import { registerStoredVideo } from "../videos/register-video";
import { runExtractWorker } from "./extract-worker";
import { projectAccess } from "../authz/permissions";

/** A video registered as the API's POST /projects/:id/videos does: stored, no frames yet. */
async function registerWithoutFrames(
  projectId: string,
  actor: Awaited<ReturnType<typeof makeUser>>,
  file: string,
  relativePath: string,
) {
  const storage = getStorage();
  const key = `incoming/test-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const stored = await storage.put(key, fs.readFileSync(file));
  return registerStoredVideo({ prisma, storage }, await projectAccess(prisma, actor, projectId, "videos.import"), {
    incomingKey: key,
    sha256: stored.sha256,
    sizeBytes: stored.size,
    relativePath,
  });
}

describe("npm run extract-worker", () => {
  it("extracts the frames of the videos waiting for them (only the project asked for), marks an undecodable one failed with the reason, and stops with --once", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "waiting" });
    const other = await createProject(prisma, owner, { name: "not this one" });
    const waiting = [
      await registerWithoutFrames(project.id, owner, uniqueMp4("worker-a"), "a cat jumps-0.mp4"),
      await registerWithoutFrames(project.id, owner, uniqueMp4("worker-b"), "a cat jumps-1.mp4"),
    ];
    const elsewhere = await registerWithoutFrames(other.id, owner, uniqueMp4("worker-c"), "a dog runs-0.mp4");
    // Probes as a video (its index survives) but its frames cannot be decoded: the first 40% of a faststart file.
    const damaged = await registerWithoutFrames(project.id, owner, uniqueMp4("worker-d"), "a bird flies-0.mp4");
    const full = fs.readFileSync(mediaFixtures().goodMp4);
    await getStorage().put(damaged.storageKey, full.subarray(0, Math.floor(full.length * 0.4)));
    expect(waiting.every((video) => video.status === "pending_extraction")).toBe(true);

    const lines: string[] = [];
    const result = await runExtractWorker({
      deps: { prisma, storage: getStorage() },
      projectId: project.id,
      parameters: { mode: "density-peaks" },
      concurrency: 2,
      once: true,
      intervalMs: 50,
      log: (line) => lines.push(line),
    });
    expect(result).toEqual({ extracted: 2, failed: 1 });
    const after = await prisma.video.findMany({
      where: { id: { in: [...waiting, damaged, elsewhere].map((video) => video.id) } },
      include: { frameSets: true },
    });
    const byId = new Map(after.map((video) => [video.id, video]));
    for (const video of waiting) {
      expect(byId.get(video.id)).toMatchObject({ status: "ready", error: null });
      expect(byId.get(video.id)!.frameSets.map((set) => [set.decoder, set.mode, set.createdById])).toEqual([
        ["ffmpeg", "density-peaks", owner.userId],
      ]);
      // The build is recorded with the frame set: what `ffmpeg -version` says on this machine.
      expect(byId.get(video.id)!.frameSets[0]!.decoderVersion).toBe(
        `ffmpeg ${/ffmpeg version (\S+)/.exec(execFileSync("ffmpeg", ["-version"]).toString())![1]}`,
      );
    }
    expect(byId.get(damaged.id)).toMatchObject({ status: "failed" });
    expect(byId.get(damaged.id)!.error).toMatch(/damaged or truncated/);
    expect(byId.get(elsewhere.id)).toMatchObject({ status: "pending_extraction" });
    expect(lines.filter((line) => line.startsWith("extracted "))).toHaveLength(2);
    expect(lines.find((line) => line.startsWith("failed "))).toContain("a bird flies-0.mp4");
  }, 120_000);

  it("keeps looking until stopped", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "later" });
    const controller = new AbortController();
    const lines: string[] = [];
    const running = runExtractWorker({
      deps: { prisma, storage: getStorage() },
      projectId: project.id,
      parameters: { mode: "density-peaks" },
      concurrency: 1,
      once: false,
      intervalMs: 100,
      signal: controller.signal,
      log: (line) => {
        lines.push(line);
        controller.abort();
      },
    });
    // Registered while the worker already waits: it is found on a later look.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const video = await registerWithoutFrames(project.id, owner, uniqueMp4("worker-later"), "rain falls-0.mp4");
    expect(await running).toEqual({ extracted: 1, failed: 0 });
    expect(await prisma.video.findUniqueOrThrow({ where: { id: video.id }, select: { status: true } })).toEqual({
      status: "ready",
    });
  }, 120_000);
});
