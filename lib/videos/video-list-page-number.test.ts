import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { LIST_COUNT_CAP } from "./browse-videos";
import { MAX_LIST_PAGE, videoListQuerySchema } from "./video-filter";
import { browseVideosAtRequestedPage, readRequestedPage } from "./video-list-page-number";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

/*
 * The video list page and a hand-typed `page` (issue 38, finding 10): `?page=999999` showed the query schema's
 * raw message and `?page=-3` listed nothing useful. The page now shows the nearest page there is, with a plain
 * sentence: past the end, the last page; below 1 or not a number, the first. (The API still answers 400.)
 */
let owner: Actor;
let projectId: string;
let cappedProjectId: string;

/** `count` videos clip-000000.mp4 … in one statement (path order is their number's). */
async function insertVideos(project: string, count: number) {
  await prisma.$executeRaw`INSERT INTO "video" ("id", "projectId", "sha256", "sizeBytes", "fileName", "relativePath", "storageKey", "contentType", "status", "prompt", "dimensions", "model", "createdById", "updatedAt")
    SELECT ${project} || '-' || lpad(i::text, 6, '0'), ${project}, md5(${project} || i) || md5(i::text), 1, 'clip-' || lpad(i::text, 6, '0') || '.mp4', 'clips/clip-' || lpad(i::text, 6, '0') || '.mp4',
      'k/' || ${project} || '/' || i, 'video/mp4', 'ready', 'Prompt ' || i, ARRAY['Mechanics'], 'Sora', ${owner.userId}, now()
    FROM generate_series(0, ${count - 1}::int) AS i`;
}

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "page numbers" })).id;
  cappedProjectId = (await createProject(prisma, owner, { name: "page numbers, capped count" })).id;
  // Five videos, two to a page: three pages, the last with one video.
  await insertVideos(projectId, 5);
  await insertVideos(cappedProjectId, LIST_COUNT_CAP + 5);
}, 120_000);

/** What the list page does with `?page=<typed>&pageSize=<size>`. */
async function openPage(typed: string | undefined, pageSize: number, project = projectId) {
  const requested = readRequestedPage(typed);
  const query = videoListQuerySchema(builtInCatalogue()).parse({
    pageSize: String(pageSize),
    page: String(requested.page),
  });
  const { result, notice } = await browseVideosAtRequestedPage(
    prisma,
    await projectAccess(prisma, owner, project, "project.view"),
    query,
    requested,
  );
  return { page: result.page, names: result.videos.map((video) => video.fileName), notice, total: result.total };
}

describe("a page number typed into the video list's address", () => {
  it("past the last page shows the last page and says so, even past the schema's bound", async () => {
    expect(await openPage("999999", 2)).toEqual({
      page: 3,
      names: ["clip-000004.mp4"],
      notice: "Page 999999 is past the last page (3): showing page 3.",
      total: 5,
    });
    expect(await openPage("7", 2)).toMatchObject({
      page: 3,
      names: ["clip-000004.mp4"],
      notice: "Page 7 is past the last page (3): showing page 3.",
    });
    // The schema alone would refuse 999999 with its own words; the page never shows them.
    expect(videoListQuerySchema(builtInCatalogue()).safeParse({ page: "999999" }).success).toBe(false);
    expect(readRequestedPage("999999")).toMatchObject({ page: MAX_LIST_PAGE, pastBound: true });
  });

  it("below 1 shows the first page and says so", async () => {
    expect(await openPage("-3", 2)).toEqual({
      page: 1,
      names: ["clip-000000.mp4", "clip-000001.mp4"],
      notice: "Page -3 is before the first page: showing page 1.",
      total: 5,
    });
    expect((await openPage("0", 2)).notice).toBe("Page 0 is before the first page: showing page 1.");
  });

  it("that is not a whole number shows the first page and says so in words, not the schema's", async () => {
    expect(await openPage("abc", 2)).toMatchObject({
      page: 1,
      names: ["clip-000000.mp4", "clip-000001.mp4"],
      notice: '"abc" is not a page number: showing page 1.',
    });
    expect((await openPage("2.5", 2)).notice).toBe('"2.5" is not a page number: showing page 1.');
    expect((await openPage("x".repeat(300), 2)).notice).toBe(
      `"${"x".repeat(24)}…" is not a page number: showing page 1.`,
    );
  });

  it("that exists is shown with no sentence, as is a list without a page number", async () => {
    expect(await openPage("2", 2)).toEqual({
      page: 2,
      names: ["clip-000002.mp4", "clip-000003.mp4"],
      notice: null,
      total: 5,
    });
    expect(await openPage(" 3 ", 2)).toMatchObject({ page: 3, notice: null });
    expect(await openPage(undefined, 2)).toMatchObject({ page: 1, notice: null });
  });

  it("past the end of a list whose count is capped shows the first page, its last page not being counted", async () => {
    const opened = await openPage("40", 500, cappedProjectId);
    expect(opened.page).toBe(1);
    expect(opened.names[0]).toBe("clip-000000.mp4");
    expect(opened.notice).toBe(
      `Page 40 is past the end of the list (over ${LIST_COUNT_CAP.toLocaleString("en")} videos match, so its last page is not counted): showing page 1.`,
    );
    // Page 21 (the last, with 5 videos) is still shown as asked.
    expect(await openPage("21", 500, cappedProjectId)).toMatchObject({ page: 21, notice: null });
  });
});
