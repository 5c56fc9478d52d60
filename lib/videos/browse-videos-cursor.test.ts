import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { Prisma } from "../generated/prisma/client";
import { ValidationError } from "../errors";
import { createProject } from "../projects/projects";
import { naturalCompare } from "../format/natural-sort";
import { makeUser } from "../../testkit/testing/fixtures";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { type BrowseResult, browseVideos } from "./browse-videos";
import { videoListQuerySchema } from "./video-filter";
import { decodeVideoListCursor, encodeVideoListCursor } from "./video-list-cursor";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

let owner: Actor;
let reviewer: Actor;
let projectId: string;
let runId: string;
const videoIds: string[] = [];
let hiddenIds: string[] = [];

// 23 videos built to tie and to miss values in every sort:
// - paths repeat in pairs (m0/clip-0.mp4 twice, …), creation times repeat every 4 videos;
// - every 5th has no prompt, the 4th of every 7 no model;
// - 3 are not in the run, every 6th in the run has no overall (no run_metric row), the other
//   overall values are 10, 20, 20, 20, 30: long runs of equal values that pages cut through.
// The reviewer holds blind claims on two scored videos: for them those sort as unscored.
const VIDEO_COUNT = 23;
const NOT_IN_RUN = new Set([1, 8, 15]);
beforeAll(async () => {
  [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: "cursor" })).id;
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  const base = Date.parse("2026-01-01T00:00:00.000Z");
  for (let i = 0; i < VIDEO_COUNT; i++) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 1n,
        fileName: `clip-${i}.mp4`,
        relativePath: `m${i % 4}/clip-${Math.floor(i / 2)}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        prompt: i % 5 === 0 ? null : `Prompt ${i % 6}`,
        dimensions: ["Mechanics"],
        model: i % 7 === 3 ? null : ["Sora", "Kling", "Gen-2"][i % 3]!,
        createdById: owner.userId,
        createdAt: new Date(base + (i % 4) * 1000),
      },
    });
    videoIds.push(video.id);
  }
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  runId = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
      },
    })
  ).id;
  for (const [i, videoId] of videoIds.entries()) {
    if (NOT_IN_RUN.has(i)) continue;
    await createRunVideo(prisma, {
      runId,
      videoId,
      frameSetId: "fs",
      metrics: { S: i % 3, overall: i % 6 === 0 ? null : [10, 20, 20, 20, 30][(i % 6) - 1]! },
    });
  }
  hiddenIds = [videoIds[4]!, videoIds[9]!];
  const queue = await prisma.reviewQueue.create({
    data: { projectId, name: "blind", runId, scope: "verdict", blind: true, itemCount: 2, createdById: owner.userId },
  });
  for (const [position, videoId] of hiddenIds.entries()) {
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position } });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: reviewer.userId },
    });
  }
});

/** Each caller's access to a project, checked once: the walks below browse hundreds of pages. */
const accesses = new Map<string, ReturnType<typeof projectAccess<"project.view">>>();
const accessOf = (as: Actor, project: string) => {
  const key = `${as.userId} ${project}`;
  if (!accesses.has(key)) accesses.set(key, projectAccess(prisma, as, project, "project.view"));
  return accesses.get(key)!;
};

const browse = async (query: Record<string, string>, as: Actor = owner, project = projectId) =>
  browseVideos(prisma, await accessOf(as, project), videoListQuerySchema(builtInCatalogue()).parse(query));

/**
 * The list's order written out as one plain ORDER BY (value in the direction, NULLS LAST, then id),
 * independently of the keyset reads: hidden videos have no value for their reviewer.
 */
async function referenceOrder(
  sort: string,
  dir: "asc" | "desc",
  hidden: string[] = [],
  project = { projectId, runId },
): Promise<string[]> {
  if (sort === "path") {
    // Natural order of the path (lib/format/natural-sort), then id.
    const rows = await prisma.video.findMany({
      where: { projectId: project.projectId },
      select: { id: true, relativePath: true },
    });
    const sign = dir === "asc" ? 1 : -1;
    return rows
      .sort((a, b) => sign * naturalCompare(a.relativePath, b.relativePath) || (a.id < b.id ? -1 : 1))
      .map((row) => row.id);
  }
  const column: Record<string, Prisma.Sql> = {
    prompt: Prisma.sql`v."prompt"`,
    model: Prisma.sql`v."model"`,
    created: Prisma.sql`v."createdAt"`,
  };
  const value = column[sort] ?? Prisma.sql`(CASE WHEN v."id" = ANY(${hidden}::text[]) THEN NULL ELSE m."value" END)`;
  const rows = await prisma.$queryRaw<{ id: string }[]>`SELECT v."id" FROM "video" v
    LEFT JOIN "run_metric" m ON m."runId" = ${project.runId} AND m."videoId" = v."id" AND m."itemId" = '' AND m."metric" = ${sort}
    WHERE v."projectId" = ${project.projectId}
    ORDER BY ${value} ${dir === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`} NULLS LAST, v."id" ASC`;
  return rows.map((row) => row.id);
}

