import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { Prisma } from "../generated/prisma/client";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { browseVideos } from "./browse-videos";
import { videoListQuerySchema } from "./video-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

/*
 * The list's path order reads the stored sort key ("pathSortKey", indexed with the project and with the model),
 * never the key's function per row: the function costs about 90 µs a row, so a deep page or a broad prompt search
 * that computed it for every row it passed took seconds at 200,000 videos.
 */
let owner: Actor;
let projectId: string;
const VIDEO_COUNT = 6000;

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "path plan" })).id;
  await prisma.$executeRaw`INSERT INTO "video" ("id", "projectId", "sha256", "sizeBytes", "fileName", "relativePath", "storageKey", "contentType", "status", "prompt", "dimensions", "model", "createdById", "updatedAt")
    SELECT ${projectId} || '-' || lpad(i::text, 6, '0'), ${projectId}, md5(${projectId} || i) || md5(i::text), 1, 'clip-' || i || '.mp4', (ARRAY['Sora', 'Kling', 'Pika'])[1 + i % 3] || '/clip-' || i || '.mp4',
      'k/' || ${projectId} || '/' || i, 'video/mp4', 'ready', CASE WHEN i % 2 = 0 THEN 'A ball rolls ' || i ELSE 'A cat sleeps ' || i END,
      ARRAY['Mechanics'], (ARRAY['Sora', 'Kling', 'Pika'])[1 + i % 3], ${owner.userId}, now()
    FROM generate_series(0, ${VIDEO_COUNT - 1}::int) AS i`;
  await prisma.$executeRaw`ANALYZE "video"`;
}, 120_000);

type Client = typeof prisma;

/** The client, recording EXPLAIN (VERBOSE) of every raw statement the list runs. */
function explaining(client: Client, plans: string[]): Client {
  return new Proxy(client, {
    get(target, property) {
      if (property !== "$queryRaw") {
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (first: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
        const sql = "raw" in first ? Prisma.sql(first, ...(values as Prisma.Sql[])) : first;
        const plan = await target.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN (VERBOSE) ${sql}`);
        plans.push(`${sql.sql}\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
        return target.$queryRaw(sql);
      };
    },
  });
}

async function listPlans(query: Record<string, string>) {
  const plans: string[] = [];
  const result = await browseVideos(
    explaining(prisma, plans),
    await projectAccess(prisma, owner, projectId, "project.view"),
    videoListQuerySchema(builtInCatalogue()).parse(query),
  );
  return { result, plans: plans.join("\n\n") };
}

// The key's function is a SQL function the planner inlines: computed per row, it shows as its regexp_replace.
const COMPUTES_KEY = /video_path_sort_key|regexp_replace/;

describe("the video list sorted by path", () => {
  it("reads a deep page (page=N, OFFSET) from the (projectId, pathSortKey, id) index without computing the key", async () => {
    const { result, plans } = await listPlans({ sort: "path", page: "40", pageSize: "50" });
    expect(result.videos).toHaveLength(50);
    expect(plans).toMatch(/Index (Only )?Scan using "video_projectId_pathSortKey_id_idx"/);
    expect(plans).not.toMatch(COMPUTES_KEY);
  });

  it("reads a page by cursor, and a model's page, from the stored key's indexes", async () => {
    const first = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ sort: "path" }),
    );
    const { plans } = await listPlans({ sort: "path", cursor: first.nextCursor! });
    expect(plans).toMatch(/Index (Only )?Scan using "video_projectId_pathSortKey_id_idx"/);
    expect(plans).not.toMatch(COMPUTES_KEY);
    const ofModel = await listPlans({ sort: "path", model: "Kling", page: "10" });
    expect(ofModel.plans).toMatch(/Index (Only )?Scan using "video_projectId_model_pathSortKey_id_idx"/);
    expect(ofModel.plans).not.toMatch(COMPUTES_KEY);
  });

  it("sorts a prompt search's matches by the stored key", async () => {
    const { result, plans } = await listPlans({ sort: "path", prompt: "ball", page: "3" });
    expect(result.videos).toHaveLength(50);
    expect(plans).not.toMatch(COMPUTES_KEY);
  });
});
