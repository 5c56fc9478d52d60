// The judge's call path as a worker runs it: each call takes a slot from its endpoint's limiter, shared with the other
// workers through PostgreSQL (shared-endpoint-limiter.ts), and goes out through guardedFetch (guarded-fetch.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { peakInFlight } from "../../../testkit/testing/stub-in-flight";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { waitFor } from "../../../testkit/testing/worker-processes";
import { LlmError, openAiCompatibleClient } from "./llm-client";
import { guardedFetch } from "./guarded-fetch";
import { SharedLimits } from "../endpoints/shared-endpoint-limiter";

let stub: StubServer;
const limits: SharedLimits[] = [];
beforeAll(async () => {
  stub = await startStubLlm({ latencyMs: 100 });
});
afterAll(async () => {
  for (const l of limits) l.stop();
  await stub.close();
});
beforeEach(() => stub.reset());

async function endpoint(maxConcurrency: number) {
  const owner = await makeUser();
  const project = await createProject(prisma, owner, { name: "Call path" });
  const created = await createStubEndpoint(prisma, owner, project.id, stub.baseURL, "stub-vision", {
    maxConcurrency,
    timeoutSeconds: 30,
  });
  return { id: created.id, maxConcurrency, requestsPerMinute: null };
}

/** One worker process's view of an endpoint: its shared limiter, and a client that sends through guardedFetch. */
function worker(target: { id: string; maxConcurrency: number; requestsPerMinute: number | null }) {
  const shared = new SharedLimits(prisma, { leaseMs: 3000, rateWindowMs: 60_000 });
  limits.push(shared);
  const llm = openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null, guardedSend: guardedFetch() });
  return { limiter: shared.limiterFor(target), llm };
}

const request = (text = "hello") => ({ model: "stub-vision", text, images: [] });

describe("the judge's call path", () => {
  it("keeps two processes together within the endpoint's max concurrency, and gives every slot back", async () => {
    const target = await endpoint(3);
    const [a, b] = [worker(target), worker(target)];
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b)).map(({ limiter, llm }) =>
        limiter.run(() => llm.complete(request(), { timeoutMs: 5000 })),
      ),
    );
    expect(stub.requests).toHaveLength(16);
    expect(peakInFlight(stub.requests)).toBe(3);
    await waitFor(
      async () =>
        (await prisma.endpointSlotLease.count({ where: { endpointId: target.id, kind: "concurrency" } })) === 0,
      5000,
      "every slot back in the table",
    );
  });

  it("starts nothing after a 429 until its retry-after ends", async () => {
    const { limiter, llm } = worker(await endpoint(1));
    stub.addFault({ fault: { kind: "status", status: 429, retryAfterMs: 800 } });
    const outcomes = await Promise.all(
      ["first", "second", "third"].map((text) =>
        limiter
          .run(() => llm.complete(request(text), { timeoutMs: 5000 }))
          .then(
            () => "ok",
            (e: unknown) => (e instanceof LlmError ? e.kind : "other"),
          ),
      ),
    );
    expect(outcomes).toEqual(["rate_limited", "ok", "ok"]);
    const limitedAt = stub.requests[0]!.endedAt!;
    expect(stub.requests[1]!.at - limitedAt).toBeGreaterThanOrEqual(800 - 20);
  });

  it("cancels a queued call without sending it, and an answer in flight by dropping it, and frees the slot", async () => {
    const { limiter, llm } = worker(await endpoint(1));
    // The slow answer would take a minute: a cancel that waited for it would outlast the test's timeout.
    stub.addFault({ fault: { kind: "latency", ms: 60_000 } });
    const slow = new AbortController();
    const queued = new AbortController();
    const first = limiter
      .run(() => llm.complete(request("slow"), { timeoutMs: 120_000, signal: slow.signal }))
      .catch((e: unknown) => e);
    const second = limiter
      .run(() => llm.complete(request("never sent"), { timeoutMs: 120_000, signal: queued.signal }))
      .catch((e: unknown) => e);
    await waitFor(async () => stub.requests.length === 1, 10_000, "the slow call sent");
    queued.abort();
    slow.abort();
    expect(((await first) as LlmError).kind).toBe("cancelled");
    expect(((await second) as LlmError).kind).toBe("cancelled");
    // The slot went back: with one slot, the next call is sent and answered while the slow one's answer is still
    // a minute away at the stub; the queued call was never sent.
    await limiter.run(() => llm.complete(request("after"), { timeoutMs: 10_000 }));
    expect(stub.requests.map((r) => r.text)).toEqual(["slow", "after"]);
    expect(stub.requests[1]!.endedAt).not.toBeNull();
  });
});
