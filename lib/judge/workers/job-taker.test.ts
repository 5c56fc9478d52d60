import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createTestDatabase } from "../../../testkit/testing/test-database";
import { waitFor } from "../../../testkit/testing/worker-process";
import { JobTaker, wakeTakers } from "./job-taker";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let boss: PgBoss;
/** Every fetch any taker makes, counted by queue; and how many jobs each completion statement carried, by queue. */
const fetches = new Map<string, number>();
/** When each fetch began (performance.now()), per queue. */
const fetchedAt = new Map<string, number[]>();
const completions = new Map<string, number[]>();
const answerDelayMs = new Map<string, number>();
const takers: JobTaker<{ n: number }>[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  // A database of its own: no other test's worker takes these jobs.
  database = await createTestDatabase({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "job_taker");
  const { PgBoss } = await import("pg-boss");
  boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false });
  ignoreConnectionLoss(boss);
  await boss.start();
  const fetch = boss.fetch.bind(boss) as (name: string, options: object) => Promise<unknown>;
  (boss as unknown as { fetch: typeof fetch }).fetch = async (name, options) => {
    fetches.set(name, (fetches.get(name) ?? 0) + 1);
    fetchedAt.set(name, [...(fetchedAt.get(name) ?? []), performance.now()]);
    const jobs = await fetch(name, options);
    // A slow answer: the jobs are claimed, and reach the taker this much later.
    await sleep(answerDelayMs.get(name) ?? 0);
    return jobs;
  };
  const complete = boss.complete.bind(boss) as (name: string, ...rest: unknown[]) => Promise<unknown>;
  (boss as unknown as { complete: typeof complete }).complete = async (name, ...rest) => {
    const jobs = Array.isArray(rest[0]) ? rest[0].length : 1;
    completions.set(name, [...(completions.get(name) ?? []), jobs]);
    return complete(name, ...rest);
  };
});
afterAll(async () => {
  for (const taker of takers) await taker.stop(0);
  await boss?.stop({ graceful: false }).catch(() => {});
  await database?.drop();
});

/**
 * pg-boss reports a lost connection (the database's drop at the end ends any still open, e.g. the last test's boss
 * that stops without its taker) as an "error" event, which an emitter with no listener throws. The worker's own boss
 * logs it (lib/judge/workers/queue.ts).
 */
function ignoreConnectionLoss(queue: { on(event: "error", listener: (error: Error) => void): unknown }) {
  queue.on("error", () => {});
}

function taker(
  queue: string,
  capacity: number,
  handle: (job: {
    id: string;
    data: { n: number };
    windDown(): void;
    ready(): void;
    superseded: AbortSignal;
  }) => Promise<void | "unfinished">,
  options: { heartbeatMs?: number; setupLimit?: number; idlePollMs?: number; wokenPollMs?: number } = {},
) {
  const errors: string[] = [];
  const started = new JobTaker<{ n: number }>(boss, {
    queue,
    capacity,
    handle,
    log: (error, what) => errors.push(`${what}: ${String(error)}`),
    ...options,
  }).start();
  takers.push(started);
  return started;
}

/** Connections of this database listening for wakes (a listener's last statement until its first heartbeat, 10 s on). */
async function listeners(): Promise<number> {
  const { rows } = await boss
    .getDb()
    .executeSql(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "framejury_jobs_added"'`,
    );
  return (rows[0] as { n: number }).n;
}

async function jobStates(queue: string, ids: string[]) {
  return Promise.all(ids.map(async (id) => (await boss.getJobById(queue, id))?.state));
}

