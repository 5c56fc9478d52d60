import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { AppError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { browseVideos } from "./browse-videos";
import { videoListQuerySchema } from "./video-filter";
import { videoNeighbours } from "./video-neighbours";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

let owner: Actor;
let projectId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "neighbours" })).id;
  const specs = [
    ["a", "Sora", "A ball falls"],
    ["b", "Kling", "Ice melts"],
    ["c", "Kling", "Glass shatters"],
    ["d", "Sora", "Water boils"],
    ["e", "Kling", "Steam rises"],
  ] as const;
  for (const [key, model, prompt] of specs) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 10n,
        fileName: `${key}.mp4`,
        relativePath: `${model}/${key}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        prompt,
        dimensions: [],
        model,
        createdById: owner.userId,
      },
    });
    ids[key] = video.id;
  }
});

const query = (raw: Record<string, string>) => videoListQuerySchema(builtInCatalogue()).parse(raw);

it("follows the list's filter and order, across its pages, as the list itself shows it", async () => {
  const raw = { model: "Kling", sort: "prompt", dir: "desc", pageSize: "1" };
  const listed = (
    await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      query({ ...raw, pageSize: "500" }),
    )
  ).videos.map((v) => v.fileName);
  // Kling by prompt, descending: Steam rises, Ice melts, Glass shatters.
  expect(listed).toEqual(["e.mp4", "b.mp4", "c.mp4"]);
  expect(
    await videoNeighbours(prisma, await projectAccess(prisma, owner, projectId, "project.view"), query(raw), ids.b!),
  ).toEqual({
    previousId: ids.e,
    nextId: ids.c,
    position: 2,
    total: 3,
  });
  expect(
    await videoNeighbours(prisma, await projectAccess(prisma, owner, projectId, "project.view"), query(raw), ids.e!),
  ).toEqual({
    previousId: null,
    nextId: ids.b,
    position: 1,
    total: 3,
  });
  expect(
    await videoNeighbours(prisma, await projectAccess(prisma, owner, projectId, "project.view"), query(raw), ids.c!),
  ).toEqual({
    previousId: ids.b,
    nextId: null,
    position: 3,
    total: 3,
  });
});

it("without a filter follows the default order (path), and a video outside the filter has no neighbours", async () => {
  expect(
    await videoNeighbours(prisma, await projectAccess(prisma, owner, projectId, "project.view"), query({}), ids.c!),
  ).toMatchObject({
    previousId: ids.b,
    nextId: ids.e,
    position: 2,
    total: 5,
  });
  expect(
    await videoNeighbours(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      query({ model: "Kling" }),
      ids.a!,
    ),
  ).toBeNull();
});

it("refuses a user who is not a member of the project", async () => {
  const stranger = await makeUser();
  await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(AppError);
});
