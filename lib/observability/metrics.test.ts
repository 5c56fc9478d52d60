import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgBoss } from "pg-boss";
import { GET as getMetrics } from "@/app/api/metrics/route";
import { GET as getHealth } from "@/app/api/health/route";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";

import { createRun } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { metricsAccess } from "./metrics";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const TOKEN = "metrics-test-token-0123456789";
const QUEUE = `metrics-test-${Date.now().toString(36)}`;
let stub: StubServer;
let boss: PgBoss;

beforeAll(async () => {
  stub = await startStubLlm();
  // A queue of its own (no worker listens to it), so its depth is this test's alone.
  boss = new PgBoss({ connectionString: process.env.DATABASE_URL!, supervise: false, schedule: false });
  boss.on("error", () => {});
  await boss.start();
  await boss.createQueue(QUEUE);
});
afterAll(async () => {
  await boss.deleteQueue(QUEUE).catch(() => {});
  await boss.stop({ graceful: false }).catch(() => {});
  await stub.close();
  delete process.env.METRICS_TOKEN;
});

const scrape = (authorization?: string) =>
  getMetrics(new Request("http://localhost:3000/api/metrics", { headers: authorization ? { authorization } : {} }));

/** The value of one sample of the Prometheus text (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe("who may read GET /api/metrics", () => {
  it("is absent without METRICS_TOKEN, and needs that Bearer token when it is set", async () => {
    delete process.env.METRICS_TOKEN;
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404);
    process.env.METRICS_TOKEN = TOKEN;
    const missing = await scrape();
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    expect((await scrape("Bearer not-the-token")).status).toBe(401);
    expect((await scrape(TOKEN)).status).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(200);
    expect(metricsAccess(`bearer ${TOKEN}`, TOKEN)).toBe("ok");
    expect(metricsAccess(`Bearer ${TOKEN}x`, TOKEN)).toBe("unauthorized");
    expect(metricsAccess(`Bearer ${TOKEN}`, "")).toBe("disabled");
  });
});

describe("what GET /api/metrics reports", () => {
  it(
    "runs by status, calls, errors, retries, tokens and cost by endpoint, queue depth and HTTP latency",
    { timeout: 60_000 },
    async () => {
      process.env.METRICS_TOKEN = TOKEN;
      const owner = await makeUser();
      const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
      const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "metered stub",
        baseUrl: stub.baseURL,
        model: "stub-vision",
        apiKey: null,
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 2,
        requestsPerMinute: null,
        timeoutSeconds: 30,
        structuredOutput: true,
        pricePer1kInput: 0.5,
        pricePer1kOutput: 1,
      });
      // One 500 that is retried (the call then succeeds), and one video summary that fails for good (503 on every attempt).
      stub.addFault({ fault: { kind: "status", status: 500 }, match: "static", times: 1 });
      stub.addFault({ fault: { kind: "status", status: 503 }, match: "summar", times: 2 });
      const deps = testJudgeDeps();
      const run = await createRun(
        { prisma, queue: inlineJudgeQueue(deps), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { pipeline: "hallucination", endpointId: endpoint.id },
      );
      const calls = await prisma.llmCall.findMany({ where: { runId: run.id } });
      const ok = calls.filter((c) => !c.cached && c.error === null);
      const errors = calls.filter((c) => c.error !== null);
      expect(errors.length).toBeGreaterThanOrEqual(1);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      const retries = calls.reduce((sum, c) => sum + c.retries, 0);
      expect(retries).toBeGreaterThanOrEqual(2);
      const promptTokens = calls.reduce((sum, c) => sum + c.promptTokens, 0);
      const cost = calls.reduce((sum, c) => sum + c.costUsd, 0);
      expect(promptTokens).toBeGreaterThan(0);

      await boss.send(QUEUE, { n: 1 });
      await boss.send(QUEUE, { n: 2 });
      await getHealth(new Request("http://localhost:3000/api/health"));

      const response = await scrape(`Bearer ${TOKEN}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const text = await response.text();
      const labels = { endpoint: endpoint.id, endpoint_name: "metered stub" };
      expect(sample(text, "framejury_llm_calls_total", { ...labels, outcome: "ok" })).toBe(ok.length);
      expect(sample(text, "framejury_llm_calls_total", { ...labels, outcome: "error" })).toBe(errors.length);
      expect(sample(text, "framejury_llm_calls_total", { ...labels, outcome: "cached" })).toBe(0);
      expect(sample(text, "framejury_llm_retries_total", labels)).toBe(retries);
      expect(sample(text, "framejury_llm_tokens_total", { ...labels, kind: "prompt" })).toBe(promptTokens);
      expect(sample(text, "framejury_llm_cost_usd_total", labels)).toBeCloseTo(cost, 9);
      expect(sample(text, "framejury_runs", { status: "done" })).toBeGreaterThanOrEqual(1);
      expect(sample(text, "framejury_runs", { status: "cancelled" })).toBeGreaterThanOrEqual(0);
      expect(sample(text, "framejury_queue_jobs", { queue: QUEUE, state: "created" })).toBe(2);
      expect(sample(text, "framejury_queue_jobs", { queue: QUEUE, state: "active" })).toBe(0);
      expect(
        sample(text, "framejury_http_request_duration_seconds_count", {
          method: "GET",
          route: "/api/health",
          status: "200",
        }),
      ).toBeGreaterThanOrEqual(1);
      expect(text).toContain("# TYPE framejury_http_request_duration_seconds histogram");
      expect(text).toContain("process_cpu_user_seconds_total");
    },
  );
});
