/**
 * The cost, budget and manifest routes over HTTP: a dry run answers its estimate and starts nothing; a bad budget,
 * a document that is not a manifest, or a manifest naming a prompt version this project does not have is refused
 * and starts nothing; the manifest is every member's to download, never a stranger's, and never carries the key;
 * only an owner resumes, only a run its budget stopped, with a budget that is a positive amount.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { declaredAnswer } from "@/testkit/testing/declared-answer";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { createStubEndpoint } from "@/testkit/testing/stub-endpoint";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { POST as startRun } from "../projects/[projectId]/runs/route";
import { GET as getManifest } from "./[runId]/manifest/route";
import { POST as resume } from "./[runId]/resume/route";
import { projectAccess } from "@/lib/authz/permissions";

let stub: StubServer;
let owner: Actor;
let viewer: Actor;
let stranger: Actor;
let projectId: string;
let endpointId: string;
let runId: string;
const keys = new Map<Actor, string>();

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  ({ projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 }));
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  endpointId = (
    await createStubEndpoint(prisma, owner, projectId, stub.baseURL, "stub-vision", { apiKey: "sk-route-secret-99" })
  ).id;
  const run = await createRun(
    { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse({ pipeline: "hallucination", endpointId }),
  );
  runId = run.id;
  for (const actor of [owner, viewer, stranger]) keys.set(actor, (await createApiKey(prisma, actor.userId, "t")).key);
}, 120_000);
afterAll(() => stub?.close());

const post = (actor: Actor, path: string, body: unknown) =>
  apiRequest(path, keys.get(actor)!, { method: "POST", body: JSON.stringify(body) });
const runs = () => prisma.judgeRun.count({ where: { projectId } });

describe("POST …/runs: dry runs, budgets and manifests", () => {
  it("answers a dry run with its estimate (200) and starts nothing", async () => {
    const before = await runs();
    const response = await startRun(
      post(owner, `/api/v1/projects/${projectId}/runs`, { pipeline: "hallucination", endpointId, dryRun: true }),
      routeContext({ projectId }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { dryRun: boolean; estimate: { calls: number } };
    expect(body.dryRun).toBe(true);
    expect(body.estimate.calls).toBe(6);
    // The answer is what the route's declared schema says, field for field (a field it does not declare is stripped).
    expect(declaredAnswer(startRun, 200, body)).toEqual(body);
    expect(await runs()).toBe(before);
  });

  it("refuses a budget that is not a positive amount, a document that is not a manifest, and another project's prompt version", async () => {
    const before = await runs();
    const path = `/api/v1/projects/${projectId}/runs`;
    for (const budgetUsd of [-1, 0, "5"]) {
      const response = await startRun(
        post(owner, path, { pipeline: "hallucination", endpointId, budgetUsd }),
        routeContext({ projectId }),
      );
      expect(response.status).toBe(400);
    }
    const notManifest = await startRun(
      post(owner, path, { manifest: { format: "other", version: 1 } }),
      routeContext({ projectId }),
    );
    expect(notManifest.status).toBe(400);
    const manifest = (await (
      await getManifest(apiRequest(`/api/v1/runs/${runId}/manifest`, keys.get(owner)!), routeContext({ runId }))
    ).json()) as { promptVersions: unknown[] };
    manifest.promptVersions = [{ templateId: "hallucination/static-kg", id: "cmnotaversion000000000000", hash: "0" }];
    const gone = await startRun(post(owner, path, { manifest }), routeContext({ projectId }));
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toContain("no longer exists");
    expect(await runs()).toBe(before);
  });

  it("names what is wrong inside the request it chose, not a bare 'Invalid input'", async () => {
    const path = `/api/v1/projects/${projectId}/runs`;
    const message = async (body: unknown) => {
      const response = await startRun(post(owner, path, body), routeContext({ projectId }));
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: { message: string } }).error.message;
    };
    // A budgeted ensemble without its temperature: the run request's own field is named.
    expect(
      await message({ pipeline: "hallucination", endpointId, budgetUsd: 1, ensemble: { kind: "samples", samples: 3 } }),
    ).toMatch(/^ensemble\.temperature: /);
    // A manifest that is not one: the manifest's field is named, not the plain request's.
    expect(await message({ manifest: { format: "other", version: 1 } })).toMatch(/^manifest\.format: /);
  });
});

describe("GET /runs/{id}/manifest", () => {
  it("is every member's download, without the endpoint's key; a stranger finds no run", async () => {
    const response = await getManifest(
      apiRequest(`/api/v1/runs/${runId}/manifest`, keys.get(viewer)!),
      routeContext({ runId }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="run-${runId}-manifest.json"`);
    const text = await response.text();
    expect(text).not.toContain("sk-route-secret-99");
    expect(JSON.parse(text)).toMatchObject({ format: "framejury-run-manifest", endpoint: { baseUrl: stub.baseURL } });
    const strangers = await getManifest(
      apiRequest(`/api/v1/runs/${runId}/manifest`, keys.get(stranger)!),
      routeContext({ runId }),
    );
    expect(strangers.status).toBe(404);
  });
});

describe("POST /runs/{id}/resume", () => {
  it("refuses a bad budget (400), a member who may not manage runs (403), and a run its budget did not stop (409)", async () => {
    const path = `/api/v1/runs/${runId}/resume`;
    expect((await resume(post(owner, path, { budgetUsd: -2 }), routeContext({ runId }))).status).toBe(400);
    expect((await resume(post(owner, path, {}), routeContext({ runId }))).status).toBe(400);
    expect((await resume(post(viewer, path, { budgetUsd: 5 }), routeContext({ runId }))).status).toBe(403);
    expect((await resume(post(owner, path, { budgetUsd: 5 }), routeContext({ runId }))).status).toBe(409);
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");
  });
});
