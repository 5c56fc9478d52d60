import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { createProject } from "../projects/projects";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { makeUser } from "../../testkit/testing/fixtures";
import { createRunVideo } from "../../testkit/testing/run-video-fixture";
import { browseVideos } from "./browse-videos";
import { checkFilterAgainstTask, videoFilterSchema, videoListQuerySchema } from "./video-filter";
import { type FilterContext, matchingVideoIds, resolveFilterRun } from "./video-filter-sql";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

// The list's metric filters, sorts and columns come from the run's task declaration: generic keys
// (min.<metric>, max.<metric>, is.<metric>) next to the hallucination task's older ones, a filter the
// run's task does not declare is refused by name, and "the latest run" is the latest run over videos.

let owner: Actor;
let projectId: string;
let runId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "generic metrics" })).id;
  for (const key of ["a", "b", "c"]) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    ids[key] = (
      await prisma.video.create({
        data: {
          projectId,
          sha256: sha,
          sizeBytes: 1n,
          fileName: `${key}.mp4`,
          relativePath: `${key}.mp4`,
          storageKey: `k/${sha}`,
          contentType: "video/mp4",
          status: "ready",
          createdById: owner.userId,
        },
      })
    ).id;
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
        createdAt: new Date(Date.now() - 60_000),
      },
    })
  ).id;
  await createRunVideo(prisma, {
    runId,
    videoId: ids.a!,
    frameSetId: "fs",
    metrics: { S: 2, D: 8, I: 1, overall: 60, verdict: true },
  });
  await createRunVideo(prisma, {
    runId,
    videoId: ids.b!,
    frameSetId: "fs",
    metrics: { S: 1, D: 1, I: 0, overall: 88, verdict: false },
  });
  await createRunVideo(prisma, { runId, videoId: ids.c!, frameSetId: "fs", metrics: {} });
  // A newer run of a task over items (captions): its subjects are not videos, so it has no per-video metrics to show.
  await prisma.judgeRun.create({
    data: { projectId, pipeline: "caption_style", endpointId: endpoint.id, createdById: owner.userId, status: "done" },
  });
});

async function match(query: Record<string, string>) {
  const filter = videoFilterSchema(builtInCatalogue()).parse(query);
  const catalogue = builtInCatalogue();
  const run = await resolveFilterRun(prisma, catalogue, projectId, filter.runId);
  const ctx: FilterContext = {
    projectId,
    catalogue,
    runId: run?.id ?? null,
    task: run?.task ?? null,
    userId: owner.userId,
  };
  const found = await matchingVideoIds(prisma, filter, ctx);
  return found.map((id) => Object.entries(ids).find(([, v]) => v === id)![0]).sort();
}

describe("generic per-video metrics", () => {
  it("reads the latest run over videos, not a newer run over items", async () => {
    const result = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({}),
    );
    expect(result.run?.id).toBe(runId);
    expect(result.videos.find((v) => v.id === ids.a)!.scores).toEqual({ I: 1, S: 2, D: 8, overall: 60, verdict: true });
    // In the run with no known values: every declared metric, unknown.
    expect(result.videos.find((v) => v.id === ids.c)!.scores).toEqual({
      I: null,
      S: null,
      D: null,
      overall: null,
      verdict: null,
    });
  });

  it("filters on generic keys exactly as on the task's older ones", async () => {
    expect(await match({ "min.S": "1", "max.S": "1" })).toEqual(await match({ sMin: "1", sMax: "1" }));
    expect(await match({ "min.S": "1", "max.S": "1" })).toEqual(["b"]);
    expect(await match({ "min.D": "5" })).toEqual(["a"]);
    expect(await match({ "max.overall": "70" })).toEqual(["a"]);
    expect(await match({ "is.verdict": "yes" })).toEqual(["a"]);
    expect(await match({ "is.verdict": "0" })).toEqual(["b"]);
    // Both forms at once: the tighter bound wins.
    expect(await match({ "min.overall": "50", overallMin: "70" })).toEqual(["b"]);
  });

  it("sorts on any declared metric, unknown values last", async () => {
    const byD = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ sort: "D", dir: "desc" }),
    );
    expect(byD.videos.map((v) => v.id)).toEqual([ids.a, ids.b, ids.c]);
    const byOverall = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(builtInCatalogue()).parse({ sort: "overall", dir: "asc" }),
    );
    expect(byOverall.videos.map((v) => v.id)).toEqual([ids.a, ids.b, ids.c]);
  });

  it("refuses generic keys off the metric's scale, naming the key", () => {
    for (const [query, field] of [
      [{ "min.S": "11" }, "min.S"],
      [{ "max.overall": "abc" }, "max.overall"],
      [{ "is.verdict": "maybe" }, "is.verdict"],
      [{ sort: "X" }, "sort"],
    ] as const) {
      const parsed = videoListQuerySchema(builtInCatalogue()).safeParse(query);
      expect(parsed.success, JSON.stringify(query)).toBe(false);
      expect(parsed.error!.issues.map((i) => i.path.join("."))).toContain(field);
    }
  });

  it("checks a filter against the declaration of the run it reads, naming the field", () => {
    const captions: TaskDeclaration = {
      id: "toy_caption",
      label: "Toy caption task",
      subject: "caption",
      targets: [
        {
          id: "style",
          label: "Style",
          definition: "How well the caption follows its type's style.",
          scale: { kind: "numeric", min: 0, max: 4, step: 1 },
          level: "ordinal",
          higherIsBetter: true,
          scope: "item",
          positive: { op: "<", threshold: 2, label: "poor" },
        },
      ],
      metrics: [
        {
          id: "style",
          label: "Style",
          definition: "The style score.",
          aggregation: "The judge's score.",
          scale: { kind: "numeric", min: 0, max: 4, step: 1 },
          level: "ordinal",
          higherIsBetter: true,
          positive: { op: "<", threshold: 2, label: "poor" },
        },
      ],
      groupings: [],
    };
    const refused = (filter: Record<string, string>, sort?: string) => {
      try {
        checkFilterAgainstTask(builtInCatalogue(), videoFilterSchema(builtInCatalogue()).parse(filter), captions, sort);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as Error).message;
      }
    };
    expect(refused({ category: "s3" })).toMatch(/^category: .*"s3"/);
    expect(refused({ sMin: "1" })).toMatch(/^sMin: .*"S"/);
    expect(refused({ "is.verdict": "yes" })).toMatch(/^is\.verdict: /);
    expect(refused({}, "overall")).toMatch(/^sort: /);
    expect(refused({ dimension: "Mechanics" }, "path")).toBeNull();
  });
});
