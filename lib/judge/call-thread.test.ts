import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { createProject } from "../projects/projects";
import { makeUser } from "../testing/fixtures";
import { peakInFlight } from "../testing/stub-in-flight";
import { createStubEndpoint } from "../testing/stub-endpoint";
import { waitFor } from "../testing/worker-processes";
import { CallThread } from "./call-thread";
import { EndpointLimiter } from "./endpoint-limiter";
import { pauseEndpoint } from "./endpoint-slots";
import { LlmError, openAiCompatibleClient } from "./llm-client";
import { SharedLimits } from "./shared-endpoint-limiter";

let stub: StubServer;
const threads: CallThread[] = [];
const limits: SharedLimits[] = [];
beforeAll(async () => {
  stub = await startStubLlm({ latencyMs: 100 });
});
afterAll(async () => {
  for (const l of limits) l.stop();
  await Promise.all(threads.map((t) => t.stop()));
  await stub.close();
});
beforeEach(() => stub.reset());

function callThread() {
  const thread = new CallThread();
  threads.push(thread);
  return thread;
}

/** One endpoint's gate with its own limiter in this process, and a client sending through it. */
function localGate(baseURL: string, maxConcurrency: number) {
  const gate = callThread().gate(
    `local-${maxConcurrency}-${Math.random()}`,
    new EndpointLimiter({ maxConcurrency, requestsPerMinute: null }),
    maxConcurrency,
  );
  return { gate, llm: openAiCompatibleClient({ baseURL, apiKey: null, guardedSend: gate.fetch }) };
}

/** The gate of an endpoint in the database, with limits shared through it, standing in for one worker process. */
function sharedGate(target: { id: string; maxConcurrency: number; requestsPerMinute: number | null }) {
  const shared = new SharedLimits(prisma, { leaseMs: 3000, rateWindowMs: 60_000 });
  limits.push(shared);
  const gate = callThread().gate(target.id, shared.limiterFor(target), target.maxConcurrency);
  return { gate, llm: openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null, guardedSend: gate.fetch }) };
}

async function endpoint(maxConcurrency: number) {
  const owner = await makeUser();
  const project = await createProject(prisma, owner, { name: "Call thread" });
  const created = await createStubEndpoint(prisma, owner, project.id, stub.baseURL, "stub-vision", {
    maxConcurrency,
    timeoutSeconds: 30,
  });
  return { id: created.id, maxConcurrency, requestsPerMinute: null };
}

const request = (text = "hello") => ({ model: "stub-vision", text, images: [] });

/**
 * An OpenAI-compatible endpoint in another process, so it answers while this thread is blocked: "ok" after 100 ms
 * (the first request gets `firstStatus` instead when given, after `firstDelayMs`), and a log of when each request
 * came (GET /log) and when each answer was sent (GET /answers).
 */