/** Every page from the first, following nextCursor. */
async function walkForward(
  query: Record<string, string>,
  as: Actor = owner,
  project = projectId,
): Promise<BrowseResult[]> {
  const pages = [await browse(query, as, project)];
  while (pages.at(-1)!.nextCursor) {
    pages.push(await browse({ ...query, cursor: pages.at(-1)!.nextCursor! }, as, project));
    if (pages.length > 100) throw new Error("the walk does not end");
  }
  return pages;
}

const idsOf = (pages: BrowseResult[]) => pages.flatMap((page) => page.videos.map((video) => video.id));

describe("browseVideos with cursors", () => {
  for (const sort of ["path", "prompt", "model", "created", "overall", "S"]) {
    for (const dir of ["asc", "desc"] as const) {
      it(`walks sort=${sort} ${dir} by nextCursor and back by prevCursor: every video once, in the list's order`, async () => {
        const query = { sort, dir, pageSize: "4" };
        const forward = await walkForward(query);
        expect(idsOf(forward)).toEqual(await referenceOrder(sort, dir));
        expect(forward.map((page) => page.page)).toEqual(forward.map((_, i) => i + 1));
        expect(forward.map((page) => page.total)).toEqual(forward.map(() => VIDEO_COUNT));
        expect(forward.length).toBe(Math.ceil(VIDEO_COUNT / 4));
        expect(forward[0]!.prevCursor).toBeNull();

        const backward = [forward.at(-1)!];
        while (backward.at(-1)!.prevCursor)
          backward.push(await browse({ ...query, cursor: backward.at(-1)!.prevCursor! }));
        expect(backward.map((page) => page.page)).toEqual(forward.map((page) => page.page).reverse());
        expect(backward.map((page) => page.videos.map((video) => video.id))).toEqual(
          forward.map((page) => page.videos.map((video) => video.id)).reverse(),
        );
      });
    }
  }

  it("reads every page number (OFFSET) as the cursor walk does, for each sort and direction, also where valued and unvalued rows meet and for a blind reviewer", async () => {
    for (const as of [owner, reviewer]) {
      for (const sort of ["overall", "S", "prompt", "model", "path"]) {
        for (const dir of ["asc", "desc"] as const) {
          const query = { sort, dir, pageSize: "3" };
          const forward = await walkForward(query, as);
          for (const [i, cursorPage] of forward.entries()) {
            const numbered = await browse({ ...query, page: String(i + 1) }, as);
            expect(
              numbered.videos.map((video) => video.id),
              `${sort} ${dir} page ${i + 1}`,
            ).toEqual(cursorPage.videos.map((video) => video.id));
          }
          expect((await browse({ ...query, page: String(forward.length + 1) }, as)).videos).toEqual([]);
        }
      }
    }
  });

  it("reads page numbers (OFFSET) of a score sort within the filter, as the cursor walk does", async () => {
    // Unfiltered, a score sort's pages come from the run's metric rows alone; any filter must still narrow them.
    const filters: Record<string, string>[] = [{ model: "Kling" }, { prompt: "Prompt 2" }, { "min.overall": "20" }];
    for (const filter of filters) {
      for (const dir of ["asc", "desc"] as const) {
        const query = { ...filter, sort: "overall", dir, pageSize: "2" };
        const forward = await walkForward(query);
        expect(forward.length, JSON.stringify(filter)).toBeGreaterThan(1);
        for (const [i, cursorPage] of forward.entries()) {
          const numbered = await browse({ ...query, page: String(i + 1) });
          expect(
            numbered.videos.map((video) => video.id),
            `${JSON.stringify(filter)} ${dir} page ${i + 1}`,
          ).toEqual(cursorPage.videos.map((video) => video.id));
        }
      }
    }
  });

  it("agrees with page numbers (OFFSET), and continues by cursor after a jump", async () => {
    const query = { sort: "overall", dir: "desc", pageSize: "5" };
    const forward = await walkForward(query);
    for (const [i, cursorPage] of forward.entries()) {
      if (i === 0) continue;
      const numbered = await browse({ ...query, page: String(i + 1) });
      expect(
        numbered.videos.map((video) => video.id),
        `page ${i + 1}`,
      ).toEqual(cursorPage.videos.map((video) => video.id));
      expect(numbered.page).toBe(i + 1);
    }
    const third = await browse({ ...query, page: "3" });
    const fourth = await browse({ ...query, cursor: third.nextCursor! });
    expect(fourth.page).toBe(4);
    expect(fourth.videos.map((video) => video.id)).toEqual(forward[3]!.videos.map((video) => video.id));
    const second = await browse({ ...query, cursor: third.prevCursor! });
    expect(second.page).toBe(2);
    expect(second.videos.map((video) => video.id)).toEqual(forward[1]!.videos.map((video) => video.id));
    // A cursor wins over a page number given beside it.
    expect((await browse({ ...query, page: "1", cursor: third.nextCursor! })).page).toBe(4);
  });

  it("sorts a reviewer's blind videos as unscored on every page, and never puts their value in a cursor", async () => {
    const pages = await walkForward({ sort: "overall", dir: "desc", pageSize: "3" }, reviewer);
    expect(idsOf(pages)).toEqual(await referenceOrder("overall", "desc", hiddenIds));
    const shown = pages.flatMap((page) => page.videos).filter((video) => hiddenIds.includes(video.id));
    expect(shown.map((video) => [video.blind, video.scores])).toEqual([
      [true, null],
      [true, null],
    ]);
    for (const page of pages) {
      for (const cursor of [page.nextCursor, page.prevCursor]) {
        const decoded = cursor ? decodeVideoListCursor(cursor) : null;
        if (decoded && hiddenIds.includes(decoded.id)) expect(decoded.value).toBeNull();
      }
    }
    // The owner, who is not blind, sees both with their values, earlier in the order.
    expect(idsOf(await walkForward({ sort: "overall", dir: "desc", pageSize: "3" }))).toEqual(
      await referenceOrder("overall", "desc"),
    );
  });

  it("refuses a cursor made for another sort or direction, or whose value is not of the sort's type", async () => {
    const first = await browse({ sort: "overall", dir: "desc", pageSize: "4" });
    await expect(browse({ sort: "overall", dir: "asc", pageSize: "4", cursor: first.nextCursor! })).rejects.toThrow(
      ValidationError,
    );
    await expect(browse({ sort: "path", dir: "desc", pageSize: "4", cursor: first.nextCursor! })).rejects.toThrow(
      /cursor/,
    );
    const textOnMetric = encodeVideoListCursor({
      sort: "overall",
      dir: "desc",
      toward: "after",
      value: "20",
      id: videoIds[0]!,
      page: 2,
    });
    await expect(browse({ sort: "overall", dir: "desc", cursor: textOnMetric })).rejects.toThrow(/cursor/);
    const nullPath = encodeVideoListCursor({
      sort: "path",
      dir: "asc",
      toward: "after",
      value: null,
      id: videoIds[0]!,
      page: 2,
    });
    await expect(browse({ sort: "path", dir: "asc", cursor: nullPath })).rejects.toThrow(/cursor/);
    const badTime = encodeVideoListCursor({
      sort: "created",
      dir: "asc",
      toward: "after",
      value: "yesterday",
      id: videoIds[0]!,
      page: 2,
    });
    await expect(browse({ sort: "created", dir: "asc", cursor: badTime })).rejects.toThrow(/cursor/);
    for (const cursor of [
      "x",
      first.nextCursor!.slice(0, -3),
      Buffer.from('{"v":1}').toString("base64url"),
      `${first.nextCursor!}.`,
    ]) {
      expect(videoListQuerySchema(builtInCatalogue()).safeParse({ cursor }).success, cursor).toBe(false);
    }
  });

  it("neither repeats nor skips a row when videos are added before the position between two pages", async () => {
    const query = { sort: "path", dir: "asc", pageSize: "4" };
    const first = await browse(query);
    const second = await browse({ ...query, cursor: first.nextCursor! });
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    // Sorts before every other path: with OFFSET, page 3 would show page 2's last row again.
    const added = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 1n,
        fileName: "a.mp4",
        relativePath: "a/first.mp4",
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        dimensions: [],
        createdById: owner.userId,
      },
    });
    try {
      const rest: string[] = [];
      let page = await browse({ ...query, cursor: second.nextCursor! });
      rest.push(...page.videos.map((video) => video.id));
      while (page.nextCursor) {
        page = await browse({ ...query, cursor: page.nextCursor });
        rest.push(...page.videos.map((video) => video.id));
      }
      const seen = [...idsOf([first, second]), ...rest];
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...videoIds].sort());
      const now = await referenceOrder("path", "asc");
      expect(rest).toEqual(now.slice(now.indexOf(second.videos.at(-1)!.id) + 1));
    } finally {
      await prisma.video.delete({ where: { id: added.id } });
    }
  });
});

