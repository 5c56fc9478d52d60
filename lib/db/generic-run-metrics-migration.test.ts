import { queueAccess } from "@/testkit/testing/queue-access";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Actor } from "../auth/actor";
import { createUser } from "../auth/users";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema } from "../agreement/report-filter";
import type { PrismaClient } from "../generated/prisma/client";
import { insertEndpoint, insertFinishedRun, insertProject, insertVideo } from "../../testkit/testing/raw-rows";
import { getQueueItem } from "../queues/get-queue-item";
import { nextItem } from "../queues/next-item";
import { browseVideos } from "../videos/browse-videos";
import { videoListQuerySchema } from "../videos/video-filter";
import { databaseUrl, ensureDatabase } from "./embedded-postgres";
import { dropDatabase } from "../../testkit/testing/test-database";
import { applyMigrations, readMigrations } from "./migrate";
import { createPrismaClient } from "./prisma";
import { MIGRATIONS_DIR } from "./resolve-database";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

// A database as the release before generic metrics left it: hallucination runs whose per-video
// numbers live in run_video's scoreS/scoreD/scoreI/overall/verdict columns, with human judgments and
// a queue. Migrating must keep every value: the list, the queue and the agreement report answer
// as they did from the old columns.

const MIGRATION = "20261122221245_generic_run_metrics";
const baseUrl = inject("serverBaseUrl");
const name = `generic_metrics_migration_${Date.now().toString(36)}`;
let url: string;
let db: PrismaClient;
let owner: Actor;
let reviewer: Actor;
let projectId: string;
let runId: string;
const videoIds: string[] = [];
// Per video: S, D, I, overall, verdict as the old columns held them (the third run video is incomplete).
const OLD = [
  { S: 2.5, D: 8, I: 1, overall: 56, verdict: true },
  { S: 1, D: 1, I: 0, overall: 92, verdict: false },
  { S: 3, D: null, I: 2, overall: null, verdict: null },
] as const;

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const all = readMigrations(MIGRATIONS_DIR).map((m) => m.name);
  const previous = all[all.indexOf(MIGRATION) - 1]!;
  await ensureDatabase(baseUrl, name);
  url = databaseUrl(baseUrl, name);
  expect((await applyMigrations(url, MIGRATIONS_DIR, () => {}, { upTo: previous })).applied.at(-1)).toBe(previous);
  db = createPrismaClient(url);

  // Accounts, project and videos: tables this migration does not touch.
  const users = await Promise.all(
    ["owner", "reviewer"].map((who) =>
      createUser(db, {
        email: `${who}-${randomUUID()}@example.test`,
        password: "correct horse battery",
        isAdmin: false,
      }),
    ),
  );
  [owner, reviewer] = users.map((u) => ({ userId: u.id, email: u.email, name: u.name, isAdmin: false })) as [
    Actor,
    Actor,
  ];
  // Raw rows where later migrations add columns these tables do not have yet.
  projectId = await insertProject(db, "before generic metrics", owner!.userId);
  await db.projectMember.create({ data: { projectId, userId: reviewer!.userId, role: "reviewer" } });
  for (let i = 0; i < OLD.length; i++) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = {
      id: await insertVideo(db, {
        projectId,
        sha256: sha,
        sizeBytes: 1n,
        fileName: `v${i}.mp4`,
        relativePath: `v${i}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: "ready",
        dimensions: ["Mechanics"],
        createdById: owner!.userId,
      }),
    };
    videoIds.push(video.id);
  }
  const endpointId = await insertEndpoint(db, {
    projectId,
    name: "e",
    baseUrl: "http://127.0.0.1:1/v1",
    model: "m",
    createdById: owner!.userId,
  });
  runId = await insertFinishedRun(db, {
    projectId,
    pipeline: "hallucination",
    endpointId,
    createdById: owner!.userId,
    endpointSnapshot: {},
  });

  // What the old release wrote: the columns, judgments keyed by run with the judge's value, a queue.
  for (const [i, v] of OLD.entries()) {
    await sql(
      `INSERT INTO "run_video" ("runId", "videoId", "frameSetId", "status", "summary", "scoreS", "scoreD", "scoreI", "overall", "verdict", "updatedAt")
       VALUES ($1, $2, 'fs', 'done', $3, $4, $5, $6, $7, $8, now())`,
      [
        runId,
        videoIds[i],
        JSON.stringify({
          S: v.S,
          D: v.D,
          I: v.I,
          overall: v.overall,
          hallucination: v.verdict,
          complete: v.overall !== null,
        }),
        v.S,
        v.D,
        v.I,
        v.overall,
        v.verdict,
      ],
    );
  }
  await sql(
    `INSERT INTO "human_judgment" ("id", "projectId", "targetType", "targetKey", "runId", "videoId", "reviewerId", "value", "judgeValue", "disagrees", "createdAt", "updatedAt")
     VALUES ('hj1', $1, 'verdict', 'verdict:' || $2 || ':' || $3, $2, $3, $4, 0, 1, true, now(), now()),
            ('hj2', $1, 'overall', 'overall:' || $2 || ':' || $5, $2, $5, $4, 90, 92, false, now(), now())`,
    [projectId, runId, videoIds[0], reviewer!.userId, videoIds[1]],
  );
  // Queues as that release stored them (later migrations change review_queue_item, so not through the client).
  await sql(
    `INSERT INTO "review_queue" ("id", "projectId", "name", "runId", "scope", "categories", "filter", "itemCount", "createdById") VALUES ('q1', $1, 'q', $2, 'verdict', '{}', $3, 1, $4)`,
    [projectId, runId, JSON.stringify({ verdict: "yes", sMin: 2 }), owner!.userId],
  );
  await sql(`INSERT INTO "review_queue_item" ("id", "queueId", "videoId", "position") VALUES ('qi1', 'q1', $1, 0)`, [
    videoIds[0],
  ]);

  await applyMigrations(url, MIGRATIONS_DIR);
});

afterAll(async () => {
  await db?.$disconnect();
  await dropDatabase(baseUrl, name);
});

describe(`migration ${MIGRATION}`, () => {
  it("moves every known value to run_metric (verdict as 1/0, unknown as no row) and drops the old columns", async () => {
    const rows = await sql(`SELECT "videoId", "itemId", "metric", "value" FROM "run_metric" WHERE "runId" = $1`, [
      runId,
    ]);
    expect(rows).toHaveLength(5 + 5 + 2);
    for (const [i, v] of OLD.entries()) {
      const mine = Object.fromEntries(rows.filter((r) => r.videoId === videoIds[i]).map((r) => [r.metric, r.value]));
      const expected = Object.fromEntries(
        Object.entries({ ...v, verdict: v.verdict === null ? null : v.verdict ? 1 : 0 }).filter(([, x]) => x !== null),
      );
      expect(mine).toEqual(expected);
    }
    expect(rows.every((r) => r.itemId === "")).toBe(true);
    const columns = (
      await sql(`SELECT column_name FROM information_schema.columns WHERE table_name = 'run_video'`)
    ).map((r) => r.column_name);
    expect(columns).not.toContain("scoreS");
    expect(columns).not.toContain("verdict");
    expect(columns).toContain("summary");
  });

  it("lists, filters and sorts the same values as the old columns did", async () => {
    const list = await browseVideos(
      db,
      await projectAccess(db, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ sort: "S", dir: "desc" }),
    );
    expect(list.run?.id).toBe(runId);
    expect(list.videos.map((v) => v.id)).toEqual([videoIds[2], videoIds[0], videoIds[1]]);
    for (const [i, v] of OLD.entries()) expect(list.videos.find((x) => x.id === videoIds[i])!.scores).toEqual(v);
    // The reviewer's verdict disagreed with the judge's; the flag survives.
    expect(list.videos.find((x) => x.id === videoIds[0])!.review).toMatchObject({ reviewers: 1, disagreement: true });
    const filtered = await browseVideos(
      db,
      await projectAccess(db, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ verdict: "yes", sMin: "2" }),
    );
    expect(filtered.videos.map((v) => v.id)).toEqual([videoIds[0]]);
    const overall = await browseVideos(
      db,
      await projectAccess(db, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ overallMin: "60" }),
    );
    expect(overall.videos.map((v) => v.id)).toEqual([videoIds[1]]);
  });

  it("keeps the queue's judge values and the agreement report's judge values", async () => {
    const queue = await db.reviewQueue.findFirstOrThrow({ where: { projectId } });
    const { itemId } = await nextItem(db, await queueAccess(db, reviewer, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(db, await queueAccess(db, reviewer, queue.id, "scores.review"), queue.id, itemId!);
    expect(item.targets.filter((t) => t.kind !== "score").map((t) => [t.key, t.judge])).toEqual([
      ["verdict", 1],
      ["overall", 56],
    ]);
    const report = await projectAgreement(
      db,
      await projectAccess(db, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId }),
    );
    // Verdicts and overalls the judge gave (the incomplete video has neither), both reviewed targets.
    expect(report.summary).toMatchObject({ videos: 3, judgeItems: 2 + 2, reviewedItems: 2 });
    // The reviewer said "no" where the judge's old column said yes: one judge-yes/human-no verdict.
    expect(report.confusion.verdict!.cells.find((c) => c.human === 0 && c.judge === 1)?.count).toBe(1);
  });
});
