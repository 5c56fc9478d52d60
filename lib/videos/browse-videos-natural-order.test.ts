import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { type BrowseResult, browseVideos } from "./browse-videos";
import { matchingVideoIds } from "./video-filter-sql";
import { videoListQuerySchema } from "./video-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

/*
 * The video list sorts paths naturally ("clip-2" before "clip-10", case aside), as the run page does, and
 * pages through that order by cursor and by page number without skipping or repeating a video.
 */
let owner: Actor;
let projectId: string;
// A path too long for a cursor to carry its sort key (the cursor reads it from the row).
const LONG = `clip-5-${"x".repeat(400)}.mp4`;
const PATHS = [
  "clip-10.mp4",
  "clip-1.mp4",
  "Clip-3.mp4",
  LONG,
  "clip-2.mp4",
  "clip-100.mp4",
  "clip-20.mp4",
  "b/clip-9.mp4",
];
const NATURAL = [
  "b/clip-9.mp4",
  "clip-1.mp4",
  "clip-2.mp4",
  "Clip-3.mp4",
  LONG,
  "clip-10.mp4",
  "clip-20.mp4",
  "clip-100.mp4",
];
const byId = new Map<string, string>();

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "natural order" })).id;
  for (const relativePath of PATHS) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 1n,
        fileName: relativePath.split("/").at(-1)!,
        relativePath,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        createdById: owner.userId,
      },
    });
    byId.set(video.id, relativePath);
  }
});

const browse = async (query: Record<string, string>) =>
  browseVideos(
    prisma,
    await projectAccess(prisma, owner, projectId, "project.view"),
    videoListQuerySchema(builtInCatalogue()).parse(query),
  );
const paths = (pages: BrowseResult[]) => pages.flatMap((page) => page.videos.map((video) => byId.get(video.id)));

describe("the video list's path order", () => {
  it("is natural on one page, both ways", async () => {
    expect(paths([await browse({ sort: "path" })])).toEqual(NATURAL);
    expect(paths([await browse({ sort: "path", dir: "desc" })])).toEqual([...NATURAL].reverse());
  });

  it("pages through it by cursor, forward and back, and by page number", async () => {
    const pages = [await browse({ sort: "path", pageSize: "2" })];
    while (pages.at(-1)!.nextCursor)
      pages.push(await browse({ sort: "path", pageSize: "2", cursor: pages.at(-1)!.nextCursor! }));
    expect(paths(pages)).toEqual(NATURAL);
    const back = await browse({ sort: "path", pageSize: "2", cursor: pages.at(-1)!.prevCursor! });
    expect(paths([back])).toEqual(NATURAL.slice(4, 6));
    // Back from the page whose first row is the long path.
    expect(paths([await browse({ sort: "path", pageSize: "2", cursor: pages[2]!.prevCursor! })])).toEqual(
      NATURAL.slice(2, 4),
    );
    expect(paths([await browse({ sort: "path", pageSize: "2", page: "3" })])).toEqual(NATURAL.slice(4, 6));
  });

  it("is the order queues and exports take", async () => {
    const ids = await matchingVideoIds(
      prisma,
      {},
      { projectId, catalogue: builtInCatalogue(), runId: null, task: null, userId: owner.userId },
      "path",
      "asc",
    );
    expect(ids.map((id) => byId.get(id))).toEqual(NATURAL);
  });
});
