/**
 * What the VBench-2.0 run form says before a run starts: how many videos lack VBench's 64 uniform frames (a run
 * leaves them out), read by the form through `GET /api/v1/projects/:id/vbench2-frames`.
 */
import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET } from "./routes/vbench2-frames";

describe("GET /projects/:id/vbench2-frames", () => {
  it("counts the videos without a uniform set of 64 frames, and answers 404 to a stranger", async () => {
    const owner = await makeUser();
    // Videos 0 and 1 have the 64; video 2 has only key frames.
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 3,
      keyFrames: 2,
      uniformFrames: 64,
      uniformVideos: 2,
    });
    const get = async (userId: string) =>
      GET(
        new Request("http://x/", {
          headers: { authorization: `Bearer ${(await createApiKey(prisma, userId, "t")).key}` },
        }),
        { params: Promise.resolve({ projectId }) },
      );
    const answer = await get(owner.userId);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ videos: 3, lacking: 1, pendingQuery: "uniform=64&videos=all" });

    // A set of another count is not VBench's.
    const other = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      uniformFrames: 8,
      projectId,
    });
    expect(other.videoIds).toHaveLength(1);
    expect(await (await get(owner.userId)).json()).toMatchObject({ videos: 4, lacking: 2 });

    const stranger = await makeUser();
    expect((await get(stranger.userId)).status).toBe(404);
  });
});