/** Queues `count` jobs numbered from 0 and handles them with a taker of `capacity` running `work`; the most running at once, and the numbers handled. */
async function judgeJobs(
  queue: string,
  count: number,
  capacity: number,
  work: (job: { windDown(): void; ready(): void }) => Promise<unknown>,
  options: { setupLimit?: number } = {},
) {
  await boss.createQueue(queue);
  const ids = (await boss.insert(
    queue,
    Array.from({ length: count }, (_, n) => ({ data: { n } })),
    { returnId: true },
  )) as string[];
  let running = 0;
  let peak = 0;
  const handled: number[] = [];
  taker(
    queue,
    capacity,
    async (job) => {
      peak = Math.max(peak, ++running);
      await work(job);
      handled.push(job.data.n);
      running -= 1;
    },
    options,
  );
  await waitFor(
    async () => (await jobStates(queue, ids)).every((state) => state === "completed"),
    20_000,
    "every job completed",
  );
  return { peak, handled: handled.sort((a, b) => a - b) };
}

describe("JobTaker", () => {
  it("handles at most its capacity at once and completes every job it handled", { timeout: 30_000 }, async () => {
    const { peak, handled } = await judgeJobs("taker-capacity", 30, 4, () => sleep(40));
    expect(peak).toBe(4);
    expect(handled).toEqual(Array.from({ length: 30 }, (_, n) => n));
    // Jobs taken together end together, and are completed in one statement: one a job before. (Not a count of
    // statements: a batch that fails is completed again job by job, and the rounds after it then end apart.)
    expect(Math.max(...completions.get("taker-capacity")!)).toBe(4);
  });

  it(
    "lends the slot of a job that winds down to the next job, up to twice its capacity running, and completes every job",
    { timeout: 30_000 },
    async () => {
      const { peak, handled } = await judgeJobs("taker-wind-down", 12, 2, async (job) => {
        // Said twice, counted once.
        job.windDown();
        job.windDown();
        await sleep(150);
      });
      // Without winding down the peak is the capacity (the test above); with it, twice that and no more.
      expect(peak).toBe(4);
      expect(handled).toEqual(Array.from({ length: 12 }, (_, n) => n));
    },
  );

  it(
    "sets up at most its setup limit of jobs at once: a job that says it is ready lets the next one start",
    { timeout: 30_000 },
    async () => {
      let settingUp = 0;
      let peakSettingUp = 0;
      const { peak, handled } = await judgeJobs(
        "taker-setup",
        16,
        8,
        async (job) => {
          peakSettingUp = Math.max(peakSettingUp, ++settingUp);
          await sleep(30);
          settingUp -= 1;
          // Said twice, counted once.
          job.ready();
          job.ready();
          await sleep(200);
        },
        { setupLimit: 2 },
      );
      expect(peakSettingUp).toBe(2);
      // Ready jobs leave room for more: the taker still fills its capacity, two by two.
      expect(peak).toBeGreaterThanOrEqual(6);
      expect(peak).toBeLessThanOrEqual(8);
      expect(handled).toEqual(Array.from({ length: 16 }, (_, n) => n));
    },
  );

  it("counts a job that ends without saying it is ready as ready", { timeout: 30_000 }, async () => {
    const { handled } = await judgeJobs("taker-setup-end", 6, 4, () => sleep(20), { setupLimit: 1 });
    expect(handled).toEqual(Array.from({ length: 6 }, (_, n) => n));
  });

  it(
    "looks at an empty queue about once a second while it listens for wakes, whatever its capacity (pg-boss's loop per slot: twice a second each)",
    { timeout: 30_000 },
    async () => {
      await boss.createQueue("taker-idle");
      taker("taker-idle", 512, async () => {});
      await sleep(500);
      const before = fetches.get("taker-idle") ?? 0;
      await sleep(2000);
      const idleFetches = (fetches.get("taker-idle") ?? 0) - before;
      expect(idleFetches).toBeGreaterThanOrEqual(1);
      // About once a second: no two looks (from the last one before the two seconds) less than a second apart. A
      // busy machine only lengthens the pauses, so this holds however slowly the test runs.
      const looks = (fetchedAt.get("taker-idle") ?? []).slice(Math.max(0, before - 1));
      const pauses = looks.slice(1).map((at, i) => Math.round(at - looks[i]!));
      expect(pauses.filter((pause) => pause < 950)).toEqual([]);
      // A job sent to the empty queue without a wake is still taken, at a later look.
      let took = false;
      await takers.at(-1)!.stop(0);
      await boss.createQueue("taker-pickup");
      taker("taker-pickup", 512, async () => void (took = true));
      await sleep(300);
      await boss.send("taker-pickup", { n: 1 });
      await waitFor(async () => took, 15_000, "the job taken");
    },
  );

  it(
    "takes new jobs at once when wakeTakers says its queue has them, and ignores wakes for other queues",
    { timeout: 30_000 },
    async () => {
      await boss.createQueue("taker-wake");
      const handled: number[] = [];
      const before = await listeners();
      // It would look again only after a minute on its own.
      taker("taker-wake", 4, async (job) => void handled.push(job.data.n), { idlePollMs: 60_000, wokenPollMs: 60_000 });
      await waitFor(async () => (await listeners()) > before, 20_000, "the taker listening");
      // The look it takes once it listens (wakes sent before were missed).
      await sleep(200);
      const looks = fetches.get("taker-wake") ?? 0;
      await wakeTakers(boss, "taker-wake-other");
      await sleep(300);
      expect(fetches.get("taker-wake")).toBe(looks);

      await boss.send("taker-wake", { n: 1 });
      await wakeTakers(boss, "taker-wake");
      await waitFor(async () => handled.length === 1, 5000, "the job taken once woken");
      expect(handled).toEqual([1]);
    },
  );

  it("has closed its listening connection once stop returns", { timeout: 30_000 }, async () => {
    await boss.createQueue("taker-stop-listening");
    const db = boss.getDb();
    const listen = db.listen!.bind(db);
    let closed = false;
    db.listen = async (...args: Parameters<typeof listen>) => {
      const handle = await listen(...args);
      return { close: async () => void (await handle.close(), (closed = true)) };
    };
    try {
      const before = await listeners();
      const stopping = taker("taker-stop-listening", 2, async () => {});
      await waitFor(async () => (await listeners()) > before, 20_000, "the taker listening");
      await stopping.stop(0);
      expect(closed).toBe(true);
      expect(await listeners()).toBe(before);
    } finally {
      db.listen = listen;
    }
  });

  it(
    "looks again after a fetch that was under way when a wake came, even if that fetch came back short",
    { timeout: 30_000 },
    async () => {
      await boss.createQueue("taker-wake-during-fetch");
      const handled: number[] = [];
      let secondTaken: () => void = () => {};
      const second = new Promise<void>((resolve) => (secondTaken = resolve));
      const before = await listeners();
      // Job 1 runs until job 2 is taken (5 s at most), so that no job's end makes the taker look.
      const handle = async (job: { data: { n: number } }) => {
        handled.push(job.data.n);
        if (job.data.n === 2) secondTaken();
        else await Promise.race([second, sleep(5000)]);
      };
      taker("taker-wake-during-fetch", 4, handle, { idlePollMs: 60_000, wokenPollMs: 60_000 });
      await waitFor(async () => (await listeners()) > before, 20_000, "the taker listening");
      await sleep(200);
      // Each fetch's jobs reach the taker 400 ms after it claimed them: the second wake comes while the first fetch,
      // which claimed only job 1, is under way.
      answerDelayMs.set("taker-wake-during-fetch", 400);
      await boss.send("taker-wake-during-fetch", { n: 1 });
      await wakeTakers(boss, "taker-wake-during-fetch");
      await sleep(100);
      await boss.send("taker-wake-during-fetch", { n: 2 });
      await wakeTakers(boss, "taker-wake-during-fetch");
      await waitFor(async () => handled.length === 2, 4000, "both jobs taken");
      expect(handled.sort()).toEqual([1, 2]);
    },
  );

  it(
    "runs a job handed out again while its first attempt still runs here only after that attempt ends, and tells the first it was superseded",
    { timeout: 30_000 },
    async () => {
      const queue = "taker-superseded";
      await boss.createQueue(queue, { retryLimit: 3, retryDelay: 0 });
      const id = (await boss.send(queue, { n: 1 }))!;
      const order: string[] = [];
      let running = 0;
      let peak = 0;
      let firstStarted: () => void = () => {};
      const started = new Promise<void>((resolve) => (firstStarted = resolve));
      taker(
        queue,
        2,
        async (job) => {
          const attempt = order.filter((line) => line.startsWith("start")).length;
          order.push(`start ${attempt}`);
          peak = Math.max(peak, ++running);
          if (attempt === 0) {
            firstStarted();
            // As a starved worker's judge would: at work until told that the job went to another attempt.
            await waitFor(async () => job.superseded.aborted, 10_000, "the first attempt told it was superseded");
          }
          running -= 1;
          order.push(`end ${attempt}`);
        },
        { heartbeatMs: 100, idlePollMs: 50 },
      );
      await started;
      // The heartbeat lapsed as far as pg-boss knows: the attempt is failed back to the queue and taken again.
      await boss.fail(queue, [{ id, retryCount: 0 }], { message: "heartbeat lapsed" });
      await waitFor(async () => (await boss.getJobById(queue, id))?.state === "completed", 20_000, "the job completed");
      expect(order).toEqual(["start 0", "end 0", "start 1", "end 1"]);
      expect(peak).toBe(1);
      expect((await boss.getJobById(queue, id))?.retryCount).toBe(1);
    },
  );

  it(
    "tells a handler that its job went to another worker when its heartbeat no longer reaches the attempt",
    { timeout: 30_000 },
    async () => {
      const queue = "taker-superseded-elsewhere";
      await boss.createQueue(queue, { retryLimit: 3, retryDelay: 0 });
      const id = (await boss.send(queue, { n: 1 }))!;
      const seen: string[] = [];
      let firstStarted: () => void = () => {};
      const started = new Promise<void>((resolve) => (firstStarted = resolve));
      // Capacity 1: this worker has no room for the job's next attempt, so the other worker takes it.
      taker(
        queue,
        1,
        async (job) => {
          seen.push("first worker starts");
          firstStarted();
          await waitFor(async () => job.superseded.aborted, 10_000, "the first worker told it was superseded");
          seen.push("first worker superseded");
        },
        { heartbeatMs: 100, idlePollMs: 50 },
      );
      await started;
      await boss.fail(queue, [{ id, retryCount: 0 }], { message: "heartbeat lapsed" });
      taker(queue, 1, async (job) => void seen.push(`second worker judges attempt of ${job.data.n}`), {
        idlePollMs: 50,
      });
      await waitFor(async () => (await boss.getJobById(queue, id))?.state === "completed", 20_000, "the job completed");
      await waitFor(async () => seen.includes("first worker superseded"), 10_000, "the first worker ended");
      expect(seen).toContain("second worker judges attempt of 1");
    },
  );

  it(
    "fails a job whose handler throws, so pg-boss retries it, and completes the retry",
    { timeout: 30_000 },
    async () => {
      await boss.createQueue("taker-retry", { retryLimit: 2, retryDelay: 0 });
      const id = (await boss.send("taker-retry", { n: 7 }))!;
      const attempts: number[] = [];
      taker("taker-retry", 2, async (job) => {
        attempts.push(job.data.n);
        if (attempts.length === 1) throw new Error("first attempt fails");
      });
      await waitFor(
        async () => (await boss.getJobById("taker-retry", id))?.state === "completed",
        20_000,
        "the retry completed",
      );
      expect(attempts).toEqual([7, 7]);
      expect((await boss.getJobById("taker-retry", id))?.retryCount).toBe(1);
    },
  );

  it("hands back, unhandled, the jobs of a fetch that answers after stop began", { timeout: 30_000 }, async () => {
    await boss.createQueue("taker-late-fetch", { retryLimit: 3, retryDelay: 0 });
    const id = (await boss.send("taker-late-fetch", { n: 1 }))!;
    answerDelayMs.set("taker-late-fetch", 600);
    let handled = 0;
    const late = taker("taker-late-fetch", 2, async () => void (handled += 1));
    await waitFor(
      async () => (await boss.getJobById("taker-late-fetch", id))?.state === "active",
      5000,
      "the job claimed",
    );
    await late.stop(0);
    await waitFor(
      async () => (await boss.getJobById("taker-late-fetch", id))?.state === "retry",
      5000,
      "the job handed back",
    );
    expect(handled).toBe(0);
    expect(late.active).toBe(0);
  });

  it(
    "renews the heartbeats of the jobs it handles, and stop hands back the jobs still running after its grace time",
    { timeout: 30_000 },
    async () => {
      await boss.createQueue("taker-stop", { heartbeatSeconds: 10, retryLimit: 3, retryDelay: 0 });
      const id = (await boss.send("taker-stop", { n: 1 }))!;
      let release: () => void = () => {};
      const stopping = taker("taker-stop", 2, () => new Promise<void>((resolve) => (release = resolve)), {
        heartbeatMs: 200,
      });
      await waitFor(
        async () => (await boss.getJobById("taker-stop", id))?.state === "active",
        10_000,
        "the job active",
      );
      const firstBeat = (await boss.getJobById("taker-stop", id))!.heartbeatOn?.getTime() ?? 0;
      await waitFor(
        async () => ((await boss.getJobById("taker-stop", id))!.heartbeatOn?.getTime() ?? 0) > firstBeat,
        5000,
        "a renewed heartbeat",
      );

      await stopping.stop(300);
      const job = await boss.getJobById("taker-stop", id);
      expect(job?.state).toBe("retry");
      expect(stopping.active).toBe(1);
      release();
    },
  );
  it(
    "stop tells the running handlers to start no new work, completes a job that finishes meanwhile and hands back one left unfinished",
    { timeout: 30_000 },
    async () => {
      const queue = "taker-stop-no-new-work";
      await boss.createQueue(queue, { retryLimit: 3, retryDelay: 0 });
      const unfinished = (await boss.send(queue, { n: 1 }))!;
      const finishing = (await boss.send(queue, { n: 2 }))!;
      const events: string[] = [];
      let stopBegun = false;
      const stopping = taker(queue, 2, async (job) => {
        if (job.data.n === 2) {
          // A video whose last call is in flight when the stop comes: it answers, and the video is done.
          await waitFor(async () => stopBegun, 10_000, "the stop");
          await sleep(100);
          events.push("job 2 done");
          return;
        }
        // A video with calls to send one after another, as the judge sends a video's steps.
        while (!job.superseded.aborted) {
          events.push("job 1 sends a call");
          await sleep(50);
        }
        await sleep(200);
        events.push("job 1's call in flight answered; it ends unfinished");
        return "unfinished";
      });
      await waitFor(async () => events.length >= 3, 10_000, "job 1 sending calls");
      await waitFor(async () => (await boss.getJobById(queue, finishing))?.state === "active", 10_000, "job 2 taken");
      events.push("stop");
      stopBegun = true;
      await stopping.stop(10_000);
      events.push("stop returned");
      const afterStop = events.slice(events.indexOf("stop"));
      expect(afterStop.filter((event) => event !== "job 2 done")).toEqual([
        "stop",
        "job 1's call in flight answered; it ends unfinished",
        "stop returned",
      ]);
      expect(afterStop).toContain("job 2 done");
      expect((await boss.getJobById(queue, unfinished))?.state).toBe("retry");
      expect((await boss.getJobById(queue, finishing))?.state).toBe("completed");
      expect(stopping.active).toBe(0);
    },
  );
  it("goes on renewing the heartbeats of the jobs it waits for while it stops", { timeout: 30_000 }, async () => {
    const queue = "taker-stop-heartbeats";
    await boss.createQueue(queue, { heartbeatSeconds: 10, retryLimit: 3, retryDelay: 0 });
    const id = (await boss.send(queue, { n: 1 }))!;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // A job whose calls in flight are still to answer when the stop comes.
    const stopping = taker(queue, 1, () => released.then(() => "unfinished" as const), { heartbeatMs: 100 });
    await waitFor(async () => (await boss.getJobById(queue, id))?.state === "active", 10_000, "the job active");
    // Active in the database before the fetch's answer reaches the taker: a stop in between would find no job to wait
    // for (the job, arriving after, is handed back at once), so the stop waits until the taker holds it.
    await waitFor(async () => stopping.active === 1, 10_000, "the taker holding the job");
    const stopped = stopping.stop(20_000);
    const atStop = (await boss.getJobById(queue, id))!.heartbeatOn?.getTime() ?? 0;
    await waitFor(
      async () => ((await boss.getJobById(queue, id))!.heartbeatOn?.getTime() ?? 0) > atStop,
      10_000,
      "a heartbeat renewed during the stop",
    );
    release();
    await stopped;
    expect((await boss.getJobById(queue, id))?.state).toBe("retry");
  });

  it("stops asking a boss that was stopped without stopping the taker first", async () => {
    const { PgBoss } = await import("pg-boss");
    const own = new PgBoss({ connectionString: database.url, supervise: false, schedule: false });
    ignoreConnectionLoss(own);
    await own.start();
    await own.createQueue("taker-orphaned");
    let asks = 0;
    const fetch = own.fetch.bind(own) as (name: string, options: object) => Promise<unknown>;
    (own as unknown as { fetch: typeof fetch }).fetch = (name, options) => ((asks += 1), fetch(name, options));
    const errors: string[] = [];
    new JobTaker<{ n: number }>(own, {
      queue: "taker-orphaned",
      capacity: 2,
      handle: async () => {},
      log: (_error, what) => errors.push(what),
    }).start();
    await sleep(300);
    expect(asks).toBeGreaterThan(0);
    await own.stop({ graceful: false });
    const afterStop = asks;
    await sleep(600);
    // Before, it asked every 100 ms and logged "could not take jobs from the queue" each time.
    expect(asks).toBe(afterStop);
    expect(errors.length).toBeLessThanOrEqual(1);
  });
});

