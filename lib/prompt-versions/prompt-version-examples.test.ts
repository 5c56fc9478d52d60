/**
 * Issue 26 item 4.2: a prompt version's few-shot examples (its `examples:` front-matter line) are rendered by the
 * engine after the body, their frames attached after the judged video's own, never the video itself as its own
 * example; they are part of the version's hashed text, so two versions differing only in examples differ in hash,
 * template hash and response cache key. Real PostgreSQL and the stub LLM.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { loadTemplate } from "./prompt-templates";
import { createRun } from "../judge/runs/runs";
import { testEndpoint } from "../judge/endpoints/endpoint-test";
import {
  TEMPLATE_EXAMPLES_END,
  TEMPLATE_EXAMPLES_HEADER,
  withTemplateExamples,
  type TemplateExample,
} from "./template-examples";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { savePromptVersion, validateTemplateEdit } from "./prompt-versions";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfEndpoint } from "../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const queue = inlineJudgeQueue(testJudgeDeps());
const INCONSISTENCY = "hallucination/inconsistency";

async function setup(videoCount: number, model = "stub-vision") {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 1 });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model,
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

/** A video as an example: its prompt, its first two frames, and a label. */
async function exampleOf(videoId: string, label: number): Promise<TemplateExample> {
  const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { prompt: true } });
  const frames = await prisma.frame.findMany({
    where: { frameSet: { videoId } },
    orderBy: { index: "asc" },
    take: 2,
    select: { frameSetId: true, index: true, sha256: true },
  });
  return {
    videoId,
    prompt: video.prompt ?? "",
    target: "Prompt inconsistency",
    label,
    labelText: String(label),
    frames,
  };
}

const run = async (projectId: string, endpointId: string, videoIds: string[], versionId: string) =>
  createRun(
    { prisma, queue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId,
      videoIds,
      promptVersions: { [INCONSISTENCY]: versionId },
    },
  );
const stepOf = (runId: string, videoId: string) =>
  prisma.stepResult.findFirstOrThrow({ where: { runId, videoId, stepId: "inconsistency" }, include: { calls: true } });
const blockOf = (text: string) =>
  text.slice(
    text.indexOf(TEMPLATE_EXAMPLES_HEADER),
    text.indexOf(TEMPLATE_EXAMPLES_END) + TEMPLATE_EXAMPLES_END.length,
  );

