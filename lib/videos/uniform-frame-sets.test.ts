import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ForbiddenError } from "../errors";
import { importReferenceSet } from "../items/item-sets";
import { addMember } from "../projects/projects";
import { fixtureVideoName, jsonlBytes, referenceLine } from "../testing/caption-fixtures";
import { makeUser } from "../testing/fixtures";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { uniformFramesQuerySchema, videosLackingUniformFrames } from "./uniform-frame-sets";

describe("videosLackingUniformFrames", () => {
  it("lists the videos with captions and no uniform frame set of that count", async () => {
    const owner = await makeUser();
    // Videos 0 and 1 have a uniform set of 8; video 2 has none; video 3 has none but no captions either.
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 2, uniformFrames: 8, uniformVideos: 2 });
    await importReferenceSet(prisma, owner, projectId, { fileName: "ref.jsonl", bytes: jsonlBytes(...[0, 1, 2].map((v) => referenceLine(v, fixtureVideoName(v), "brief"))) }, {});

    const lacking8 = await videosLackingUniformFrames(prisma, owner, projectId, 8);
    expect(lacking8.map((v) => v.id)).toEqual([videoIds[2]]);
    const lacking16 = await videosLackingUniformFrames(prisma, owner, projectId, 16);
    expect(lacking16.map((v) => v.id).sort()).toEqual([videoIds[0], videoIds[1], videoIds[2]].sort());
  });

  it("is for those who may import", async () => {
    const owner = await makeUser();
    const viewer = await makeUser();
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await addMember(prisma, owner, { projectId, email: viewer.email, role: "viewer" });
    await expect(videosLackingUniformFrames(prisma, viewer, projectId, 8)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("parses the page's count", () => {
    expect(uniformFramesQuerySchema.parse({ uniform: "8" }).uniform).toBe(8);
    expect(uniformFramesQuerySchema.safeParse({ uniform: "0" }).success).toBe(false);
  });
});
