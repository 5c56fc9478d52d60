/**
 * What the captions pages read: the overview (latest style and content runs, their leaderboard, one list of
 * the captions either judged with both results, the flag filters) and one caption's detail, on PostgreSQL with
 * the stub LLM (style 3 within ±10% of the reference's words, else 2; see caption-runs-api.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { NotFoundError, ValidationError } from "../../errors";
import { importModelOutputs, importReferenceSet } from "./caption-set-import";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { jsonlBytes } from "../../../testkit/testing/item-files";
import { smallReferenceSet } from "../../../testkit/tasks/captions/caption-fixtures";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../../judge/endpoints/endpoints";
import { createRunSchema } from "../../judge/runs/run-input.validation";
import { createRun } from "../../judge/runs/runs";

import { captionDetail } from "./caption-detail";
import { projectCaptionLeaderboard, projectCaptionOverview } from "./caption-overview";
import { captionListQuerySchema, captionResultsQuerySchema } from "./caption-query";
import { runCaptionResults } from "./caption-run-results";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

const inlineQueue = inlineJudgeQueue(testJudgeDeps());
const file = (fileName: string, bytes: Uint8Array) => ({ fileName, bytes });

async function judgedProject() {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: 8,
  });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 8,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  const setId = (
    await importReferenceSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      file("ref.jsonl", jsonlBytes(...smallReferenceSet())),
    )
  ).set.id!;
  await importModelOutputs(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    setId,
    file(
      "alpha.jsonl",
      jsonlBytes(
        // brief, 10 words against 13: the stub's 2 is capped to 1 (the judge broke the rule).
        { id: 1, output: "A red ball rolls down a wooden ramp and stops." },
        // poem: no length rule.
        { id: 3, output: "Ball goes down,\nball is round." },
        // action: 1 of 3 key points.
        { id: 4, output: "A red sphere rolls down the ramp." },
      ),
    ),
    { model: "alpha" },
  );
  await importModelOutputs(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    setId,
    file(
      "beta.jsonl",
      jsonlBytes(
        // brief, 12 words against 13: 3, no rule fails.
        { id: 1, output: "A red ball rolls down a wooden ramp and stops at last." },
      ),
    ),
    { model: "beta" },
  );
  const start = async (input: Record<string, unknown>) =>
    createRun(
      { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ endpointId: endpoint.id, captionSetId: setId, ...input }),
    );
  const style = await start({ pipeline: "caption_style" });
  const content = await start({ pipeline: "caption_content" });
  return { projectId, videoIds, style, content, start };
}

describe("the captions pages' reads", () => {
  it("lists the captions of the latest style and content runs with both results, the leaderboard and the flag filters", async () => {
    const { projectId, style, content } = await judgedProject();
    const overview = await projectCaptionOverview(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      captionListQuerySchema.parse({}),
    );
    expect(overview.style?.id).toBe(style.id);
    expect(overview.content?.id).toBe(content.id);
    // Three style captions and one content caption, in video path, type, model order.
    expect(overview.total).toBe(4);
    expect(
      overview.captions.map((c) => [c.model, c.captionType, c.style?.countedScore ?? null, c.content?.hit ?? null]),
    ).toEqual([
      ["alpha", "brief", 1, null],
      ["beta", "brief", 3, null],
      ["alpha", "poem", 2, null],
      ["alpha", "action", null, 1],
    ]);
    const alphaAll = overview.leaderboard!.rows.find((r) => r.model === "alpha" && r.captionType === null)!;
    expect(alphaAll.styleScore).toMatchObject({ value: 1.5, n: 2 });
    expect(alphaAll.contentCoverage).toMatchObject({ value: 1 / 3, n: 1 });

    const broke = await projectCaptionOverview(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      captionListQuerySchema.parse({ flag: "judge_broke_rule" }),
    );
    expect(broke.captions.map((c) => [c.model, c.captionType])).toEqual([["alpha", "brief"]]);
    expect(broke.total).toBe(1);
    const betaBrief = await projectCaptionOverview(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      captionListQuerySchema.parse({ model: "beta", type: "brief" }),
    );
    expect(betaBrief.captions.map((c) => c.style?.rawScore)).toEqual([3]);

    // The per-run API filters the same flags; a content run has none.
    const perRun = await runCaptionResults(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      style.id,
      captionResultsQuerySchema.parse({ flag: "length_violation" }),
    );
    expect(perRun.captions.map((c) => [c.model, c.captionType])).toEqual([["alpha", "brief"]]);
    await expect(
      runCaptionResults(
        prisma,
        await projectAccess(prisma, owner, projectId, "project.view"),
        content.id,
        captionResultsQuerySchema.parse({ flag: "length_violation" }),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    // A run is read within the access's project: another project's access finds no such run.
    const elsewhere = await createProject(prisma, owner, { name: "A project without these runs" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "project.view");
    await expect(runCaptionResults(prisma, there, style.id, captionResultsQuerySchema.parse({}))).rejects.toThrow(
      "No such run.",
    );
    await expect(
      projectCaptionLeaderboard(prisma, there, { runId: [style.id], format: "json" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      projectCaptionOverview(
        prisma,
        await projectAccess(prisma, owner, projectId, "project.view"),
        captionListQuerySchema.parse({ styleRunId: content.id }),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("shows one caption with every run that judged it and the frames the judge saw", async () => {
    const { projectId, style } = await judgedProject();
    const caption = await prisma.item.findFirstOrThrow({
      where: { projectId, kind: "caption", model: "alpha", group: "brief" },
    });
    const view = await projectAccess(prisma, owner, projectId, "project.view");
    const detail = await captionDetail(prisma, view, caption.id);
    expect(detail.results.map((r) => r.run.id)).toEqual([style.id]);
    expect(detail.results[0]!.result.style).toMatchObject({
      rawScore: 2,
      cap: 1,
      scoreAfterRules: 1,
      flags: { lengthViolation: true, judgeBrokeRule: true },
    });
    const runVideo = await prisma.runVideo.findFirstOrThrow({ where: { runId: style.id, videoId: caption.videoId } });
    expect(detail.frameSet).toMatchObject({ id: runVideo.frameSetId, mode: "uniform", frameCount: 8 });
    expect(detail.frameSet!.frames).toHaveLength(8);

    const other = await makeUser();
    await expect(projectAccess(prisma, other, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
    const reference = await prisma.item.findFirstOrThrow({ where: { projectId, kind: "caption_reference" } });
    await expect(captionDetail(prisma, view, reference.id)).rejects.toBeInstanceOf(NotFoundError);
    // Through an access to another project, even the owner's own, the caption is not found.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "project.view");
    await expect(captionDetail(prisma, there, caption.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