describe("browseVideos with cursors, other projects", () => {
  async function videosIn(project: string, prompts: (string | null)[]): Promise<string[]> {
    const created: string[] = [];
    for (const [i, prompt] of prompts.entries()) {
      const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
      const video = await prisma.video.create({
        data: {
          projectId: project,
          sha256: sha,
          sizeBytes: 1n,
          fileName: `v${i}.mp4`,
          relativePath: `v${i}.mp4`,
          storageKey: `k/${sha}`,
          contentType: "video/mp4",
          status: "ready",
          prompt,
          dimensions: [],
          createdById: owner.userId,
        },
      });
      created.push(video.id);
    }
    return created;
  }

  it("keeps cursors short when they stand on a long prompt, reading the prompt from the row", async () => {
    const project = (await createProject(prisma, owner, { name: "long prompts" })).id;
    const long = `A ${"very ".repeat(1200)}long prompt`;
    const created = await videosIn(project, [long, "B short", long, null, `${long} indeed`, "A short"]);
    for (const dir of ["asc", "desc"] as const) {
      const pages = await walkForward({ sort: "prompt", dir, pageSize: "1" }, owner, project);
      expect(idsOf(pages)).toEqual(await referenceOrder("prompt", dir, [], { projectId: project, runId: "" }));
      const cursors = pages
        .flatMap((page) => [page.nextCursor, page.prevCursor])
        .filter((cursor): cursor is string => cursor !== null);
      expect(Math.max(...cursors.map((cursor) => cursor.length))).toBeLessThan(2_048);
      expect(cursors.some((cursor) => decodeVideoListCursor(cursor)!.valueInRow)).toBe(true);
      const backward = [pages.at(-1)!];
      while (backward.at(-1)!.prevCursor)
        backward.push(
          await browse({ sort: "prompt", dir, pageSize: "1", cursor: backward.at(-1)!.prevCursor! }, owner, project),
        );
      expect(idsOf(backward.reverse())).toEqual(idsOf(pages));
    }
    // A cursor standing on a video that was deleted since cannot say where it was.
    const onLong = (await walkForward({ sort: "prompt", dir: "asc", pageSize: "1" }, owner, project)).find(
      (page) => page.videos[0]!.id === created[0],
    )!;
    await prisma.video.delete({ where: { id: created[0]! } });
    await expect(
      browse({ sort: "prompt", dir: "asc", pageSize: "1", cursor: onLong.nextCursor! }, owner, project),
    ).rejects.toThrow(/cursor: the video it points at is gone/);
  });

  it("going back past rows deleted since, lands on a full first page", async () => {
    const project = (await createProject(prisma, owner, { name: "deleted rows" })).id;
    await videosIn(project, ["a", "b", "c", "d", "e", "f"]);
    const query = { sort: "path", dir: "asc", pageSize: "2" };
    const pages = await walkForward(query, owner, project);
    expect(pages.map((page) => page.videos.length)).toEqual([2, 2, 2]);
    await prisma.video.delete({ where: { id: pages[0]!.videos[0]!.id } });
    const second = await browse({ ...query, cursor: pages[2]!.prevCursor! }, owner, project);
    expect(second.videos.map((video) => video.id)).toEqual(pages[1]!.videos.map((video) => video.id));
    expect(second.page).toBe(2);
    const first = await browse({ ...query, cursor: second.prevCursor! }, owner, project);
    expect(first).toMatchObject({ page: 1, prevCursor: null, total: 5 });
    expect(first.videos.map((video) => video.id)).toEqual([pages[0]!.videos[1]!.id, pages[1]!.videos[0]!.id]);
  });

  it("pages a metric sort in a project without a run: every video unscored, by id", async () => {
    const project = (await createProject(prisma, owner, { name: "no run" })).id;
    const created = await videosIn(project, ["a", "b", "c", "d", "e"]);
    const pages = await walkForward({ sort: "overall", dir: "desc", pageSize: "2" }, owner, project);
    expect(pages.map((page) => page.page)).toEqual([1, 2, 3]);
    expect(idsOf(pages)).toEqual(await referenceOrder("overall", "desc", [], { projectId: project, runId: "" }));
    expect([...idsOf(pages)].sort()).toEqual([...created].sort());
    expect(pages.every((page) => page.run === null && page.videos.every((video) => video.scores === null))).toBe(true);
  });
});
