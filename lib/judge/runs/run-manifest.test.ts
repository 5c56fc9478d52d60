/**
 * A run's manifest on the stub LLM: what it records (prompt versions with their hashes, the endpoint's base URL and
 * never its key, the model, mode and videos), and `POST …/runs` with it: the same again on the same endpoint makes
 * no new paid call and gets the same scores; on another endpoint it asks that one; a manifest naming a prompt version
 * that is gone, one whose text differs, or an endpoint of another project is refused and starts nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { ConflictError, NotFoundError } from "../../errors";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { STUB_SNAPSHOT } from "../../../testkit/llm-stub/completion";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { savePromptVersion } from "../../prompt-versions/prompt-versions";
import { createRunSchema } from "./run-input.validation";
import { createRun } from "./runs";
import { runManifest, runRequestSchema, startRunRequest } from "./run-manifest";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(async () => stub?.close());

const catalogue = () => builtInCatalogue();
const deps = () => ({ prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: catalogue().pipelines });
const TEMPLATE = "hallucination/static-kg";

async function judgedRun(model = "stub-vision") {
  const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
  const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL, model, {
    apiKey: "sk-manifest-secret-123",
  });
  const shipped = fs.readFileSync(path.resolve("prompts", `${TEMPLATE}.md`), "utf8");
  const version = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
    templateId: TEMPLATE,
    text: `${shipped.trimEnd()}\n\nName every object once.\n`,
  });
  const run = (await createRun(
    deps(),
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(catalogue()).parse({
      pipeline: "hallucination",
      endpointId: endpoint.id,
      promptVersions: { [TEMPLATE]: version.id },
    }),
  )) as { id: string };
  return { projectId, endpoint, version, runId: run.id };
}

/** A run's scores by video, step, scope and category, as comparable rows. */
async function scoresOf(runId: string) {
  const rows = await prisma.score.findMany({
    where: { runId },
    select: { videoId: true, stepId: true, scopeIndex: true, category: true, value: true },
  });
  return rows
    .map((r) => `${r.videoId}|${r.stepId}|${r.scopeIndex}|${r.category}|${r.value}`)
    .sort((a, b) => a.localeCompare(b));
}

const rerun = async (projectId: string, body: unknown) =>
  startRunRequest(
    deps(),
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    catalogue(),
    runRequestSchema(catalogue()).parse(body),
  );

describe("a run's manifest", () => {
  it("records the model each answer named beside the one asked for (an alias and its dated snapshot)", async () => {
    const { runId } = await judgedRun("stub-vision-latest");
    const manifest = await runManifest(prisma, await accessOfRun(prisma, owner, runId), runId);
    const calls = await prisma.llmCall.count({ where: { runId } });
    expect(calls).toBeGreaterThan(0);
    expect(manifest.models).toEqual({
      requested: "stub-vision-latest",
      called: ["stub-vision-latest"],
      reported: [{ requested: "stub-vision-latest", reported: `stub-vision-${STUB_SNAPSHOT}`, cached: false, calls }],
    });
  });

  it("records the run without the endpoint's key, and runs again from the cache with the same scores", async () => {
    const { projectId, endpoint, version, runId } = await judgedRun();
    const manifest = await runManifest(prisma, await accessOfRun(prisma, owner, runId), runId);
    const text = JSON.stringify(manifest);
    expect(text).not.toContain("sk-manifest-secret-123");
    expect(manifest).toMatchObject({
      format: "framejury-run-manifest",
      task: { pipeline: "hallucination" },
      promptVersions: [{ templateId: TEMPLATE, id: version.id, hash: version.hash }],
      endpoint: { id: endpoint.id, baseUrl: stub.baseURL },
      models: {
        requested: "stub-vision",
        called: ["stub-vision"],
        reported: [
          { requested: "stub-vision", reported: "stub-vision", cached: false, calls: expect.any(Number) as number },
        ],
      },
      input: { mode: "images" },
    });
    expect(manifest.videos).toHaveLength(2);
    expect(manifest.framejury.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.templates.some((t) => t.templateId === TEMPLATE && t.templateHash === version.hash)).toBe(true);

    // Downloaded and posted back as JSON.
    const again = (await rerun(projectId, { manifest: JSON.parse(text) as unknown })) as { id: string };
    expect(again.id).not.toBe(runId);
    const paid = await prisma.llmCall.count({ where: { runId: again.id, cached: false } });
    expect(paid).toBe(0);
    const cachedCalls = await prisma.llmCall.count({ where: { runId: again.id, cached: true } });
    expect(cachedCalls).toBeGreaterThan(0);
    // The re-run's answers all came from the cache, which names no model.
    expect((await runManifest(prisma, await accessOfRun(prisma, owner, again.id), again.id)).models.reported).toEqual([
      { requested: "stub-vision", reported: null, cached: true, calls: cachedCalls },
    ]);
    const rerunScores = await scoresOf(again.id);
    expect(rerunScores.length).toBeGreaterThan(0);
    expect(rerunScores).toEqual(await scoresOf(runId));
    const rerunRow = await prisma.judgeRun.findUniqueOrThrow({ where: { id: again.id } });
    expect(rerunRow.promptVersionIds).toEqual({ [TEMPLATE]: version.id });
  }, 120_000);

  it("runs again on another endpoint of the project, which is asked", async () => {
    const { projectId, runId } = await judgedRun();
    const other = await createStubEndpoint(prisma, owner, projectId, stub.baseURL, "stub-vision-other");
    const manifest = JSON.parse(
      JSON.stringify(await runManifest(prisma, await accessOfRun(prisma, owner, runId), runId)),
    ) as unknown;
    const again = (await rerun(projectId, { manifest, endpointId: other.id })) as { id: string };
    const row = await prisma.judgeRun.findUniqueOrThrow({ where: { id: again.id }, select: { endpointId: true } });
    expect(row.endpointId).toBe(other.id);
    expect(await prisma.llmCall.count({ where: { runId: again.id, cached: false } })).toBeGreaterThan(0);
  }, 120_000);

  it("refuses a manifest whose prompt version is gone or changed, or whose endpoint is another project's", async () => {
    const { projectId, version, runId } = await judgedRun();
    const manifest = JSON.parse(
      JSON.stringify(await runManifest(prisma, await accessOfRun(prisma, owner, runId), runId)),
    ) as {
      promptVersions: { hash: string }[];
    };
    const runs = () => prisma.judgeRun.count({ where: { projectId } });
    const before = await runs();

    const changed = structuredClone(manifest);
    changed.promptVersions[0]!.hash = "0".repeat(64);
    await expect(rerun(projectId, { manifest: changed })).rejects.toThrow(ConflictError);

    const elsewhere = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const foreign = await createStubEndpoint(prisma, owner, elsewhere.projectId, stub.baseURL);
    await expect(rerun(projectId, { manifest, endpointId: foreign.id })).rejects.toThrow(NotFoundError);

    await prisma.promptVersion.delete({ where: { id: version.id } });
    await expect(rerun(projectId, { manifest })).rejects.toThrow(/no longer exists/);
    expect(await runs()).toBe(before);
  }, 120_000);

  it("is not a run request unless it is a manifest of this format", () => {
    const schema = runRequestSchema(catalogue());
    expect(schema.safeParse({ manifest: { format: "other", version: 1 } }).success).toBe(false);
    expect(schema.safeParse({ manifest: {} }).success).toBe(false);
    expect(schema.safeParse({ pipeline: "hallucination", endpointId: "e", manifest: {} }).success).toBe(false);
  });
});
