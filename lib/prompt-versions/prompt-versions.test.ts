import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { createEndpoint } from "../judge/endpoints/endpoints";

import { loadTemplate } from "./prompt-templates";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { addMember } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { pipelinePromptVersions, pipelineTemplateIds, runPromptVersions, savePromptVersion } from "./prompt-versions";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const queue = inlineJudgeQueue(testJudgeDeps());
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const INCONSISTENCY = "hallucination/inconsistency";
/** The shipped inconsistency template with one more sentence at the end of its body. */
const editedInconsistency = (sentence = "Be strict: any object the prompt names but the frames lack counts.") =>
  `${loadTemplate(INCONSISTENCY).raw.replace(/\n?$/, "")}\n${sentence}\n`;

async function setup(videoCount = 1) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 1 });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 8,
    requestsPerMinute: null,
    timeoutSeconds: 120,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  return { projectId, videoIds, endpointId: endpoint.id };
}

const run = async (projectId: string, endpointId: string, promptVersions?: Record<string, string>) =>
  createRun(
    { prisma, queue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId,
      ...(promptVersions ? { promptVersions } : {}),
    },
  );
const inconsistencyStep = (runId: string) =>
  prisma.stepResult.findFirstOrThrow({ where: { runId, stepId: "inconsistency" }, include: { calls: true } });

