import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { capabilitiesOf, contextLengthIn, imageLimitOf, responseFormatFor } from "./endpoint-capabilities";
import { testEndpoint } from "./endpoint-test";
import { PROBE_VIDEO_PROMPT } from "./endpoint-probe-video";
import { createEndpoint, updateEndpoint } from "./endpoints";
import { accessOfEndpoint } from "../../../testkit/testing/record-access";
import { projectAccess } from "../../authz/permissions";

/**
 * The endpoint Test's probe against the stub's simulated servers (chosen by model name, see
 * testkit/llm-stub/stub-server.ts): what it finds, that it is stored on the endpoint, and that a change of
 * server or model forgets it.
 */

let stub: StubServer;
let owner: Actor;
let projectId: string;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Probe" })).id;
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

async function endpointFor(model: string, baseUrl = stub.baseURL) {
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: model,
    baseUrl,
    model,
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 30,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  return endpoint.id;
}

describe("the endpoint probe", () => {
  it("finds everything a full server offers, and stores it on the endpoint", async () => {
    const id = await endpointFor("stub-vision");
    const result = await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, id), id);
    expect(result.answered).toBe(true);
    expect(result.capabilities).toMatchObject({
      images: "yes",
      maxImages: 16,
      jsonMode: "json_schema",
      topLogprobs: true,
      usage: true,
      contextLength: null,
    });
    expect(result.capabilities!.latencyMs).toBe(result.latencyMs);
    // 1 test + 4 image counts + json_schema + logprobs + context, then the video modes (./endpoint-probe-video.test.ts,
    // whose requests ask how many frames a video has)
    const imageRequests = stub.requests.filter((r) => !r.text.includes(PROBE_VIDEO_PROMPT));
    expect(imageRequests.map((r) => r.imageCount)).toEqual([1, 2, 4, 8, 16, 0, 0, 0]);
    const stored = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect(capabilitiesOf(stored.capabilities)).toEqual(result.capabilities);
    expect(stored.probedAt?.toISOString()).toBe(result.probedAt);
    // 16 accepted: no known limit, nothing is tiled.
    expect(imageLimitOf(capabilitiesOf(stored.capabilities))).toBeNull();
  });

  it("finds vLLM's image limit, json_object only, no logprobs and the context length its refusal states", async () => {
    const id = await endpointFor("stub-images-per-request-2-json-object-only-no-logprobs-context-8192");
    const { capabilities } = await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, id), id);
    expect(capabilities).toMatchObject({
      images: "yes",
      maxImages: 2,
      jsonMode: "json_object",
      topLogprobs: false,
      usage: true,
      contextLength: 8192,
    });
    // It stopped at the first refused count (4) and did not try 8 or 16.
    expect(
      stub.requests
        .filter((r) => r.videos.length === 0)
        .map((r) => r.imageCount)
        .filter((n) => n > 0),
    ).toEqual([1, 2, 4]);
    expect(imageLimitOf(capabilities)).toBe(2);
  });

  it("a server that refuses every response_format gets none; one without vision takes no images", async () => {
    const noJson = await testEndpoint(
      prisma,
      await projectAccess(prisma, owner, projectId, "endpoints.manage"),
      await endpointFor("stub-no-response-format"),
    );
    expect(noJson.capabilities).toMatchObject({ jsonMode: "none" });
    const textOnly = await testEndpoint(
      prisma,
      await projectAccess(prisma, owner, projectId, "endpoints.manage"),
      await endpointFor("stub-text-only"),
    );
    expect(textOnly.tookImage).toBe("no");
    expect(textOnly.capabilities).toMatchObject({ images: "no", maxImages: 0, jsonMode: "json_schema" });
    // No image limit to tile for: the steps fail as before, with the refusal's words.
    expect(imageLimitOf(textOnly.capabilities)).toBeNull();
  });

  it("answers without usage are found", async () => {
    const id = await endpointFor("stub-no-usage-probe");
    stub.addFault({ fault: { kind: "no_usage" }, times: 1_000_000 });
    expect((await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, id), id)).capabilities).toMatchObject({
      usage: false,
    });
  });

  it("stops when its time runs out, leaving what it did not settle unknown, with a note", async () => {
    const id = await endpointFor("stub-vision-slow-probe");
    // Every answer after the Test's own takes 300 ms; the probe may take 200 ms in all.
    stub.addFault({ fault: { kind: "latency", ms: 300 }, match: "How many images", times: 10 });
    const { capabilities } = await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, id), id, {
      probeBudgetMs: 200,
    });
    expect(capabilities).toMatchObject({ images: "yes", maxImages: 1, jsonMode: null, topLogprobs: null });
    expect(capabilities!.notes.join(" ")).toContain("the probe's 0 s ran out");
    expect(capabilities!.notes.join(" ")).toContain("Images: stopped at 2 per request without an answer");
  });

  it("stores nothing for an endpoint that cannot be reached, and forgets a probe when the model changes", async () => {
    const dead = await endpointFor("stub-vision", "http://127.0.0.1:9/v1");
    const unreachable = await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, dead), dead);
    expect(unreachable).toMatchObject({ answered: false, capabilities: null, probedAt: null });
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: dead } })).probedAt).toBeNull();

    const id = await endpointFor("stub-vision");
    await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, id), id);
    await updateEndpoint(prisma, await accessOfEndpoint(prisma, owner, id), id, { name: "renamed" });
    expect((await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } })).probedAt).not.toBeNull();
    await updateEndpoint(prisma, await accessOfEndpoint(prisma, owner, id), id, { model: "stub-other" });
    const changed = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect(changed.probedAt).toBeNull();
    expect(changed.capabilities).toBeNull();
  });
});

describe("what the engine takes from a probe", () => {
  const schema = { type: "json_schema", json_schema: { name: "x", schema: {} } };
  it("asks for the strongest JSON mode found; never probed or structured output off: as before", () => {
    const found = (jsonMode: "json_schema" | "json_object" | "none" | null) =>
      capabilitiesOf({
        images: "yes",
        maxImages: 1,
        jsonMode,
        topLogprobs: null,
        usage: null,
        contextLength: null,
        latencyMs: 1,
        notes: [],
      });
    expect(responseFormatFor({ structuredOutput: true, capabilities: found("json_schema") }, schema)).toBe(schema);
    expect(responseFormatFor({ structuredOutput: true, capabilities: found("json_object") }, schema)).toEqual({
      type: "json_object",
    });
    expect(responseFormatFor({ structuredOutput: true, capabilities: found("none") }, schema)).toBeNull();
    expect(responseFormatFor({ structuredOutput: true, capabilities: found(null) }, schema)).toBe(schema);
    expect(responseFormatFor({ structuredOutput: true, capabilities: null }, schema)).toBe(schema);
    expect(responseFormatFor({ structuredOutput: false, capabilities: found("json_schema") }, schema)).toBeNull();
  });

  it("reads the context length from vLLM's and OpenAI's words", () => {
    expect(
      contextLengthIn("This model's maximum context length is 32768 tokens. However, you requested 10000031 tokens"),
    ).toBe(32768);
    expect(
      contextLengthIn(
        "'max_tokens' is too large: 10000000. This model's maximum context length is 4096 tokens and your request has 12 input tokens",
      ),
    ).toBe(4096);
    expect(
      contextLengthIn("max_tokens is too large: 10000000. This model supports at most 16384 completion tokens"),
    ).toBeNull();
  });

  it("treats a stored shape it cannot read as never probed", () => {
    expect(capabilitiesOf({ images: "maybe" })).toBeNull();
    expect(capabilitiesOf(null)).toBeNull();
  });
});
