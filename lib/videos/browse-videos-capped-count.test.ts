import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { Prisma } from "../generated/prisma/client";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { LIST_COUNT_CAP, browseVideos } from "./browse-videos";
import { videoListQuerySchema } from "./video-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

let owner: Actor;
let projectId: string;
let runId: string;
// More videos than the list counts: 4 models in turn (so one model matches about a quarter, under the
// cap), and the run judges every third video with an overall of (i % 100).
const VIDEO_COUNT = LIST_COUNT_CAP + 130;

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "capped count" })).id;
  await prisma.$executeRaw`INSERT INTO "video" ("id", "projectId", "sha256", "sizeBytes", "fileName", "relativePath", "storageKey", "contentType", "status", "prompt", "dimensions", "model", "createdById", "updatedAt")
    SELECT ${projectId} || '-' || lpad(i::text, 6, '0'), ${projectId}, md5(${projectId} || i) || md5(i::text), 1, 'clip-' || i || '.mp4', 'clips/clip-' || lpad(i::text, 6, '0') || '.mp4',
      'k/' || ${projectId} || '/' || i, 'video/mp4', 'ready', 'Prompt ' || i, ARRAY[(ARRAY['Mechanics', 'Material'])[1 + i % 2]], (ARRAY['Sora', 'Kling', 'Gen-2', 'Pika'])[1 + i % 4], ${owner.userId}, now()
    FROM generate_series(0, ${VIDEO_COUNT - 1}::int) AS i`;
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
  await prisma.$executeRaw`INSERT INTO "run_video" ("runId", "videoId", "frameSetId", "status", "updatedAt")
    SELECT ${runId}, v."id", 'fs', 'done', now() FROM "video" v WHERE v."projectId" = ${projectId} AND right(v."id", 6)::int % 3 = 0`;
  await prisma.$executeRaw`INSERT INTO "run_metric" ("runId", "videoId", "itemId", "metric", "value")
    SELECT ${runId}, rv."videoId", '', 'overall', right(rv."videoId", 6)::int % 100 FROM "run_video" rv WHERE rv."runId" = ${runId}`;
  await prisma.$executeRaw`ANALYZE "video"`;
}, 120_000);

const browse = async (query: Record<string, string>) =>
  browseVideos(
    prisma,
    await projectAccess(prisma, owner, projectId, "project.view"),
    videoListQuerySchema(builtInCatalogue()).parse(query),
  );

async function exactCount(where: Prisma.Sql): Promise<number> {
  const rows = await prisma.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM "video" v WHERE v."projectId" = ${projectId} AND ${where}`;
  return rows[0]!.n;
}

describe("the video list's count, capped", () => {
  it(`answers "at least ${LIST_COUNT_CAP}" and not exact when more videos match, and an exact count under the cap`, async () => {
    const all = await browse({});
    expect(all).toMatchObject({ total: LIST_COUNT_CAP, totalExact: false, page: 1 });
    expect(all.videos).toHaveLength(50);

    const sora = await browse({ model: "Sora" });
    const soraCount = await exactCount(Prisma.sql`v."model" = 'Sora'`);
    expect(soraCount).toBeLessThan(LIST_COUNT_CAP);
    expect(sora).toMatchObject({ total: soraCount, totalExact: true });

    // The dimension filter (now read through the GIN index) counts what `= ANY` counts.
    const mechanics = await browse({ dimension: "Mechanics", pageSize: "500" });
    expect(mechanics).toMatchObject({
      total: await exactCount(Prisma.sql`'Mechanics' = ANY(v."dimensions")`),
      totalExact: true,
    });
    const [firstMechanics] = await prisma.$queryRaw<
      { ids: string[] }[]
    >`SELECT array_agg(id ORDER BY "relativePath", id) AS ids FROM (SELECT v.id, v."relativePath" FROM "video" v WHERE v."projectId" = ${projectId} AND 'Mechanics' = ANY(v."dimensions") ORDER BY v."relativePath", v.id LIMIT 500) x`;
    expect(mechanics.videos.map((video) => video.id)).toEqual(firstMechanics!.ids);

    const scored = await browse({ overallMin: "50" });
    expect(scored.totalExact).toBe(true);
    const [row] = await prisma.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM "run_metric" WHERE "runId" = ${runId} AND "metric" = 'overall' AND "value" >= 50`;
    expect(scored.total).toBe(row!.n);
  });

  it("never says there are fewer videos than the pages already shown: a deep page raises the lower bound, and the last page makes it exact in effect", async () => {
    const pageSize = 100;
    const lastPage = Math.ceil(VIDEO_COUNT / pageSize);
    const deep = await browse({ page: String(lastPage - 1), pageSize: String(pageSize) });
    expect(deep.totalExact).toBe(false);
    // Every row up to this page and one more (there is a next page).
    expect(deep.total).toBe((lastPage - 1) * pageSize + 1);
    expect(deep.nextCursor).not.toBeNull();

    const last = await browse({ cursor: deep.nextCursor!, pageSize: String(pageSize) });
    expect(last.page).toBe(lastPage);
    expect(last.videos).toHaveLength(VIDEO_COUNT - (lastPage - 1) * pageSize);
    expect(last).toMatchObject({ total: VIDEO_COUNT, totalExact: false, nextCursor: null });
  });

  it("pages past the run's scored videos by number (OFFSET) in the same order as by cursor, over more rows than the cap", async () => {
    const query = { sort: "overall", dir: "desc", pageSize: "500" };
    const scored = Math.ceil(VIDEO_COUNT / 3);
    // The page where scored and unscored videos meet, and the one after it.
    const meeting = Math.floor(scored / 500) + 1;
    const byNumber = await browse({ ...query, page: String(meeting) });
    const before = await browse({ ...query, page: String(meeting - 1) });
    const byCursor = await browse({ ...query, cursor: before.nextCursor! });
    expect(byNumber.videos.map((video) => video.id)).toEqual(byCursor.videos.map((video) => video.id));
    expect(byNumber.videos.filter((video) => video.scores?.overall != null).length).toBe(scored - (meeting - 1) * 500);
    const next = await browse({ ...query, page: String(meeting + 1) });
    expect(next.videos.map((video) => video.id)).toEqual(
      (await browse({ ...query, cursor: byCursor.nextCursor! })).videos.map((video) => video.id),
    );
    expect(next.videos.every((video) => video.scores === null)).toBe(true);
  });
});
