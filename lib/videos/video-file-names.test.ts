import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { AppError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { videoFileNames } from "./video-file-names";
import { projectAccess } from "../authz/permissions";

async function video(projectId: string, userId: string, fileName: string) {
  const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
  return prisma.video.create({
    data: {
      projectId,
      sha256: sha,
      sizeBytes: 1n,
      fileName,
      relativePath: fileName,
      storageKey: `k/${sha}`,
      contentType: "video/mp4",
      status: "ready",
      createdById: userId,
    },
  });
}

it("names the project's videos by file name and leaves out other projects' videos", async () => {
  const [owner, other] = [await makeUser(), await makeUser()];
  const projectId = (await createProject(prisma, owner, { name: "names" })).id;
  const otherProject = (await createProject(prisma, other, { name: "other" })).id;
  const a = await video(projectId, owner.userId, "ramp-a.mp4");
  const b = await video(projectId, owner.userId, "ramp-b.mp4");
  const foreign = await video(otherProject, other.userId, "secret.mp4");
  expect(
    await videoFileNames(prisma, await projectAccess(prisma, owner, projectId, "project.view"), [
      a.id,
      b.id,
      foreign.id,
      a.id,
    ]),
  ).toEqual({
    [a.id]: "ramp-a.mp4",
    [b.id]: "ramp-b.mp4",
  });
  expect(await videoFileNames(prisma, await projectAccess(prisma, owner, projectId, "project.view"), [])).toEqual({});
  await expect(projectAccess(prisma, other, projectId, "project.view")).rejects.toBeInstanceOf(AppError);
});
