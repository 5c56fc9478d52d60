/**
 * Issue 25: preview a rubric before a run, through `POST /api/v1/projects/{id}/rubric-tasks/preview` against
 * the stub LLM on a real PostgreSQL: the rendered prompt with its frames, the raw answer and the parsed values;
 * a second identical preview answered from the response cache (and a run after it too: same key); a malformed
 * answer shown with its parse error; a rate limit or a timeout as a clear error, not a 500.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { RUBRIC_ANSWER_MARKER } from "@/lib/rubrics/rubric-prompt";
import { createRubricTask } from "@/lib/rubrics/rubric-tasks";

import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { POST as previewRoute } from "../projects/[projectId]/rubric-tasks/preview/route";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { projectAccess } from "@/lib/authz/permissions";

let stub: StubServer;
let owner: Actor;
let ownerKey: string;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "rubric preview")).key;
});
afterAll(async () => stub?.close());
beforeEach(() => stub.reset());
afterEach(() => {
  vi.unstubAllEnvs();
});

function rubric(overrides: Record<string, unknown> = {}) {
  return {
    name: "Motion",
    guidelines: "Be strict about jitter.",
    frames: { mode: "key_frames" },
    criteria: [
      {
        id: "smooth",
        name: "Smoothness",
        definition: "How smooth the motion is.",
        type: "numeric",
        min: 1,
        max: 5,
        step: 1,
      },
      {
        id: "style",
        name: "Style",
        definition: "The look of the video.",
        type: "categorical",
        labels: [{ label: "photo" }, { label: "cartoon" }],
      },
      { id: "text_ok", name: "Clean text", definition: "No garbled on-screen text.", type: "boolean" },
    ],
    prompt: 'Judge this video made from "{{prompt}}". The images are {{frames}}\n\n{{guidelines}}\n\n{{criteria}}',
    reasons: true,
    ...overrides,
  };
}

async function stubEndpoint(projectId: string, overrides: { timeoutSeconds?: number } = {}) {
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  // Below the form's 5 s minimum, so a timeout test takes a second.
  if (overrides.timeoutSeconds)
    await prisma.judgeEndpoint.update({
      where: { id: endpoint.id },
      data: { timeoutSeconds: overrides.timeoutSeconds },
    });
  return endpoint;
}

interface Preview {
  prompt: string;
  frames: { id: string; index: number; timestampS: number; url: string }[];
  scope: { mode: string; index: number; count: number };
  rawAnswer: string;
  parsed: Record<string, { value: number; label: string; reason: string | null }> | null;
  parseError: string | null;
  cached: boolean;
  latencyMs: number;
}

const preview = (key: string, projectId: string, body: Record<string, unknown>) =>
  previewRoute(
    apiRequest(`/api/v1/projects/${projectId}/rubric-tasks/preview`, key, {
      method: "POST",
      body: JSON.stringify(body),
    }),
    routeContext({ projectId }),
  );

async function setUp(name: string, keyFrames = 3) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames, name });
  const endpoint = await stubEndpoint(projectId);
  return { projectId, videoId: videoIds[0]!, endpointId: endpoint.id };
}

describe("POST /api/v1/projects/{id}/rubric-tasks/preview", () => {
  it("renders the prompt with the video's key frames, calls the endpoint once, and parses each criterion with its label; the same preview again is answered from the cache", async () => {
    const { projectId, videoId, endpointId } = await setUp("Rubric preview");
    const response = await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId });
    expect(response.status).toBe(200);
    const first = (await response.json()) as Preview;

    const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { prompt: true } });
    expect(first.prompt).toContain(`Judge this video made from "${video.prompt}"`);
    expect(first.prompt).toContain("3 key frames of the video, attached in time order");
    expect(first.prompt).toContain(
      "- Smoothness (`smooth`, a number from 1 to 5 in steps of 1 (higher is better)): How smooth the motion is.",
    );
    expect(first.prompt).toContain("Be strict about jitter.");
    expect(first.prompt).toContain(RUBRIC_ANSWER_MARKER);

    // The fixture's key frames are frames 1, 4 and 7 of its set.
    expect(first.frames.map((f) => f.index)).toEqual([1, 4, 7]);
    for (const frame of first.frames) expect(frame.url).toBe(`/api/v1/frames/${frame.id}/image`);
    expect(first.scope).toEqual({ mode: "key_frames", index: 0, count: 1 });

    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]).toMatchObject({ rule: "rubric", imageCount: 3 });
    expect(stub.requests[0]!.text).toBe(first.prompt);

    const raw = JSON.parse(first.rawAnswer) as {
      smooth: number;
      style: string;
      text_ok: boolean;
      reasons: Record<string, string>;
    };
    expect(first.parseError).toBeNull();
    expect(first.cached).toBe(false);
    expect(first.parsed).toEqual({
      smooth: { value: raw.smooth, label: String(raw.smooth), reason: raw.reasons.smooth },
      style: { value: ["photo", "cartoon"].indexOf(raw.style), label: raw.style, reason: raw.reasons.style },
      text_ok: { value: raw.text_ok ? 1 : 0, label: raw.text_ok ? "yes" : "no", reason: raw.reasons.text_ok },
    });

    const again = (await (
      await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId })
    ).json()) as Preview;
    expect(again.cached).toBe(true);
    expect(again.rawAnswer).toBe(first.rawAnswer);
    expect(again.parsed).toEqual(first.parsed);
    expect(stub.requests).toHaveLength(1);
  });

  it("caches under the key a run uses: a run of the same definition after the preview answers that video from the cache", async () => {
    const { projectId, videoId, endpointId } = await setUp("Rubric preview then run");
    const definition = rubric();
    expect((await preview(ownerKey, projectId, { definition, videoId, endpointId })).status).toBe(200);
    expect(stub.requests).toHaveLength(1);

    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition,
    });
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: task.pipeline, endpointId, videoIds: [videoId] },
    );
    const calls = await prisma.llmCall.findMany({ where: { runId: run.id }, select: { cached: true } });
    expect(calls).toEqual([{ cached: true }]);
    expect(stub.requests).toHaveLength(1);
  });

  it("previews one cluster of a per-cluster rubric: its frames only, and says how many clusters there are", async () => {
    const { projectId, videoId, endpointId } = await setUp("Rubric preview cluster");
    const definition = rubric({ frames: { mode: "each_cluster" } });
    const second = (await (
      await preview(ownerKey, projectId, { definition, videoId, endpointId, scopeIndex: 1 })
    ).json()) as Preview;
    expect(second.frames.map((f) => f.index)).toEqual([3, 4, 5]);
    expect(second.scope).toEqual({ mode: "each_cluster", index: 1, count: 3 });
    expect(second.prompt).toContain("3 frames around one key frame, attached in time order");
    expect(stub.requests[0]!.imageCount).toBe(3);

    const outOfRange = await preview(ownerKey, projectId, { definition, videoId, endpointId, scopeIndex: 3 });
    expect(outOfRange.status).toBe(400);
    expect(((await outOfRange.json()) as { error: { message: string } }).error.message).toMatch(
      /has 3 clusters \(0–2\)/,
    );
  });

  it("shows a malformed answer with its parse error and caches nothing", async () => {
    const { projectId, videoId, endpointId } = await setUp("Rubric preview malformed");
    const broken = '{"smooth": 4, "style": "photo", "text_ok": tru';
    stub.addFault({ fault: { kind: "content", content: broken }, times: 1 });
    const response = await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId });
    expect(response.status).toBe(200);
    const shown = (await response.json()) as Preview;
    expect(shown.rawAnswer).toBe(broken);
    expect(shown.parsed).toBeNull();
    expect(shown.parseError).toEqual(expect.any(String));
    expect(shown.parseError!.length).toBeGreaterThan(0);
    expect(shown.cached).toBe(false);

    // An answer off the scale is a parse error that names the criterion.
    stub.addFault({
      fault: { kind: "content", content: '{"smooth": 9, "style": "photo", "text_ok": true}' },
      times: 1,
    });
    const offScale = (await (
      await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId })
    ).json()) as Preview;
    expect(offScale.parseError).toMatch(/smooth: 9 is outside 1–5/);
    expect(offScale.cached).toBe(false);

    // Neither was cached: the next preview asks the endpoint again, and gets a valid answer.
    const next = (await (
      await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId })
    ).json()) as Preview;
    expect(next.cached).toBe(false);
    expect(next.parseError).toBeNull();
    expect(stub.requests).toHaveLength(3);
  });

  it("turns a rate limit and a timeout into clear errors (502 / 504), not a 500, and an address the policy refuses into its 400", async () => {
    const { projectId, videoId, endpointId } = await setUp("Rubric preview errors");
    stub.addFault({ fault: { kind: "status", status: 429, retryAfter: 7 }, times: 1 });
    const limited = await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId });
    expect(limited.status).toBe(502);
    const limitedError = (
      (await limited.json()) as { error: { code: string; message: string; details: { endpointStatus: number } } }
    ).error;
    expect(limitedError.code).toBe("endpoint_rate_limited");
    expect(limitedError.message).toMatch(/rate limiting this key \(429\)/);
    expect(limitedError.details.endpointStatus).toBe(429);

    const slow = await stubEndpoint(projectId, { timeoutSeconds: 1 });
    stub.addFault({ fault: { kind: "hang" }, times: 1 });
    const timedOut = await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId: slow.id });
    expect(timedOut.status).toBe(504);
    const timeoutError = ((await timedOut.json()) as { error: { code: string; message: string } }).error;
    expect(timeoutError.code).toBe("endpoint_timeout");
    expect(timeoutError.message).toMatch(/No answer within 1 s/);

    // An address the endpoint policy refuses now (private addresses no longer allowed) is the policy's 400, and no call.
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    const sent = stub.requests.length;
    const refused = await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("endpoint_not_allowed");
    expect(stub.requests).toHaveLength(sent);
  });

  it("refuses a bad definition (400 naming the field), a reviewer (403), and a video or endpoint of another project (404)", async () => {
    const { projectId, videoId, endpointId } = await setUp("Rubric preview refusals");
    const bad = await preview(ownerKey, projectId, {
      definition: rubric({ prompt: "{{promt}}" }),
      videoId,
      endpointId,
    });
    expect(bad.status).toBe(400);
    const badError = ((await bad.json()) as { error: { code: string; details: { problems: { path: string }[] } } })
      .error;
    expect(badError.code).toBe("invalid_rubric");
    expect(badError.details.problems.map((p) => p.path)).toEqual(["prompt"]);

    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const reviewerKey = (await createApiKey(prisma, reviewer.userId, "reviewer")).key;
    expect((await preview(reviewerKey, projectId, { definition: rubric(), videoId, endpointId })).status).toBe(403);

    const other = await setUp("Rubric preview other project", 1);
    expect(
      (await preview(ownerKey, projectId, { definition: rubric(), videoId: other.videoId, endpointId })).status,
    ).toBe(404);
    expect(
      (await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId: other.endpointId })).status,
    ).toBe(404);

    const single = await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId, scopeIndex: 1 });
    expect(single.status).toBe(400);
    expect(((await single.json()) as { error: { message: string } }).error.message).toMatch(
      /judges each video in one call, so the only scope is 0/,
    );

    // What a run would skip is refused with the run's own reason.
    await prisma.video.update({ where: { id: videoId }, data: { prompt: null } });
    const noPrompt = await preview(ownerKey, projectId, { definition: rubric(), videoId, endpointId });
    expect(noPrompt.status).toBe(400);
    expect(((await noPrompt.json()) as { error: { message: string } }).error.message).toBe(
      "A run would skip this: the rubric's prompt uses {{prompt}} and the video has no prompt.",
    );

    // A rubric judged on uniform frames needs that frame set: the video has none, and the preview says so.
    const uniform = await preview(ownerKey, projectId, {
      definition: rubric({ frames: { mode: "uniform", count: 8 } }),
      videoId,
      endpointId,
    });
    expect(uniform.status).toBe(400);
    expect(((await uniform.json()) as { error: { message: string } }).error.message).toMatch(
      /has no frames this rubric can use yet: it needs a uniform frame set of 8 frames/,
    );
    expect(stub.requests).toHaveLength(0);
  });
});
