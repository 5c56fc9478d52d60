// A large synthetic project for benchmarks: users, a project, an endpoint, one finished (simulated)
// hallucination run over `videos` videos, `scores` judge scores and some human judgments. Every bulk
// table is filled with set-based SQL (INSERT … SELECT over generate_series), so 50,000 videos and
// 1,000,000 scores take about half a minute. Values are deterministic (md5 of the row's position),
// so two seeds of the same size hold the same numbers.
//
// Shape:
// - videos spread over VBench-2.0 dimensions and 4 generator models; 3 samples per prompt and model,
//   so 12 videos per prompt; prompt texts are composed from per-dimension subjects, actions and scenes.
// - one frame set per video: k = 2–4 key frames, each with a cluster of 3 frames (frame rows only).
// - the run judges videos in order while the score budget lasts: per video 10 static scores (s1–s10)
//   per key frame, 9 dynamic scores (d1–d9) per cluster and 1 inconsistency score, each with its
//   step_result row. The last judged video may be cut short (its summary says complete: false).
//   run_video rows carry the summary (mean-max aggregation, verdict on max_category ≥ 5) and its
//   copies in the score columns.
// - human judgments in the run: ~10% of judged videos get a verdict judgment from 2 reviewers, ~3% an
//   overall judgment, ~5% score judgments (I and s3 of the first key frame); judgeValue and disagrees
//   follow lib/reviews/disagreement.ts; each has its version-1 history row.
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import {
  hallucinationSummarySettingsSchema,
  type HallucinationSummarySettings,
} from "../../lib/tasks/hallucination/scores";
import { DYNAMIC_CATEGORY_IDS, STATIC_CATEGORY_IDS } from "../../lib/tasks/hallucination/schemas";
import { judgmentDeclaration } from "../../lib/reviews/judgment-target";
import { BUILT_IN_DECLARATIONS } from "../../lib/tasks/registry";
import { disagreementGapOf } from "../../lib/task-modules/task-declaration";
import { seedPrompts } from "./seed-prompts";

export const SEED_MODELS = ["Sora", "Kling 1.6", "HunyuanVideo", "CogVideoX-5B"] as const;