describe("a prompt version's few-shot examples", () => {
  it("are rendered after the body with their frames after the video's own, never the video as its own example", async () => {
    const { projectId, endpointId, videoIds } = await setup(3);
    const [a, b, c] = videoIds as [string, string, string];
    const examples = [await exampleOf(a, 2), await exampleOf(b, 8)];
    const text = withTemplateExamples(loadTemplate(INCONSISTENCY).raw, examples);
    const version = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text,
      note: "examples",
    });
    const judged = await run(projectId, endpointId, [a, c], version.id);

    // Video c: both examples, their frames after c's own key frame, in the examples' order.
    const stepC = await stepOf(judged.id, c);
    expect(stepC.status).toBe("done");
    expect(stepC.templateHash).toBe(version.hash);
    const requestC = stepC.calls[0]!.request as { text: string; frameIds: string[] };
    const ownC = await prisma.frame.findMany({
      where: { frameSet: { videoId: c }, isKeyFrame: true },
      select: { id: true },
    });
    const exampleIds = async (ex: TemplateExample) =>
      (
        await Promise.all(
          ex.frames.map((f) =>
            prisma.frame.findFirstOrThrow({
              where: { frameSetId: f.frameSetId, index: f.index },
              select: { id: true },
            }),
          ),
        )
      ).map((f) => f.id);
    expect(requestC.frameIds).toEqual([
      ...ownC.map((f) => f.id),
      ...(await exampleIds(examples[0]!)),
      ...(await exampleIds(examples[1]!)),
    ]);
    expect(blockOf(requestC.text)).toBe(
      [
        TEMPLATE_EXAMPLES_HEADER,
        `Example 1 (2 frames): prompt ${JSON.stringify(examples[0]!.prompt)}; the person's value of Prompt inconsistency: 2`,
        `Example 2 (2 frames): prompt ${JSON.stringify(examples[1]!.prompt)}; the person's value of Prompt inconsistency: 8`,
        TEMPLATE_EXAMPLES_END,
      ].join("\n"),
    );
    // The body comes first, the block after it.
    expect(requestC.text.indexOf("compare the inconsistency")).toBeLessThan(
      requestC.text.indexOf(TEMPLATE_EXAMPLES_HEADER),
    );
    // The endpoint got the images: the video's own and the examples'.
    const sentC = stub.requests.filter(
      (r) => r.text.includes(TEMPLATE_EXAMPLES_HEADER) && r.text.includes(JSON.stringify(examples[0]!.prompt)),
    );
    expect(sentC.map((r) => r.imageCount).sort()).toEqual([ownC.length + 4]);

    // Video a is never its own example: only b's is shown, and only b's frames follow a's.
    const requestA = (await stepOf(judged.id, a)).calls[0]!.request as { text: string; frameIds: string[] };
    const ownA = await prisma.frame.findMany({
      where: { frameSet: { videoId: a }, isKeyFrame: true },
      select: { id: true },
    });
    expect(requestA.frameIds).toEqual([...ownA.map((f) => f.id), ...(await exampleIds(examples[1]!))]);
    expect(blockOf(requestA.text)).not.toContain(JSON.stringify(examples[0]!.prompt));
    expect(blockOf(requestA.text)).toContain(`Example 1 (2 frames): prompt ${JSON.stringify(examples[1]!.prompt)}`);
    expect(blockOf(requestA.text)).not.toContain("Example 2");
  });

  it("are part of the version's hash: versions differing only in examples differ in hash and response cache key", async () => {
    const { projectId, endpointId, videoIds } = await setup(2);
    const [a, b] = videoIds as [string, string];
    const shipped = loadTemplate(INCONSISTENCY).raw;
    const one = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text: withTemplateExamples(shipped, [await exampleOf(a, 2)]),
    });
    const other = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text: withTemplateExamples(shipped, [await exampleOf(a, 9)]),
    });
    expect(one.hash).not.toBe(other.hash);
    const first = await run(projectId, endpointId, [b], one.id);
    const again = await run(projectId, endpointId, [b], one.id);
    const second = await run(projectId, endpointId, [b], other.id);
    const [s1, s1again, s2] = [await stepOf(first.id, b), await stepOf(again.id, b), await stepOf(second.id, b)];
    expect([s1.templateHash, s2.templateHash]).toEqual([one.hash, other.hash]);
    // The same version again: answered from the cache; the other version's examples: a new key, a new call.
    expect(s1.calls.map((c) => c.cached)).toEqual([false]);
    expect(s1again.calls.map((c) => c.cached)).toEqual([true]);
    expect(s2.calls.map((c) => c.cached)).toEqual([false]);
  });

  it("count as images: past the endpoint's image limit, the video's and the examples' frames are tiled into one, in order", async () => {
    const { projectId, endpointId, videoIds } = await setup(2, "stub-images-per-request-1");
    expect(
      (await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, endpointId), endpointId)).capabilities,
    ).toMatchObject({ maxImages: 1 });
    const [a, b] = videoIds as [string, string];
    const version = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text: withTemplateExamples(loadTemplate(INCONSISTENCY).raw, [await exampleOf(a, 2)]),
    });
    stub.reset();
    const judged = await run(projectId, endpointId, [b], version.id);
    const step = await stepOf(judged.id, b);
    expect(step.status).toBe("done");
    const request = step.calls[0]!.request as { text: string; frameIds: string[] };
    // The video's key frame and the example's two frames: three frames, one image.
    expect(request.frameIds).toHaveLength(3);
    expect(request.text).toContain("the 3 frames are tiled into the one image below");
    expect(request.text.indexOf(TEMPLATE_EXAMPLES_END)).toBeLessThan(request.text.indexOf("tiled into"));
    expect(stub.requests.filter((r) => r.text.includes(TEMPLATE_EXAMPLES_HEADER)).map((r) => r.imageCount)).toEqual([
      1,
    ]);
  });

  it("an example whose frame is gone fails the step with words that say so", async () => {
    const { projectId, endpointId, videoIds } = await setup(2);
    const [a, b] = videoIds as [string, string];
    const example = await exampleOf(a, 2);
    const version = await savePromptVersion(prisma, await projectAccess(prisma, owner, projectId, "prompts.manage"), {
      templateId: INCONSISTENCY,
      text: withTemplateExamples(loadTemplate(INCONSISTENCY).raw, [example]),
    });
    await prisma.frame.deleteMany({ where: { frameSetId: example.frames[0]!.frameSetId } });
    const judged = await run(projectId, endpointId, [b], version.id);
    const step = await stepOf(judged.id, b);
    expect(step.status).toBe("failed");
    expect(step.error).toMatch(/few-shot example video .* has no frame 0/);
  });
});