describe("prompt versions", () => {
  it("lists a pipeline's shipped templates, QA's per-question ones included", () => {
    expect(pipelineTemplateIds(builtInCatalogue().pipelines.hallucination!)).toEqual([
      "hallucination/dynamic-hallucination",
      "hallucination/dynamic-kg",
      "hallucination/inconsistency",
      "hallucination/static-hallucination",
      "hallucination/static-kg",
      "hallucination/video-summary",
    ]);
    expect(pipelineTemplateIds(builtInCatalogue().pipelines.qa!)).toContain("qa/text-only-open");
    expect(pipelineTemplateIds(builtInCatalogue().pipelines.caption_style!)).toEqual(["caption-rubric/judge"]);
  });

  it("saves an edit with the SHA-256 of its text, once per text, and lists it beside the shipped template", async () => {
    const { projectId } = await setup();
    const text = editedInconsistency();
    const saved = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text,
      note: "stricter",
    });
    expect(saved).toMatchObject({ templateId: INCONSISTENCY, hash: sha256(text), note: "stricter", created: true });
    expect(saved.hash).not.toBe(loadTemplate(INCONSISTENCY).hash);
    const again = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text,
    });
    expect(again).toMatchObject({ id: saved.id, created: false });
    const other = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text: editedInconsistency("Another sentence."),
    });
    expect(other.id).not.toBe(saved.id);

    const listed = await pipelinePromptVersions(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      builtInCatalogue().pipelines.hallucination!,
    );
    const inconsistency = listed.find((t) => t.templateId === INCONSISTENCY)!;
    expect(inconsistency.shipped.hash).toBe(loadTemplate(INCONSISTENCY).hash);
    expect(inconsistency.versions.map((v) => v.id)).toEqual([other.id, saved.id]);
    expect(inconsistency.versions[1]!.text).toBe(text);
    expect(listed.find((t) => t.templateId === "hallucination/static-kg")!.versions).toEqual([]);
  });

  it("refuses templates that lack or add a placeholder, name another template, do not parse, or are the shipped text", async () => {
    const { projectId } = await setup();
    const shipped = loadTemplate(INCONSISTENCY).raw;
    const access = await projectAccess(prisma, owner, projectId, "prompts.manage");
    const save = (text: string) => savePromptVersion(prisma, access, { templateId: INCONSISTENCY, text });
    const withoutGenerated = shipped
      .replace("inputs: [original_prompt, generated_prompt]", "inputs: [original_prompt]")
      .replaceAll("{{generated_prompt}}", "the AI's description");
    await expect(save(withoutGenerated)).rejects.toThrow(/lacks \{\{generated_prompt\}\}/);
    const withExtra =
      shipped.replace(
        "inputs: [original_prompt, generated_prompt]",
        "inputs: [original_prompt, generated_prompt, mood]",
      ) + "\nMood: {{mood}}\n";
    await expect(save(withExtra)).rejects.toThrow(/no value for \{\{mood\}\}/);
    await expect(save(shipped.replace("{{original_prompt}}", "{{ original_prompt }}"))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(save(shipped.replace(`id: ${INCONSISTENCY}`, "id: hallucination/static-kg"))).rejects.toThrow(
      /says id/,
    );
    await expect(save(shipped)).rejects.toThrow(/shipped text/);
    await expect(
      savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
        templateId: "hallucination/nope",
        text: shipped,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await prisma.promptVersion.count({ where: { projectId } })).toBe(0);
  });

  it("lets owners only save versions", async () => {
    const { projectId } = await setup();
    const reviewer = await makeUser();
    const viewer = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: reviewer.email,
      role: "reviewer",
    });
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: viewer.email,
      role: "viewer",
    });
    for (const member of [reviewer, viewer]) {
      await expect(projectAccess(prisma, member, projectId, "prompts.manage")).rejects.toBeInstanceOf(ForbiddenError);
    }
    const stranger = await makeUser();
    await expect(projectAccess(prisma, stranger, projectId, "prompts.manage")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("never changes a saved version: an UPDATE leaves the row as it was", async () => {
    const { projectId } = await setup();
    const text = editedInconsistency();
    const saved = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text,
    });
    await prisma.$executeRaw`UPDATE prompt_version SET text = 'changed', hash = 'changed', note = 'changed' WHERE id = ${saved.id}`;
    await prisma.promptVersion.updateMany({ where: { id: saved.id }, data: { text: "changed again" } });
    const row = await prisma.promptVersion.findUniqueOrThrow({ where: { id: saved.id } });
    expect(row).toMatchObject({ text, hash: sha256(text), note: "" });
  });

  it("renders a run's version and caches by its hash: an edit misses the cache, the shipped version hits it again", async () => {
    const { projectId, endpointId } = await setup();
    const shippedHash = loadTemplate(INCONSISTENCY).hash;
    const text = editedInconsistency();
    const version = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text,
    });

    const shipped = await run(projectId, endpointId);
    const callsPerVideo = stub.requests.length;
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, shipped.id), shipped.id)).steps).toMatchObject({
      done: 6,
      failed: 0,
      parse_failed: 0,
    });
    expect((await inconsistencyStep(shipped.id)).templateHash).toBe(shippedHash);

    // The edited template: only its own step calls the model, with the edited text; the rest come from the cache.
    stub.reset();
    const edited = await run(projectId, endpointId, {
      [INCONSISTENCY]: version.id,
      "hallucination/static-kg": "shipped",
    });
    expect(stub.requests.map((r) => r.rule)).toEqual(["inconsistency-check"]);
    const editedStep = await inconsistencyStep(edited.id);
    expect(editedStep).toMatchObject({ status: "done", templateHash: version.hash });
    expect((editedStep.calls[0]!.request as { text: string }).text).toContain("Be strict: any object the prompt names");
    expect(editedStep.calls[0]!.cached).toBe(false);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: edited.id } })).promptVersionIds).toEqual({
      [INCONSISTENCY]: version.id,
    });
    expect(
      await runPromptVersions(prisma, await projectAccess(prisma, owner, projectId, "project.view"), edited.id),
    ).toEqual([expect.objectContaining({ id: version.id, templateId: INCONSISTENCY, hash: version.hash })]);
    // A run is read within the access's project: through an access to another project it does not exist.
    const elsewhere = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await expect(
      runPromptVersions(prisma, await projectAccess(prisma, owner, elsewhere.projectId, "project.view"), edited.id),
    ).rejects.toThrow("No such run.");

    // Back to the shipped template, and again the edit: every answer is in the cache by now.
    stub.reset();
    const back = await run(projectId, endpointId);
    const again = await run(projectId, endpointId, { [INCONSISTENCY]: version.id });
    expect(stub.requests).toHaveLength(0);
    expect((await inconsistencyStep(back.id)).templateHash).toBe(shippedHash);
    expect((await inconsistencyStep(again.id)).templateHash).toBe(version.hash);
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, again.id), again.id)).calls).toMatchObject({
      total: callsPerVideo,
      cached: callsPerVideo,
    });
  });

  it("refuses a run with another template's or another project's version", async () => {
    const { projectId, endpointId } = await setup();
    const version = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text: editedInconsistency(),
    });
    await expect(run(projectId, endpointId, { "hallucination/static-kg": version.id })).rejects.toThrow(
      /is a version of hallucination\/inconsistency/,
    );
    await expect(run(projectId, endpointId, { "caption-rubric/judge": version.id })).rejects.toThrow(
      /renders no template caption-rubric\/judge/,
    );
    const other = await setup();
    await expect(run(other.projectId, other.endpointId, { [INCONSISTENCY]: version.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(stub.requests).toHaveLength(0);
  });
});
