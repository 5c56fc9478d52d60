import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { addMember } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { importStepAnnotations, type ClipPayload } from "./step-annotation-sets";
import { projectAccess } from "../../authz/permissions";

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

const bytes = (records: unknown[]) => new TextEncoder().encode(records.map((r) => JSON.stringify(r)).join("\n"));
const fileName = (v: number) => `A ball rolls down a ramp number ${v}-0.mp4`;
const backToBack = (n: number, length: number) =>
  Array.from({ length: n }, (_, i) => ({
    start: i * length,
    end: (i + 1) * length,
    text: `step ${i + 1}`,
    category: `c${i + 1}`,
  }));

describe("importStepAnnotations", () => {
  it("dry-runs, then stores one clip per HiREST video and the trimmed clips of an Ego4D video, with what the trimming left out", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    const file = {
      fileName: "steps.jsonl",
      bytes: bytes([
        {
          video: fileName(0),
          theme: "Make a Plaster Mask",
          duration: 103,
          dataset: "hirest",
          steps: [
            { start: 35, end: 48, text: "clean out the face" },
            { start: 48, end: 60, text: "apply tissue" },
          ],
        },
        // 20 steps of 40 s: clips of steps 1–7 and 8–14; steps 15–20 last exactly 240 s and are left out.
        {
          video: fileName(1),
          theme: "making pan seared meal",
          duration: 900,
          dataset: "ego4d-goalstep",
          steps: backToBack(20, 40),
        },
      ]),
    };
    const dry = await importStepAnnotations(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file,
      { dryRun: true },
    );
    expect(dry).toMatchObject({ dryRun: true, videos: 2, clips: 3, byDataset: { hirest: 1, "ego4d-goalstep": 2 } });
    expect(dry.plans[1]!.discarded).toEqual([
      { fromStep: 15, toStep: 20, reason: "the remaining steps last 240s, not more than 240s" },
    ]);
    expect(await prisma.item.count({ where: { projectId } })).toBe(0);

    const stored = await importStepAnnotations(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file,
      { name: "Steps" },
    );
    expect(stored.set).toMatchObject({ kind: "step_annotations", name: "Steps", itemCount: 3 });
    const items = await prisma.item.findMany({ where: { setId: stored.set.id! }, orderBy: { externalId: "asc" } });
    expect(items.map((i) => [i.externalId, i.kind, i.group, i.videoId])).toEqual([
      [`${fileName(0)}#0`, "clip", "hirest", videoIds[0]],
      [`${fileName(1)}#0`, "clip", "ego4d-goalstep", videoIds[1]],
      [`${fileName(1)}#1`, "clip", "ego4d-goalstep", videoIds[1]],
    ]);
    const second = items[2]!.payload as unknown as ClipPayload;
    expect(second).toMatchObject({
      clipIndex: 1,
      start: 280,
      end: 560,
      duration: 280,
      fromStep: 8,
      toStep: 14,
      theme: "making pan seared meal",
    });
    expect(second.steps[0]).toMatchObject({ start: 0, end: 40, text: "step 8" });
    const whole = items[0]!.payload as unknown as ClipPayload;
    expect(whole).toMatchObject({ clipIndex: 0, start: 0, end: 103, duration: 103, fromStep: 1, toStep: 2 });
  });

  it("imports nothing from a file with a bad record, and refuses a reviewer before reading it", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const bad = {
      fileName: "steps.jsonl",
      bytes: bytes([{ video: fileName(0), steps: [{ start: 5, end: 1, text: "backwards" }] }]),
    };
    await expect(
      importStepAnnotations(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), bad),
    ).rejects.toMatchObject({
      status: 422,
      details: { errors: [{ line: 1, message: "steps[1]: ends at 1s, not after its start 5s" }] },
    });
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);

    const reviewer = await makeUser();
    const email = (await prisma.user.findUniqueOrThrow({ where: { id: reviewer.userId }, select: { email: true } }))
      .email;
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email,
      role: "reviewer",
    });
    await expect(projectAccess(prisma, reviewer, projectId, "videos.import")).rejects.toMatchObject({ status: 403 });
  });
});
