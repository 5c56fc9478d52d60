import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { videoFilterSchema } from "./video-filter";
import {
  type FilterContext,
  matchingVideoIds,
  promptMatches,
  resolveFilterRun,
  videoFilterFrom,
  videoFilterWhere,
  videoOrderBy,
} from "./video-filter-sql";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { insertJudgment } from "../../testkit/testing/judgments";
import { builtInCatalogue } from "../task-modules/task-catalogue";

let owner: Actor;
let reviewer: Actor;
let projectId: string;
let runId: string;
const ids: Record<string, string> = {};

// Four videos: a, b, c judged in the run; d never judged.
beforeAll(async () => {
  [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: "filters" })).id;
  const specs = [
    { key: "a", model: "Sora", dims: ["Mechanics"], prompt: "A ball 100% falls_down", status: "ready" },
    { key: "b", model: "Sora", dims: ["Mechanics", "Material"], prompt: "Ice melts", status: "ready" },
    { key: "c", model: "Gen-2", dims: ["Material"], prompt: "Glass shatters", status: "ready" },
    { key: "d", model: "Gen-2", dims: ["Thermotics"], prompt: "Water boils", status: "pending_extraction" },
  ] as const;
  for (const spec of specs) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 1n,
        fileName: `${spec.key}.mp4`,
        relativePath: `${spec.key}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: spec.status,
        prompt: spec.prompt,
        dimensions: [...spec.dims],
        model: spec.model,
        createdById: owner.userId,
      },
    });
    ids[spec.key] = video.id;
  }
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  const older = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline: "hallucination",
      endpointId: endpoint.id,
      createdById: owner.userId,
      status: "done",
      createdAt: new Date(Date.now() - 60_000),
    },
  });
  await createRunVideo(prisma, { runId: older.id, videoId: ids.d!, frameSetId: "fs", metrics: { overall: 1 } });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: owner.userId, status: "done" },
  });
  runId = run.id;
  const summaries = { a: [2, 8, 1, 60, true], b: [1, 1, 0, 88, false], c: [null, null, null, null, null] } as const;
  for (const [key, [S, D, I, overall, verdict]] of Object.entries(summaries)) {
    await createRunVideo(prisma, {
      runId,
      videoId: ids[key]!,
      frameSetId: "fs",
      metrics: { S: S, D: D, I: I, overall: overall, verdict: verdict },
    });
  }
  // s3 per key frame: a has 2 and 7 (max 7), b has 3 and 4 (max 4); c has no s3.
  for (const [key, values] of [
    ["a", [2, 7]],
    ["b", [3, 4]],
  ] as const) {
    for (const [k, value] of values.entries()) {
      const step = await prisma.stepResult.create({
        data: {
          runId,
          videoId: ids[key]!,
          stepId: "static_hallucination",
          scopeIndex: k,
          status: "done",
          templateId: "t",
        },
      });
      await prisma.score.create({
        data: {
          runId,
          videoId: ids[key]!,
          stepResultId: step.id,
          stepId: "static_hallucination",
          scopeIndex: k,
          category: "s3",
          value,
        },
      });
    }
  }
  // a: the reviewer disagrees on the verdict (says no); b: the owner agrees (says no).
  await insertJudgment(prisma, {
    projectId,
    targetType: "verdict",
    runId,
    videoId: ids.a!,
    reviewerId: reviewer.userId,
    value: 0,
    judgeValue: 1,
    disagrees: true,
  });
  await insertJudgment(prisma, {
    projectId,
    targetType: "verdict",
    runId,
    videoId: ids.b!,
    reviewerId: owner.userId,
    value: 0,
    judgeValue: 0,
    disagrees: false,
  });
});

async function match(query: Record<string, string>, as: Actor = owner) {
  const filter = videoFilterSchema(builtInCatalogue()).parse(query);
  const run = await resolveFilterRun(prisma, builtInCatalogue(), projectId, filter.runId);
  const ctx: FilterContext = { projectId, catalogue: builtInCatalogue(), runId: run?.id ?? null, userId: as.userId };
  const found = await matchingVideoIds(prisma, filter, ctx);
  return found.map((id) => Object.entries(ids).find(([, v]) => v === id)![0]).sort();
}

describe("video filters", () => {
  it("filter on the video's own fields, escaping LIKE wildcards in prompt text", async () => {
    expect(await match({})).toEqual(["a", "b", "c", "d"]);
    expect(await match({ dimension: "Material" })).toEqual(["b", "c"]);
    expect(await match({ model: "Gen-2" })).toEqual(["c", "d"]);
    expect(await match({ prompt: "MELTS" })).toEqual(["b"]);
    expect(await match({ prompt: "100%" })).toEqual(["a"]);
    expect(await match({ prompt: "A_ball" })).toEqual([]);
    expect(await match({ prompt: "falls_down" })).toEqual(["a"]);
    expect(await match({ status: "pending_extraction" })).toEqual(["d"]);
  });

  it("default to the latest run for score filters, and list only a named run's videos", async () => {
    expect(await match({ runId })).toEqual(["a", "b", "c"]);
    expect(await match({ overallMax: "70" })).toEqual(["a"]);
    expect(await match({ overallMin: "70", overallMax: "100" })).toEqual(["b"]);
    expect(await match({ dMin: "5" })).toEqual(["a"]);
    expect(await match({ sMin: "1", sMax: "1" })).toEqual(["b"]);
    expect(await match({ iMax: "0" })).toEqual(["b"]);
    expect(await match({ verdict: "yes" })).toEqual(["a"]);
    expect(await match({ verdict: "no" })).toEqual(["b"]);
    await expect(match({ runId: "no-such-run" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("filter on a category's worst score over key frames", async () => {
    expect(await match({ category: "s3" })).toEqual(["a", "b"]);
    expect(await match({ category: "s3", categoryMin: "5" })).toEqual(["a"]);
    // b's worst s3 is 4; a has a 2 but its worst is 7, so "at most 4" is b only.
    expect(await match({ category: "s3", categoryMax: "4" })).toEqual(["b"]);
    // Both bounds on the worst score: a's is 7, b's is 4.
    expect(await match({ category: "s3", categoryMin: "3", categoryMax: "7" })).toEqual(["a", "b"]);
    expect(await match({ category: "s3", categoryMin: "4", categoryMax: "4" })).toEqual(["b"]);
    expect(await match({ category: "s3", categoryMin: "5", categoryMax: "6" })).toEqual([]);
  });

  it("read a model's first page from the (projectId, model, pathSortKey, id) index, not by walking every path", async () => {
    // Whether the planner can, not whether it prefers to on four rows: sequential scans and sorts off.
    const filter = videoFilterSchema(builtInCatalogue()).parse({ model: "Sora" });
    const ctx: FilterContext = { projectId, catalogue: builtInCatalogue(), runId, userId: owner.userId };
    const plan = await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      await tx.$executeRaw`SET LOCAL enable_sort = off`;
      return tx.$queryRaw<
        { "QUERY PLAN": string }[]
      >`EXPLAIN SELECT v."id" ${videoFilterFrom(ctx, filter)} WHERE ${videoFilterWhere(filter, ctx)} ${videoOrderBy("path", "asc")} LIMIT 50`;
    });
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(
      /Index (Only )?Scan using "video_projectId_model_pathSortKey_id_idx"/,
    );
  });

  it("filter on review state, per caller", async () => {
    expect(await match({ review: "unreviewed" })).toEqual(["c", "d"]);
    expect(await match({ review: "reviewed" })).toEqual(["a", "b"]);
    expect(await match({ review: "reviewed_by_me" }, reviewer)).toEqual(["a"]);
    expect(await match({ review: "not_reviewed_by_me" }, reviewer)).toEqual(["b", "c", "d"]);
    expect(await match({ review: "disagreement" })).toEqual(["a"]);
    expect(await match({ humanVerdict: "no" })).toEqual(["a", "b"]);
    expect(await match({ humanVerdict: "yes" })).toEqual([]);
  });

  it("search prompts with a condition the prompt's trigram index answers", async () => {
    // Whether the planner can use the index, not whether it prefers it on four rows: sequential scans off.
    const plan = await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      return tx.$queryRaw<
        { "QUERY PLAN": string }[]
      >`EXPLAIN SELECT v."id" FROM "video" v WHERE ${promptMatches("melts")}`;
    });
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/Bitmap Index Scan on video_prompt_idx/);
  });

  it("reject values outside the whitelist instead of passing them on", () => {
    expect(videoFilterSchema(builtInCatalogue()).safeParse({ category: "s99" }).success).toBe(false);
    expect(videoFilterSchema(builtInCatalogue()).safeParse({ overallMax: "1e400" }).success).toBe(false);
    expect(videoFilterSchema(builtInCatalogue()).safeParse({ review: "everything" }).success).toBe(false);
    expect(videoFilterSchema(builtInCatalogue()).safeParse({ runId: "x'; DROP TABLE video; --" }).success).toBe(false);
    expect(videoFilterSchema(builtInCatalogue()).parse({ where: { id: "x" }, model: "Sora" })).toEqual({
      model: "Sora",
    });
  });
});
