import { beforeAll, describe, expect, it } from "vitest";
import { projectAccess, type ProjectAction } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { createProject } from "../projects/projects";
import { getStorage } from "../storage/storage";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { deleteVideo } from "./delete-videos";
import { findProjectVideo } from "./frame-sets";
import { projectFrame } from "./queries";
import { uploadStatus } from "./upload-sessions";
import { editVideo, videoEditHistory } from "./video-edits";

/**
 * An operation handed a record id scopes the record to the access's project: a video, frame or upload of another
 * project is "not found" through an access to this one, even for an owner of both.
 */
describe("records of another project, through an access to this one", () => {
  let videoId: string;
  let frameId: string;
  let uploadId: string;
  let elsewhere: string;
  let owner: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    owner = await makeUser();
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    videoId = videoIds[0]!;
    frameId = (await prisma.frame.findFirstOrThrow({ where: { frameSet: { videoId } } })).id;
    uploadId = (
      await prisma.uploadSession.create({
        data: {
          projectId,
          createdById: owner.userId,
          relativePath: "a.mp4",
          sizeBytes: BigInt(10),
          sha256: "0".repeat(64),
        },
      })
    ).id;
    elsewhere = (await createProject(prisma, owner, { name: "Elsewhere" })).id;
  });

  const other = <A extends ProjectAction>(action: A) => projectAccess(prisma, owner, elsewhere, action);

  it("are not found", async () => {
    const deps = { prisma, storage: getStorage() };
    await expect(findProjectVideo(deps, await other("project.view"), videoId)).rejects.toThrow(
      new NotFoundError("No such video."),
    );
    await expect(videoEditHistory(prisma, await other("project.view"), videoId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      editVideo(deps, await other("videos.edit"), videoId, { prompt: "hijacked", model: undefined, seed: undefined }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteVideo(deps, await other("videos.delete"), videoId, { dryRun: true })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(projectFrame(deps, await other("project.view"), frameId)).rejects.toThrow(
      new NotFoundError("No such frame."),
    );
    await expect(uploadStatus(deps, await other("videos.import"), uploadId)).rejects.toThrow(
      new NotFoundError("No such upload."),
    );
    expect((await prisma.video.findUniqueOrThrow({ where: { id: videoId } })).prompt).not.toBe("hijacked");
  });
});