async function endpointInAnotherProcess(options: { firstStatus?: number; firstDelayMs?: number } = {}) {
  const server: ChildProcess = spawn(
    process.execPath,
    [
      "-e",
      `const arrivals = [];
       const answers = [];
       require("node:http").createServer((req, res) => {
         if (req.url === "/log") return res.end(JSON.stringify(arrivals));
         if (req.url === "/answers") return res.end(JSON.stringify(answers));
         req.resume();
         req.on("end", () => {
           arrivals.push(Date.now());
           setTimeout(() => {
             answers.push(Date.now());
             res.setHeader("content-type", "application/json");
             if (arrivals.length === 1 && ${options.firstStatus ?? 0}) {
               res.statusCode = ${options.firstStatus ?? 0};
               return res.end(JSON.stringify({ error: { message: "slow down" } }));
             }
             res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "ok" } }] }));
           }, arrivals.length === 1 ? ${options.firstDelayMs ?? 100} : 100);
         });
       }).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [portLine] = (await once(server.stdout!, "data")) as [Buffer];
  const origin = `http://127.0.0.1:${portLine.toString().trim()}`;
  return {
    baseURL: `${origin}/v1`,
    arrivals: async () => (await (await fetch(`${origin}/log`)).json()) as number[],
    answers: async () => (await (await fetch(`${origin}/answers`)).json()) as number[],
    stop: () => server.kill(),
  };
}

describe("CallThread", () => {
  it("sends an endpoint's next request as an answer ends while the main thread is busy, within the endpoint's limit", async () => {
    const server = await endpointInAnotherProcess();
    try {
      const { gate, llm } = localGate(server.baseURL, 2);
      const calls = Array.from({ length: 8 }, (_, i) =>
        gate.limiter.run(() => llm.complete(request(`call ${i}`), { timeoutMs: 10_000 })),
      );
      await waitFor(async () => (await server.arrivals()).length >= 2, 5000, "the first two requests sent");
      // The main thread busy for 1.5 s: the thread sends the queued calls as the first ones are answered.
      const blockedFrom = Date.now();
      while (Date.now() - blockedFrom < 1500);
      const blockedUntil = Date.now();
      const answers = await Promise.all(calls);
      expect(answers.map((a) => a.text)).toEqual(Array(8).fill("ok"));
      // A blocked main thread sends nothing: every request that reached the endpoint while it was blocked was sent by
      // the thread, after an answer (the first two had arrived before the block).
      const during = (await server.arrivals()).filter((t) => t > blockedFrom && t < blockedUntil);
      expect(during.length).toBeGreaterThan(0);
    } finally {
      server.stop();
    }
  });

  it("starts again after a 429 that answered a call cancelled meanwhile", async () => {
    const server = await endpointInAnotherProcess({ firstStatus: 429, firstDelayMs: 3000 });
    try {
      const { gate, llm } = localGate(server.baseURL, 1);
      const cancel = new AbortController();
      const first = gate.limiter
        .run(() => llm.complete(request("cancelled"), { timeoutMs: 10_000, signal: cancel.signal }))
        .catch((e: unknown) => e);
      await waitFor(async () => (await server.arrivals()).length === 1, 5000, "the first request sent");
      // The 429 comes 3 s after the request, while the main thread is busy; the call is cancelled 300 ms after that,
      // before the main thread can read the answer.
      const [sentAt] = await server.arrivals();
      while (Date.now() < sentAt! + 3000 + 300);
      const cancelledAt = Date.now();
      cancel.abort();
      expect(((await first) as LlmError).kind).toBe("cancelled");
      // The endpoint had answered 429 before the cancel.
      expect((await server.answers())[0]).toBeLessThan(cancelledAt);
      const next = await gate.limiter.run(() => llm.complete(request("next"), { timeoutMs: 5000 }));
      expect(next.text).toBe("ok");
    } finally {
      server.stop();
    }
  });

  it("keeps two processes' gates together within the endpoint's max concurrency, and gives every slot back", async () => {
    const target = await endpoint(3);
    const [a, b] = [sharedGate(target), sharedGate(target)];
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b)).map(({ gate, llm }) =>
        gate.limiter.run(() => llm.complete(request(), { timeoutMs: 5000 })),
      ),
    );
    expect(stub.requests).toHaveLength(16);
    expect(peakInFlight(stub.requests)).toBe(3);
    await waitFor(
      async () =>
        (await prisma.endpointSlotLease.count({ where: { endpointId: target.id, kind: "concurrency" } })) === 0,
      3000,
      "every slot back in the table",
    );
  });

  it("takes a slot as a call starts and keeps it while the call gets ready to send, then gives it back", async () => {
    const inner = new EndpointLimiter({ maxConcurrency: 4, requestsPerMinute: null });
    let slotsTaken = 0;
    let slotsHeld = 0;
    const counting = {
      run<T>(task: () => Promise<T>) {
        slotsTaken += 1;
        return inner.run(async () => {
          slotsHeld += 1;
          try {
            return await task();
          } finally {
            slotsHeld -= 1;
          }
        });
      },
    };
    const gate = callThread().gate("getting ready", counting, 4);
    const llm = openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null, guardedSend: gate.fetch });
    const answer = gate.limiter.run(async () => {
      // The engine writes the call's "sent" row first: the slot is taken meanwhile, and not given back and taken again.
      await waitFor(async () => slotsHeld === 1, 2000, "a slot taken while the call gets ready");
      await new Promise((r) => setTimeout(r, 300));
      return llm.complete(request(), { timeoutMs: 5000 });
    });
    expect((await answer).text).toBeTruthy();
    expect(slotsTaken).toBe(1);
    await waitFor(async () => slotsHeld === 0, 2000, "the slot given back once no call wants it");
  });

  it("starts nothing after a 429 until its retry-after ends", async () => {
    const { gate, llm } = localGate(stub.baseURL, 1);
    stub.addFault({ fault: { kind: "status", status: 429, retryAfterMs: 800 } });
    const outcomes = await Promise.all(
      ["first", "second", "third"].map((text) =>
        gate.limiter
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

  it("stops sending while another worker has the endpoint paused", { timeout: 20_000 }, async () => {
    const target = await endpoint(2);
    const { gate, llm } = sharedGate(target);
    const calls = Array.from({ length: 40 }, (_, i) =>
      gate.limiter.run(() => llm.complete(request(`call ${i}`), { timeoutMs: 10_000 })),
    );
    await waitFor(async () => stub.requests.length >= 4, 5000, "calls going");
    // Another worker's 429 paused the endpoint for 2.5 s.
    const pausedAt = Date.now();
    await pauseEndpoint(prisma, target.id, 2500);
    await Promise.all(calls);
    // The pause reaches the thread within two looks (one may find the endpoint unpaused a moment before: 400 ms) and
    // the look's own answer (slower on a loaded machine); calls already sent finish.
    const startedInPause = stub.requests.filter((r) => r.at > pausedAt + 1000 && r.at < pausedAt + 2500 - 50);
    expect(startedInPause).toEqual([]);
    expect(stub.requests).toHaveLength(40);
  });

  it("cancels a queued call without sending it, and an answer in flight by dropping it", async () => {
    const { gate, llm } = localGate(stub.baseURL, 1);
    // The slow answer would take a minute: a cancel that waited for it would outlast the test's timeout.
    stub.addFault({ fault: { kind: "latency", ms: 60_000 } });
    const slow = new AbortController();
    const queued = new AbortController();
    const first = gate.limiter
      .run(() => llm.complete(request("slow"), { timeoutMs: 120_000, signal: slow.signal }))
      .catch((e: unknown) => e);
    const second = gate.limiter
      .run(() => llm.complete(request("never sent"), { timeoutMs: 120_000, signal: queued.signal }))
      .catch((e: unknown) => e);
    await waitFor(async () => stub.requests.length === 1, 10_000, "the slow call sent");
    queued.abort();
    expect(((await second) as LlmError).kind).toBe("cancelled");
    slow.abort();
    expect(((await first) as LlmError).kind).toBe("cancelled");
    // The slot went back: with one slot, the next call is sent and answered while the slow one's answer is still
    // a minute away at the stub.
    await gate.limiter.run(() => llm.complete(request("after"), { timeoutMs: 10_000 }));
    expect(stub.requests.map((r) => r.text)).toEqual(["slow", "after"]);
    const [slowAt, after] = [stub.requests[0]!.at, stub.requests[1]!];
    expect(after.endedAt).toBeDefined();
    expect(after.at).toBeLessThan(slowAt + 60_000);
  });

  it("refuses a host that resolves to a private address when connecting, unless private endpoints are allowed", async () => {
    const { gate, llm } = localGate(stub.baseURL.replace("127.0.0.1", "localhost"), 2);
    const allowed = process.env.ALLOW_PRIVATE_ENDPOINTS;
    process.env.ALLOW_PRIVATE_ENDPOINTS = "0";
    try {
      const refused = await gate.limiter
        .run(() => llm.complete(request(), { timeoutMs: 5000 }))
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(LlmError);
      expect((refused as LlmError).kind).toBe("not_allowed");
      expect(stub.requests).toHaveLength(0);
    } finally {
      process.env.ALLOW_PRIVATE_ENDPOINTS = allowed;
    }
    await gate.limiter.run(() => llm.complete(request(), { timeoutMs: 5000 }));
    expect(stub.requests).toHaveLength(1);
  });

  it("fails a call whose answer is larger than 64 MiB, and goes on with the next", { timeout: 30_000 }, async () => {
    let served = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        if (served++ > 0)
          return res.end(
            JSON.stringify({
              id: "c",
              object: "chat.completion",
              created: 0,
              model: "m",
              choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "ok" } }],
            }),
          );
        const piece = Buffer.alloc(1024 * 1024, "a");
        let sent = 0;
        const more = () => {
          while (sent < 65) {
            sent++;
            if (!res.write(piece)) return void res.once("drain", more);
          }
          res.end();
        };
        res.on("close", () => (sent = 65));
        more();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { gate, llm } = localGate(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, 1);
      const huge = await gate.limiter
        .run(() => llm.complete(request(), { timeoutMs: 20_000 }))
        .catch((e: unknown) => e);
      expect(huge).toBeInstanceOf(LlmError);
      expect((huge as LlmError).kind).toBe("network");
      expect((huge as LlmError).excerpt).toContain("larger than 64 MiB");
      const next = await gate.limiter.run(() => llm.complete(request(), { timeoutMs: 5000 }));
      expect(next.text).toBe("ok");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("fails the calls of a thread that stopped as network errors, and sends the next ones from a new thread", async () => {
    const thread = callThread();
    const gate = thread.gate("stopping", new EndpointLimiter({ maxConcurrency: 2, requestsPerMinute: null }), 2);
    const llm = openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null, guardedSend: gate.fetch });
    stub.addFault({ fault: { kind: "latency", ms: 3000 }, times: 2 });
    const stranded = Array.from({ length: 3 }, () =>
      gate.limiter.run(() => llm.complete(request(), { timeoutMs: 10_000 })).catch((e: unknown) => e),
    );
    await waitFor(async () => stub.requests.length === 2, 3000, "two calls sent");
    await thread.stop();
    for (const outcome of await Promise.all(stranded)) expect((outcome as LlmError).kind).toBe("network");
    const answer = await gate.limiter.run(() => llm.complete(request("again"), { timeoutMs: 5000 }));
    expect(answer.text).toBeTruthy();
  });
});
