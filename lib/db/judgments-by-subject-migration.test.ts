import { projectAccess } from "@/lib/authz/permissions";
import { queueAccess } from "@/testkit/testing/queue-access";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Actor } from "../auth/actor";
import { createUser } from "../auth/users";
import { loadAgreementInput } from "../agreement/load";
import { agreementQuerySchema, resolveReportFilter } from "../agreement/report-filter";
import type { PrismaClient } from "../generated/prisma/client";
import { createQueue } from "../queues/create-queue";
import { getQueueItem } from "../queues/get-queue-item";
import { nextItem } from "../queues/next-item";
import { judgmentKey, scoreTarget } from "../reviews/judgment-key";
import { ReviewConflictError, reviewScore, videoReviews } from "../reviews/reviews";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { browseVideos } from "../videos/browse-videos";
import { videoListQuerySchema } from "../videos/video-filter";
import { databaseUrl, ensureDatabase } from "./embedded-postgres";
import { dropDatabase } from "../../testkit/testing/test-database";
import { applyMigrations, readMigrations } from "./migrate";
import { createPrismaClient } from "./prisma";
import { MIGRATIONS_DIR } from "./resolve-database";
import { builtInCatalogue } from "../task-modules/task-catalogue";

// A database as the release before judgments were keyed by subject left it: judgments keyed by run
// (`score:<scoreId>`, `verdict:<run>:<video>`), one reviewer having judged the same target in two runs,
// a judgment whose score is gone, history rows. Migrating must keep every value, version and history
// row, merge the two judgments of the same target into the latest one, and answer as before.

const MIGRATION = "20261123010000_judgments_by_subject";
const baseUrl = inject("serverBaseUrl");
const name = `judgments_migration_${Date.now().toString(36)}`;
let url: string;
let db: PrismaClient;
let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let videoIds: string[];
let run1: string;
let run2: string;
let run1S1: string;
let run2S1: string;
let frameSetId: string;
const T0 = Date.parse("2026-01-01T00:00:00Z");

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function oldJudgment(row: {
  id: string;
  targetType: string;
  targetKey: string;
  scoreId: string | null;
  runId: string;
  videoId: string;
  reviewer: Actor;
  value: number;
  judgeValue: number | null;
  disagrees: boolean;
  version: number;
  note?: string;
  updatedAt: number;
}) {
  await sql(
    `INSERT INTO "human_judgment" ("id", "projectId", "targetType", "targetKey", "scoreId", "runId", "videoId", "reviewerId", "value", "judgeValue", "disagrees", "note", "version", "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
    [
      row.id,
      projectId,
      row.targetType,
      row.targetKey,
      row.scoreId,
      row.runId,
      row.videoId,
      row.reviewer.userId,
      row.value,
      row.judgeValue,
      row.disagrees,
      row.note ?? null,
      row.version,
      new Date(row.updatedAt),
    ],
  );
  for (let v = 1; v <= row.version; v++) {
    await sql(
      `INSERT INTO "human_judgment_history" ("id", "judgmentId", "reviewerId", "version", "before", "after", "at") VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        `${row.id}-h${v}`,
        row.id,
        row.reviewer.userId,
        v,
        v === 1 ? null : JSON.stringify({ value: -v, note: null, reason: null }),
        JSON.stringify({ value: v === row.version ? row.value : -v - 1, note: null, reason: null }),
        new Date(row.updatedAt - (row.version - v) * 1000),
      ],
    );
  }
}

