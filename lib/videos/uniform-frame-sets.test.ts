import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ForbiddenError } from "../errors";
import { importReferenceSet } from "../tasks/captions/caption-set-import";
import { addMember } from "../projects/projects";
import { fixtureVideoName, jsonlBytes } from "../../testkit/testing/item-files";
import { referenceLine } from "../../testkit/tasks/captions/caption-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { importQuestionSet } from "../tasks/qa/question-set-import";
import { questionSetBytes, smallQuestionSet } from "../../testkit/tasks/qa/qa-fixtures";
import { resizeOfQuery, uniformFramesQuerySchema, videosLackingUniformFrames } from "./uniform-frame-sets";
import { projectAccess } from "../authz/permissions";

describe("videosLackingUniformFrames", () => {
  it("lists the videos with captions and no uniform frame set of that count", async () => {
    const owner = await makeUser();
    // Videos 0 and 1 have a uniform set of 8; video 2 has none; video 3 has none but no captions either.
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 4,
      keyFrames: 2,
      uniformFrames: 8,
      uniformVideos: 2,
    });
    await importReferenceSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      {
        fileName: "ref.jsonl",
        bytes: jsonlBytes(...[0, 1, 2].map((v) => referenceLine(v, fixtureVideoName(v), "brief"))),
      },
      {},
    );

    const lacking8 = await videosLackingUniformFrames(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      8,
    );
    expect(lacking8.map((v) => v.id)).toEqual([videoIds[2]]);
    const lacking16 = await videosLackingUniformFrames(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      16,
    );
    expect(lacking16.map((v) => v.id).sort()).toEqual([videoIds[0], videoIds[1], videoIds[2]].sort());
  });

  it("for QA runs, lists the videos with questions and no uniform set of the planned size, each with the longest side to extract it at", async () => {
    const owner = await makeUser();
    // Three videos with questions and 64×48 uniform frames: a quarter of 128×96 (fits), of 1280×720 (does not), and of an unknown size.
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 3,
      keyFrames: 1,
      uniformFrames: 8,
    });
    await prisma.video.update({ where: { id: videoIds[0]! }, data: { width: 128, height: 96 } });
    await prisma.video.update({ where: { id: videoIds[1]! }, data: { width: 1280, height: 720 } });
    const questions = smallQuestionSet();
    await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      fileName: "q.jsonl",
      bytes: questionSetBytes([
        questions[0],
        { ...questions[2], video: fixtureVideoName(1) },
        { ...questions[3], video: fixtureVideoName(2) },
      ]),
    });

    const quarter = await videosLackingUniformFrames(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      8,
      { mode: "quarter" },
    );
    expect(quarter.map((v) => [v.id, v.maxSide, v.problem])).toEqual([
      [videoIds[1], 640, undefined],
      [videoIds[2], null, expect.stringContaining("size is unknown")],
    ]);
    // A longest side of 768 is what the sets were extracted with: none lacks one.
    expect(
      await videosLackingUniformFrames(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), 8, {
        mode: "longest_side",
        px: 768,
      }),
    ).toEqual([]);
    expect(
      (
        await videosLackingUniformFrames(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), 8, {
          mode: "longest_side",
          px: 256,
        })
      ).map((v) => v.maxSide),
    ).toEqual([256, 256, 256]);
  });

  it("is for those who may import", async () => {
    const owner = await makeUser();
    const viewer = await makeUser();
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: viewer.email,
      role: "viewer",
    });
    await expect(projectAccess(prisma, viewer, projectId, "videos.import")).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("parses the page's count", () => {
    expect(uniformFramesQuerySchema.parse({ uniform: "8" }).uniform).toBe(8);
    expect(uniformFramesQuerySchema.safeParse({ uniform: "0" }).success).toBe(false);
    expect(resizeOfQuery(uniformFramesQuerySchema.parse({ uniform: "8", resize: "quarter" }))).toEqual({
      mode: "quarter",
    });
    expect(resizeOfQuery(uniformFramesQuerySchema.parse({ uniform: "16", longestSide: "512" }))).toEqual({
      mode: "longest_side",
      px: 512,
    });
    expect(resizeOfQuery(uniformFramesQuerySchema.parse({ uniform: "8" }))).toBeUndefined();
    expect(uniformFramesQuerySchema.safeParse({ uniform: "8", resize: "half" }).success).toBe(false);
    expect(uniformFramesQuerySchema.safeParse({ uniform: "8", resize: "quarter", longestSide: "512" }).success).toBe(
      false,
    );
  });
});