/** What each step of the seed needs: the transaction, the seeded rows' ids and sizes, and the timed step logger. */
interface Seed {
  tx: Transaction;
  projectId: string;
  runId: string;
  ownerId: string;
  reviewerIds: string[];
  videos: number;
  scoreBudget: number;
  tag: string;
  now: Date;
  settings: HallucinationSummarySettings;
  step: <T>(label: string, work: () => Promise<T>) => Promise<T>;
}
type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export async function seedLargeProject(
  prisma: PrismaClient,
  options: { videos: number; scores: number; reviewers?: number; log?: (line: string) => void },
): Promise<{ projectId: string; runId: string; ownerId: string; reviewerIds: string[] }> {
  const log = options.log ?? (() => {});
  const videos = Math.max(0, Math.floor(options.videos));
  const scoreBudget = Math.max(0, Math.floor(options.scores));
  const reviewerCount = Math.max(0, Math.floor(options.reviewers ?? 3));
  const tag = randomBytes(4).toString("hex");
  const now = new Date();
  const started = performance.now();
  const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const result = await work();
    log(
      `  ${label}: ${typeof result === "number" ? `${result.toLocaleString("en")} rows, ` : ""}${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    return result;
  };
  const { ownerId, reviewerIds, projectId, runId, settings } = await createProjectAndRun(prisma, {
    videos,
    reviewerCount,
    tag,
    now,
  });
  log(
    `seeding project ${projectId}: ${videos.toLocaleString("en")} videos, up to ${scoreBudget.toLocaleString("en")} scores, ${reviewerCount} reviewers`,
  );

  // md5-based uniform numbers in [0, 1): deterministic per (video, slot) and well mixed.
  // (Inlined below as ('x' || substr(md5(<key>), 1, 8))::bit(32)::bigint / 4294967296.0.)
  await prisma.$transaction(
    async (tx) => {
      const seed: Seed = { tx, projectId, runId, ownerId, reviewerIds, videos, scoreBudget, tag, now, settings, step };
      await insertVideosAndFrames(seed);
      await insertScores(seed);
      await insertRunSummaries(seed);
      if (reviewerCount > 0) await insertJudgments(seed);
      return undefined;
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );

  // VACUUM too (outside any transaction): the visibility map autovacuum would have set after such
  // inserts, so index-only scans are measured as they run in a settled database.
  await step("vacuum analyze", async () => {
    await prisma.$executeRaw`VACUUM (ANALYZE) "video", "frame_set", "frame", "run_video", "step_result", "score", "human_judgment", "human_judgment_history"`;
    return undefined;
  });
  log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { projectId, runId, ownerId, reviewerIds };
}

/** The users (an owner and the reviewers), the project and its members, the endpoint and the finished run. */
async function createProjectAndRun(
  prisma: PrismaClient,
  { videos, reviewerCount, tag, now }: { videos: number; reviewerCount: number; tag: string; now: Date },
) {
  const ownerId = `seed-${tag}-owner`;
  const reviewerIds = Array.from({ length: reviewerCount }, (_, i) => `seed-${tag}-reviewer-${i + 1}`);
  await prisma.user.createMany({
    data: [ownerId, ...reviewerIds].map((id, i) => ({
      id,
      name: i === 0 ? "Seed owner" : `Seed reviewer ${i}`,
      email: `${id}@seed.framejury.local`,
    })),
  });
  const project = await prisma.project.create({
    data: { name: `Large project (${videos.toLocaleString("en")} videos, seed ${tag})` },
  });
  const projectId = project.id;
  await prisma.projectMember.createMany({
    data: [
      { projectId, userId: ownerId, role: "owner" as const },
      ...reviewerIds.map((userId) => ({ projectId, userId, role: "reviewer" as const })),
    ],
  });
  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId,
      name: "Seeded (simulated)",
      baseUrl: "http://127.0.0.1:4010/v1",
      model: "stub-vision",
      createdById: ownerId,
    },
  });
  const settings = hallucinationSummarySettingsSchema.parse({});
  const run = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline: "hallucination",
      endpointId: endpoint.id,
      status: "done",
      settings,
      endpointSnapshot: { name: endpoint.name, baseUrl: endpoint.baseUrl, model: endpoint.model },
      simulated: true,
      createdById: ownerId,
      createdAt: new Date(now.getTime() - 3_600_000),
      startedAt: new Date(now.getTime() - 3_600_000),
      finishedAt: now,
    },
  });
  const runId = run.id;
  return { ownerId, reviewerIds, projectId, runId, settings };
}

/** The prompts and videos as temporary tables, then the videos, their frame sets and frames. */
async function insertVideosAndFrames({ tx, projectId, ownerId, videos, tag, now, step }: Seed) {
  const prompts = seedPrompts(Math.max(1, Math.ceil(videos / 12)));
  await tx.$executeRaw`CREATE TEMP TABLE seed_prompt (pi int PRIMARY KEY, prompt text NOT NULL, dimension text NOT NULL) ON COMMIT DROP`;
  await tx.$executeRaw`CREATE TEMP TABLE seed_video (vi int PRIMARY KEY, id text NOT NULL, k int NOT NULL, pi int NOT NULL, model text NOT NULL, sample int NOT NULL, bad float8 NOT NULL, start bigint NOT NULL) ON COMMIT DROP`;
  await tx.$executeRaw`INSERT INTO seed_prompt SELECT (o - 1)::int, p, d FROM unnest(${prompts.map((p) => p.prompt)}::text[], ${prompts.map((p) => p.dimension)}::text[]) WITH ORDINALITY AS x(p, d, o)`;
  // k key frames (2–4) and a per-video "badness" that scales its scores; start = its first score's
  // position in the run's score budget.
  await tx.$executeRaw`INSERT INTO seed_video
        SELECT vi, ${`sv${tag}-`} || lpad(vi::text, 7, '0'), k, vi / 12, (${[...SEED_MODELS]}::text[])[1 + (vi / 3) % 4], vi % 3, bad,
          sum(19 * k + 1) OVER (ORDER BY vi) - (19 * k + 1)
        FROM (
          SELECT vi, 2 + (('x' || substr(md5('k' || vi), 1, 8))::bit(32)::bigint % 3)::int AS k,
            power(('x' || substr(md5('b' || vi), 1, 8))::bit(32)::bigint / 4294967296.0, 1.5) AS bad
          FROM generate_series(0, ${videos - 1}::int) AS vi
        ) g`;
  await tx.$executeRaw`CREATE UNIQUE INDEX ON seed_video (id)`;
  await tx.$executeRaw`ANALYZE seed_video`;
  // Bulk inserts in index order (ids share their video's prefix) keep the B-trees' writes sequential.
  await tx.$executeRaw`SET LOCAL work_mem = '256MB'`;

  await step(
    "videos",
    () => tx.$executeRaw`INSERT INTO "video" ("id", "projectId", "sha256", "sizeBytes", "fileName", "relativePath", "storageKey", "contentType", "status",
          "prompt", "promptTruncated", "dimensions", "model", "sampleIndex", "matchedPrompt", "durationS", "fps", "width", "height", "codec", "container", "frameCount",
          "createdById", "createdAt", "updatedAt")
        SELECT sv.id, ${projectId}, md5(sv.id) || md5(sv.id || ':2'), 2000000 + (sv.vi * 7919) % 6000000,
          left(p.prompt, 180) || '-' || sv.sample || '.mp4',
          sv.model || '/' || p.dimension || '/' || left(p.prompt, 180) || '-' || sv.sample || '.mp4',
          'projects/' || ${projectId} || '/videos/' || md5(sv.id) || md5(sv.id || ':2') || '.mp4', 'video/mp4', 'ready'::"VideoStatus",
          p.prompt, left(p.prompt, 180), ARRAY[p.dimension], sv.model, sv.sample, true, 4 + (sv.vi % 5), 24, 1280, 720, 'avc1.640028', 'mp4', (4 + (sv.vi % 5)) * 24,
          ${ownerId}, ${now}::timestamp - make_interval(secs => ${videos} - sv.vi), ${now}::timestamp
        FROM seed_video sv JOIN seed_prompt p ON p.pi = sv.pi ORDER BY sv.id`,
  );

  await step(
    "frame sets",
    () => tx.$executeRaw`INSERT INTO "frame_set" ("id", "videoId", "identity", "parameters", "mode", "decoder", "frameCount", "keyFrameCount", "createdById", "createdAt")
        SELECT sv.id || '-fs', sv.id, md5(sv.id || ':fs') || md5(sv.id || ':fs2'), '{"mode":"density-peaks","fps":4,"clusterRadius":1}'::jsonb, 'density-peaks', 'webcodecs',
          3 * sv.k, sv.k, ${ownerId}, ${now}::timestamp
        FROM seed_video sv ORDER BY sv.id`,
  );
  // Frame 3c+1 is key frame c; 3c and 3c+2 are its cluster neighbours.
  await step(
    "frames",
    () => tx.$executeRaw`INSERT INTO "frame" ("id", "frameSetId", "index", "timestampS", "isKeyFrame", "cluster", "storageKey", "sha256", "sizeBytes", "width", "height")
        SELECT sv.id || '-f' || i, sv.id || '-fs', i, i * 0.25, i % 3 = 1, (i / 3) * 3 + 1, 'frames/' || sv.id || '/' || i || '.jpg',
          md5(sv.id || ':f' || i) || md5(sv.id || ':g' || i), 40000 + (i * 977) % 20000, 768, 432
        FROM seed_video sv CROSS JOIN LATERAL generate_series(0, 3 * sv.k - 1) AS i ORDER BY sv.id, i`,
  );
}

/** The run's score slots while the budget lasts, then its step results and scores. */
async function insertScores({ tx, runId, scoreBudget, now, step }: Seed) {
  // Score slots of a video in pipeline order: static (key frame, s1–s10), dynamic (cluster, d1–d9), I.
  // A slot is seeded when start + its ordinal is within the budget.
  await tx.$executeRaw`CREATE TEMP TABLE seed_slot (vi int NOT NULL, video_id text NOT NULL, step_id text NOT NULL, step_code text NOT NULL, scope int NOT NULL, category text NOT NULL, value float8 NOT NULL) ON COMMIT DROP`;
  await step(
    "score slots",
    () => tx.$executeRaw`INSERT INTO seed_slot
        SELECT sv.vi, sv.id, s.step_id, CASE s.step_id WHEN 'static_hallucination' THEN 's' WHEN 'dynamic_hallucination' THEN 'd' ELSE 'i' END, s.scope, s.category,
          least(10, floor((('x' || substr(md5(sv.vi || ':' || s.step_id || ':' || s.scope || ':' || s.category), 1, 8))::bit(32)::bigint / 4294967296.0) * (3 + 9 * sv.bad)))
        FROM seed_video sv CROSS JOIN LATERAL (
          SELECT 'static_hallucination' AS step_id, f AS scope, c.category, f * 10 + c.o - 1 AS ord
            FROM generate_series(0, sv.k - 1) AS f, unnest(${[...STATIC_CATEGORY_IDS]}::text[]) WITH ORDINALITY AS c(category, o)
          UNION ALL
          SELECT 'dynamic_hallucination', f, c.category, 10 * sv.k + f * 9 + c.o - 1
            FROM generate_series(0, sv.k - 1) AS f, unnest(${[...DYNAMIC_CATEGORY_IDS]}::text[]) WITH ORDINALITY AS c(category, o)
          UNION ALL
          SELECT 'inconsistency', 0, 'inconsistency', 19 * sv.k
        ) s
        WHERE sv.start < ${scoreBudget} AND sv.start + s.ord < ${scoreBudget}`,
  );
  await tx.$executeRaw`ANALYZE seed_slot`;

  const templates = {
    static_hallucination: "hallucination/static-hallucination",
    dynamic_hallucination: "hallucination/dynamic-hallucination",
    inconsistency: "hallucination/inconsistency",
  };
  await step(
    "step results",
    () => tx.$executeRaw`INSERT INTO "step_result" ("id", "runId", "videoId", "stepId", "scopeIndex", "status", "templateId", "templateHash", "output", "attempts", "startedAt", "finishedAt")
        SELECT s.video_id || '-' || s.step_code || s.scope, ${runId}, s.video_id, s.step_id, s.scope, 'done'::"StepStatus",
          (${JSON.stringify(templates)}::jsonb) ->> s.step_id, md5(s.step_id), jsonb_build_object('scores', jsonb_object_agg(s.category, s.value)), 1, ${now}::timestamp, ${now}::timestamp
        FROM seed_slot s GROUP BY s.video_id, s.step_id, s.step_code, s.scope ORDER BY s.video_id, s.step_id, s.scope`,
  );
  await step(
    "scores",
    () => tx.$executeRaw`INSERT INTO "score" ("id", "runId", "videoId", "stepResultId", "stepId", "scopeIndex", "category", "value")
        SELECT s.video_id || '-' || s.step_code || s.scope || '-' || s.category, ${runId}, s.video_id, s.video_id || '-' || s.step_code || s.scope, s.step_id, s.scope, s.category, s.value
        FROM seed_slot s ORDER BY s.video_id, s.step_id, s.scope, s.category`,
  );
}

/** Each judged video's summary as the pipeline computes it, and the run's headline metrics. */
async function insertRunSummaries({ tx, runId, now, settings, step }: Seed) {
  const threshold = settings.verdict.threshold;
  // The summary as summarizeHallucinationScores computes it (mean-max, verdict: some category's max or I ≥ threshold).
  const categoryOrder = ["inconsistency", ...STATIC_CATEGORY_IDS, ...DYNAMIC_CATEGORY_IDS];
  await step(
    "run videos",
    () => tx.$executeRaw`WITH per_category AS (
          SELECT s.video_id, s.step_id, s.category, max(s.value) AS m FROM seed_slot s GROUP BY s.video_id, s.step_id, s.category
        ), per_video AS (
          SELECT s.video_id, count(*) FILTER (WHERE s.step_id = 'static_hallucination') AS n_static,
            count(*) FILTER (WHERE s.step_id = 'dynamic_hallucination') AS n_dynamic, bool_or(s.step_id = 'inconsistency') AS has_i
          FROM seed_slot s GROUP BY s.video_id
        ), b AS (
          SELECT c.video_id, avg(c.m) FILTER (WHERE c.step_id = 'static_hallucination') AS s, avg(c.m) FILTER (WHERE c.step_id = 'dynamic_hallucination') AS d,
            max(c.m) FILTER (WHERE c.step_id = 'inconsistency') AS i, max(c.m) AS worst,
            (array_agg(c.category ORDER BY c.m DESC, array_position(${categoryOrder}::text[], c.category)))[1] AS worst_category,
            coalesce(jsonb_object_agg(c.category, c.m) FILTER (WHERE c.step_id = 'static_hallucination'), '{}'::jsonb) AS static_categories,
            coalesce(jsonb_object_agg(c.category, c.m) FILTER (WHERE c.step_id = 'dynamic_hallucination'), '{}'::jsonb) AS dynamic_categories
          FROM per_category c GROUP BY c.video_id
        ), a AS (
          SELECT b.*, CASE WHEN b.s IS NULL OR b.d IS NULL OR b.i IS NULL THEN NULL ELSE 100 - 2 * b.i - 4 * b.s - 4 * b.d END AS overall,
            CASE WHEN b.worst >= ${threshold} THEN true WHEN b.s IS NULL OR b.d IS NULL OR b.i IS NULL THEN NULL ELSE false END AS verdict,
            (sv.k - pv.n_static / 10) + (sv.k - pv.n_dynamic / 9) + CASE WHEN pv.has_i THEN 0 ELSE 1 END AS missing
          FROM b JOIN per_video pv ON pv.video_id = b.video_id JOIN seed_video sv ON sv.id = b.video_id
        )
        INSERT INTO "run_video" ("runId", "videoId", "frameSetId", "status", "summary", "updatedAt")
        SELECT ${runId}, a.video_id, a.video_id || '-fs', 'done'::"RunStatus",
          jsonb_build_object('S', a.s, 'D', a.d, 'I', a.i, 'overall', a.overall, 'hallucination', a.verdict, 'complete', a.missing = 0 AND a.overall IS NOT NULL,
            'missingInputs', a.missing, 'staticCategories', a.static_categories, 'dynamicCategories', a.dynamic_categories,
            'worst', jsonb_build_object('category', a.worst_category, 'value', a.worst), 'settings', ${JSON.stringify(settings)}::jsonb),
          ${now}::timestamp
        FROM a ORDER BY a.video_id`,
  );
  // The headline metrics as the engine stores them (hallucinationPipeline.metricValues): one row per known value.
  await step(
    "run metrics",
    () => tx.$executeRaw`INSERT INTO "run_metric" ("runId", "videoId", "itemId", "metric", "value")
        SELECT rv."runId", rv."videoId", '', m.metric, m.value
        FROM "run_video" rv CROSS JOIN LATERAL (VALUES
          ('S', (rv."summary"->>'S')::float8), ('D', (rv."summary"->>'D')::float8), ('I', (rv."summary"->>'I')::float8),
          ('overall', (rv."summary"->>'overall')::float8), ('verdict', ((rv."summary"->>'hallucination')::boolean)::int::float8)
        ) AS m(metric, value)
        WHERE rv."runId" = ${runId} AND m.value IS NOT NULL
        ORDER BY rv."videoId", m.metric`,
  );
  await tx.$executeRaw`ANALYZE "score"`;
  await tx.$executeRaw`ANALYZE "run_video"`;
  await tx.$executeRaw`ANALYZE "run_metric"`;
}

/** The reviewers' judgments in the run (verdicts, overall, scores) and their version-1 history rows. */
async function insertJudgments({ tx, projectId, runId, reviewerIds, now, step }: Seed) {
  const reviewers = reviewerIds;
  const reviewerCount = reviewerIds.length;
  const second = reviewerCount > 1;
  // Verdicts: ~10% of judged videos, by two reviewers (one when there is only one); ~20% of answers flip the judge's.
  await step(
    "verdict judgments",
    () => tx.$executeRaw`INSERT INTO "human_judgment" ("id", "projectId", "task", "targetType", "target", "targetKey", "gap", "runId", "videoId", "reviewerId", "value", "judgeValue", "disagrees", "createdAt", "updatedAt")
          SELECT rv."videoId" || '-hv' || r.n, ${projectId}, 'hallucination', 'verdict', 'verdict', ${`hallucination|v:`} || rv."videoId" || '|verdict', 1, ${runId}, rv."videoId",
            (${reviewers}::text[])[1 + (sv.vi + r.n) % ${reviewerCount}],
            CASE WHEN (('x' || substr(md5(sv.vi || ':flip' || r.n), 1, 8))::bit(32)::bigint % 5) = 0 THEN 1 - rv."value" ELSE rv."value" END,
            rv."value",
            (('x' || substr(md5(sv.vi || ':flip' || r.n), 1, 8))::bit(32)::bigint % 5) = 0,
            ${now}::timestamp, ${now}::timestamp
          FROM "run_metric" rv JOIN seed_video sv ON sv.id = rv."videoId" CROSS JOIN generate_series(0, ${second ? 1 : 0}::int) AS r(n)
          WHERE rv."runId" = ${runId} AND rv."itemId" = '' AND rv."metric" = 'verdict' AND (('x' || substr(md5(sv.vi || ':hv'), 1, 8))::bit(32)::bigint % 10) = 0`,
  );
  // Overall: ~3% of judged videos, one reviewer, within ±15 of the judge.
  await step(
    "overall judgments",
    () => tx.$executeRaw`INSERT INTO "human_judgment" ("id", "projectId", "task", "targetType", "target", "targetKey", "gap", "runId", "videoId", "reviewerId", "value", "judgeValue", "disagrees", "createdAt", "updatedAt")
          SELECT x.video_id || '-ho', ${projectId}, 'hallucination', 'overall', 'overall', ${`hallucination|v:`} || x.video_id || '|overall', ${disagreementGapOf(judgmentDeclaration("overall", null, [BUILT_IN_DECLARATIONS.taskOf("hallucination")]))}, ${runId}, x.video_id, x.reviewer, x.value, x.judge,
            abs(x.value - x.judge) >= ${disagreementGapOf(judgmentDeclaration("overall", null, [BUILT_IN_DECLARATIONS.taskOf("hallucination")]))} - 1e-9, ${now}::timestamp, ${now}::timestamp
          FROM (
            SELECT rv."videoId" AS video_id, (${reviewers}::text[])[1 + sv.vi % ${reviewerCount}] AS reviewer, rv."value" AS judge,
              greatest(0, least(100, rv."value" + (ARRAY[-15, -5, 0, 5, 15])[1 + (('x' || substr(md5(sv.vi || ':od'), 1, 8))::bit(32)::bigint % 5)::int])) AS value
            FROM "run_metric" rv JOIN seed_video sv ON sv.id = rv."videoId"
            WHERE rv."runId" = ${runId} AND rv."itemId" = '' AND rv."metric" = 'overall' AND (('x' || substr(md5(sv.vi || ':ho'), 1, 8))::bit(32)::bigint % 33) = 0
          ) x`,
  );
  // Scores: ~5% of judged videos, one reviewer on I and on s3 of the first key frame, within ±3 of the judge.
  await step(
    "score judgments",
    () => tx.$executeRaw`INSERT INTO "human_judgment" ("id", "projectId", "task", "targetType", "target", "stepId", "scopeIndex", "frameSetId", "targetKey", "gap", "scoreId", "runId", "videoId", "reviewerId", "value", "judgeValue", "disagrees", "createdAt", "updatedAt")
          SELECT x.score_id || '-hs', ${projectId}, 'hallucination', 'score', x.category, x.step_id, x.scope_index, x.frame_set_id,
            ${`hallucination|v:`} || x.video_id || '|' || x.category || '@' || x.step_id || ':' || x.scope_index || CASE WHEN x.frame_set_id <> '' THEN '#' || x.frame_set_id ELSE '' END,
            ${disagreementGapOf(judgmentDeclaration("score", null, [BUILT_IN_DECLARATIONS.taskOf("hallucination")]))}, x.score_id, ${runId}, x.video_id, x.reviewer, x.value, x.judge,
            abs(x.value - x.judge) >= ${disagreementGapOf(judgmentDeclaration("score", null, [BUILT_IN_DECLARATIONS.taskOf("hallucination")]))} - 1e-9, ${now}::timestamp, ${now}::timestamp
          FROM (
            -- Keyed as lib/reviews/judgment-key.ts keys them (key-frame scores carry the run's frame set).
            SELECT s."id" AS score_id, s."videoId" AS video_id, s."category", s."stepId" AS step_id, s."scopeIndex" AS scope_index,
              CASE WHEN s."stepId" IN ('static_hallucination', 'dynamic_hallucination') THEN rvf."frameSetId" ELSE '' END AS frame_set_id,
              (${reviewers}::text[])[1 + (sv.vi + 2) % ${reviewerCount}] AS reviewer, s."value" AS judge,
              greatest(0, least(10, s."value" + (ARRAY[-3, -1, 0, 0, 1, 2])[1 + (('x' || substr(md5(sv.vi || ':' || s."category" || ':sd'), 1, 8))::bit(32)::bigint % 6)::int])) AS value
            FROM "score" s JOIN seed_video sv ON sv.id = s."videoId" JOIN "run_video" rvf ON rvf."runId" = s."runId" AND rvf."videoId" = s."videoId"
            WHERE s."runId" = ${runId} AND s."scopeIndex" = 0 AND s."category" IN ('inconsistency', 's3')
              AND (('x' || substr(md5(sv.vi || ':hs'), 1, 8))::bit(32)::bigint % 20) = 1
          ) x`,
  );
  await step(
    "judgment history",
    () => tx.$executeRaw`INSERT INTO "human_judgment_history" ("id", "judgmentId", "reviewerId", "version", "before", "after", "at")
          SELECT h."id" || '-v1', h."id", h."reviewerId", 1, NULL, jsonb_build_object('value', h."value", 'note', NULL, 'reason', NULL), h."createdAt"
          FROM "human_judgment" h WHERE h."runId" = ${runId}`,
  );
}