describe("a taker whose looks fail (the database is down)", () => {
  it("doubles the pause after each failed look, up to 5 s, and goes back to its usual pace after one succeeds (fake timers)", async () => {
    vi.useFakeTimers();
    try {
      let failing = true;
      const asked: number[] = [];
      const start = Date.now();
      const down = { once() {}, off() {}, getDb: () => ({}), complete: async () => {}, fail: async () => {} };
      const fetch = async () => {
        asked.push(Date.now() - start);
        if (failing) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
        return [];
      };
      const logged: string[] = [];
      const taker = new JobTaker<{ n: number }>({ ...down, fetch } as unknown as PgBoss, {
        queue: "taker-down",
        capacity: 2,
        handle: async () => {},
        idlePollMs: 100,
        log: (_error, what) => logged.push(what),
      }).start();
      // The pauses between looks, to the 100 ms (each look also waits a fake millisecond for its setImmediate).
      const pauses = () => asked.slice(1).map((at, i) => Math.round((at - asked[i]!) / 100) * 100);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(pauses()).toEqual([200, 400, 800, 1600, 3200, 5000, 5000]);
      expect(logged[0]).toBe("could not take jobs from the queue; trying again in 200 ms");
      failing = false;
      await vi.advanceTimersByTimeAsync(5500);
      // One more 5 s pause to the look that succeeds; then every 100 ms, as an empty queue is looked at.
      expect(pauses().slice(7, 10)).toEqual([5000, 100, 100]);
      await taker.stop(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