beforeAll(async () => {
  const all = readMigrations(MIGRATIONS_DIR).map((m) => m.name);
  const previous = all[all.indexOf(MIGRATION) - 1]!;
  await ensureDatabase(baseUrl, name);
  url = databaseUrl(baseUrl, name);
  expect((await applyMigrations(url, MIGRATIONS_DIR, () => {}, { upTo: previous })).applied.at(-1)).toBe(previous);
  db = createPrismaClient(url);

  // Tables this migration does not touch are written through the client.
  const users = await Promise.all(
    ["owner", "ann", "bob"].map((who) =>
      createUser(db, {
        email: `${who}-${randomUUID()}@example.test`,
        password: "correct horse battery",
        isAdmin: false,
      }),
    ),
  );
  [owner, ann, bob] = users.map((u) => ({ userId: u.id, email: u.email, name: u.name, isAdmin: false })) as [
    Actor,
    Actor,
    Actor,
  ];
  ({ projectId, videoIds } = await projectWithFramedVideos(db, owner, {
    videoCount: 2,
    keyFrames: 2,
    name: "before judgments by subject",
  }));
  for (const who of [ann, bob])
    await db.projectMember.create({ data: { projectId, userId: who.userId, role: "reviewer" } });
  frameSetId = (await db.frameSet.findFirstOrThrow({ where: { videoId: videoIds[0]! }, select: { id: true } })).id;
  const first = await seedFinishedRun(db, owner, projectId, videoIds, {
    scores: (v) => [
      { stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [8, 2][v]! },
      { stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: 3 },
    ],
    outcome: (v) => ({ verdict: [true, false][v]!, overall: [40, 80][v]! }),
  });
  run1 = first.runId;
  run1S1 = first.scoreIds.get("0:static_hallucination:0:s1")!;
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = await seedFinishedRun(db, owner, projectId, [videoIds[0]!], {
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 1 }],
    outcome: () => ({ verdict: false, overall: 90 }),
  });
  run2 = second.runId;
  run2S1 = second.scoreIds.get("0:static_hallucination:0:s1")!;

  // What the old release wrote. Ann judged v0's s1 at key frame 0 in run 1 (two versions), then the
  // same target again in run 2 (later): one judgment after migrating, the run-2 value current.
  await oldJudgment({
    id: "hj-ann-r1",
    targetType: "score",
    targetKey: `score:${run1S1}`,
    scoreId: run1S1,
    runId: run1,
    videoId: videoIds[0]!,
    reviewer: ann,
    value: 9,
    judgeValue: 8,
    disagrees: false,
    version: 2,
    note: "run one",
    updatedAt: T0,
  });
  await oldJudgment({
    id: "hj-ann-r2",
    targetType: "score",
    targetKey: `score:${run2S1}`,
    scoreId: run2S1,
    runId: run2,
    videoId: videoIds[0]!,
    reviewer: ann,
    value: 4,
    judgeValue: 1,
    disagrees: true,
    version: 1,
    note: "run two",
    updatedAt: T0 + 60_000,
  });
  await oldJudgment({
    id: "hj-bob-verdict",
    targetType: "verdict",
    targetKey: `verdict:${run1}:${videoIds[0]}`,
    scoreId: null,
    runId: run1,
    videoId: videoIds[0]!,
    reviewer: bob,
    value: 0,
    judgeValue: 1,
    disagrees: true,
    version: 1,
    updatedAt: T0,
  });
  await oldJudgment({
    id: "hj-ann-overall",
    targetType: "overall",
    targetKey: `overall:${run1}:${videoIds[1]}`,
    scoreId: null,
    runId: run1,
    videoId: videoIds[1]!,
    reviewer: ann,
    value: 75,
    judgeValue: 80,
    disagrees: false,
    version: 1,
    updatedAt: T0,
  });
  // A judgment whose score was deleted with its run (scores cascade; judgments never did).
  await oldJudgment({
    id: "hj-orphan",
    targetType: "score",
    targetKey: "score:gone",
    scoreId: "gone",
    runId: "gone-run",
    videoId: videoIds[1]!,
    reviewer: bob,
    value: 5,
    judgeValue: 5,
    disagrees: false,
    version: 1,
    updatedAt: T0,
  });

  await applyMigrations(url, MIGRATIONS_DIR);
});

afterAll(async () => {
  await db?.$disconnect();
  await dropDatabase(baseUrl, name);
});