describe("checking a version's examples as an owner's edit", () => {
  const shipped = loadTemplate(INCONSISTENCY);
  const frame = { frameSetId: "fs1", index: 0, sha256: "a".repeat(64) };
  const good = {
    videoId: "v1",
    prompt: "A ball [x]",
    target: "Prompt inconsistency",
    label: 2,
    labelText: "2",
    frames: [frame],
  };
  const withLine = (json: string) => shipped.raw.replace("\n---\n", `\nexamples: ${json}\n---\n`);

  it("accepts well-formed examples and parses them; the body and placeholders are the shipped ones", () => {
    const edited = validateTemplateEdit(
      shipped,
      withTemplateExamples(shipped.raw, [good, { ...good, videoId: "v2", frames: [frame, { ...frame, index: 1 }] }]),
    );
    expect(edited.examples).toHaveLength(2);
    expect(edited.examples![1]!.frames).toHaveLength(2);
    expect(edited.body).toBe(shipped.body);
    expect(edited.meta.examples).toBeUndefined();
    // Setting examples again replaces the line.
    const twice = withTemplateExamples(withTemplateExamples(shipped.raw, [good]), [
      { ...good, label: 7, labelText: "7" },
    ]);
    expect(validateTemplateEdit(shipped, twice).examples!.map((e) => e.label)).toEqual([7]);
    expect(twice.match(/^examples:/gm)).toHaveLength(1);
  });

  it.each([
    ["not JSON", "[{videoId: v1}]", /`examples` must be a JSON array on its line/],
    ["not an array", JSON.stringify(good), /must be a JSON array of examples/],
    ["more than 8", JSON.stringify(Array.from({ length: 9 }, () => good)), /holds 9 examples; at most 8/],
    ["an unknown field", JSON.stringify([{ ...good, answer: 3 }]), /entry 1 has unknown field\(s\) answer/],
    ["no video", JSON.stringify([{ ...good, videoId: "" }]), /entry 1: videoId/],
    [
      "a label that is no number",
      JSON.stringify([good, { ...good, label: "high" }]),
      /entry 2: label must be a number/,
    ],
    [
      "three frames",
      JSON.stringify([{ ...good, frames: [frame, frame, frame] }]),
      /entry 1: frames must list 1 to 2 frames/,
    ],
    ["no frames", JSON.stringify([{ ...good, frames: [] }]), /entry 1: frames must list 1 to 2 frames/],
    [
      "a bad hash",
      JSON.stringify([{ ...good, frames: [{ ...frame, sha256: "xyz" }] }]),
      /entry 1, frame 1: sha256 must be 64/,
    ],
    ["a negative index", JSON.stringify([{ ...good, frames: [{ ...frame, index: -1 }] }]), /entry 1, frame 1: index/],
  ])("rejects %s with a clear ValidationError", (_, json, message) => {
    const attempt = () => validateTemplateEdit(shipped, withLine(json));
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(/^Prompt template hallucination\/inconsistency: /);
  });
});