describe(`migration ${MIGRATION}`, () => {
  it("keys every judgment by what was judged, merging one reviewer's two judgments of the same target into the latest", async () => {
    const rows = await db.humanJudgment.findMany({
      orderBy: { id: "asc" },
      include: { history: { orderBy: { version: "asc" } } },
    });
    expect(rows.map((r) => r.id)).toEqual(["hj-ann-overall", "hj-ann-r2", "hj-bob-verdict", "hj-orphan"]);
    const annS1 = rows.find((r) => r.id === "hj-ann-r2")!;
    expect(annS1).toMatchObject({
      task: "hallucination",
      targetType: "score",
      target: "s1",
      stepId: "static_hallucination",
      scopeIndex: 0,
      frameSetId,
      itemId: "",
      value: 4,
      note: "run two",
      gap: 2,
      runId: run2,
      scoreId: run2S1,
    });
    expect(annS1.targetKey).toBe(
      judgmentKey(
        scoreTarget(
          "hallucination",
          { videoId: videoIds[0]!, itemId: "", stepId: "static_hallucination", scopeIndex: 0, category: "s1" },
          frameSetId,
          builtInCatalogue().taskOf("hallucination"),
        ),
      ),
    );
    // Both histories, in the order they happened, numbered on; the version continues from them.
    expect(annS1.history.map((h) => [h.id, h.version])).toEqual([
      ["hj-ann-r1-h1", 1],
      ["hj-ann-r1-h2", 2],
      ["hj-ann-r2-h1", 3],
    ]);
    expect(annS1.version).toBe(3);
    expect(rows.find((r) => r.id === "hj-bob-verdict")).toMatchObject({
      target: "verdict",
      stepId: "",
      frameSetId: "",
      gap: 1,
      targetKey: `hallucination|v:${videoIds[0]}|verdict`,
    });
    expect(rows.find((r) => r.id === "hj-ann-overall")).toMatchObject({
      target: "overall",
      gap: 10,
      targetKey: `hallucination|v:${videoIds[1]}|overall`,
    });
    // Nothing to compare the orphan with: it keeps its old key and value.
    expect(rows.find((r) => r.id === "hj-orphan")).toMatchObject({ targetKey: "score:gone", value: 5 });
    expect((await sql(`SELECT count(*)::int AS n FROM "human_judgment_history"`))[0].n).toBe(2 + 1 + 1 + 1 + 1);
  });

  it("shows the same judgments on the video page, against whichever run is on screen", async () => {
    const inRun1 = await videoReviews(db, await projectAccess(db, owner, projectId, "project.view"), videoIds[0]!, {
      runId: run1,
    });
    expect(
      inRun1.judgments
        .map((j) => [j.reviewer.id, j.targetType, j.value, j.runId, j.scoreId, j.judge?.value ?? null])
        .sort(),
    ).toEqual(
      [
        [ann.userId, "score", 4, run1, run1S1, 8],
        [bob.userId, "verdict", 0, run1, null, null],
      ].sort(),
    );
    const inRun2 = await videoReviews(db, await projectAccess(db, owner, projectId, "project.view"), videoIds[0]!, {
      runId: run2,
    });
    expect(inRun2.judgments.find((j) => j.reviewer.id === ann.userId)).toMatchObject({
      scoreId: run2S1,
      runId: run2,
      judge: { value: 1 },
    });
  });

  it("keeps the list's review flags, the queue's own values and the agreement items", async () => {
    const list = await browseVideos(
      db,
      await projectAccess(db, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ runId: run1 }),
    );
    expect(list.videos.find((v) => v.id === videoIds[0])!.review).toEqual({
      reviewers: 2,
      byMe: false,
      disagreement: true,
    });
    expect(list.videos.find((v) => v.id === videoIds[1])!.review).toEqual({
      reviewers: 2,
      byMe: false,
      disagreement: false,
    });

    const queue = await createQueue(db, await projectAccess(db, owner, projectId, "queues.manage"), {
      name: "scores",
      runId: run1,
      scope: "scores",
      categories: ["s1"],
      filter: {},
      reviewersPerItem: 1,
      blind: false,
    });
    const { itemId } = await nextItem(db, await queueAccess(db, ann, queue.id, "scores.review"), queue.id);
    const item = await getQueueItem(db, await queueAccess(db, ann, queue.id, "scores.review"), queue.id, itemId!);
    const s1 = item.targets.find((t) => t.category === "s1" && t.scopeIndex === 0)!;
    expect(s1.mine).toMatchObject({ value: 4, version: 3 });

    const input = await loadAgreementInput(
      db,
      await resolveReportFilter(db, projectId, agreementQuerySchema(builtInCatalogue()).parse({}), owner.userId),
    );
    const annItems = input.items.filter(
      (i) => i.ratings.some((r) => r.reviewerId === ann.userId) && i.targetType === "score",
    );
    expect(annItems.map((i) => [i.runId, i.judge, i.ratings[0]!.value])).toEqual([
      [run1, 8, 4],
      [run2, 1, 4],
    ]);
  });

  it("keeps versions: a stale save is a conflict, the current version saves", async () => {
    await expect(
      reviewScore(db, await projectAccess(db, ann, projectId, "scores.review"), run1S1, {
        value: 6,
        expectedVersion: 2,
      }),
    ).rejects.toBeInstanceOf(ReviewConflictError);
    const saved = await reviewScore(db, await projectAccess(db, ann, projectId, "scores.review"), run1S1, {
      value: 6,
      expectedVersion: 3,
    });
    expect(saved).toMatchObject({ id: "hj-ann-r2", version: 4, value: 6, runId: run1, scoreId: run1S1 });
  });
});
