/** What the judge engine sends each call to an endpoint through. */
export interface CallLimiter {
  /**
   * Runs `task` once it has a slot. `headStart` is called once, when the call is among the next
   * headStartCalls(maxConcurrency) to get a slot (at once when one is free), so that work the task must finish first
   * (the judge engine writes the call's "sent" row) overlaps the wait instead of holding the slot.
   */
  run<T>(task: () => Promise<T>, headStart?: () => void): Promise<T>;
}

/** Where a worker's calls take their endpoint's slots: the endpoint's limiter, shared with the other workers or this process's own. */
export interface SlotSource extends CallLimiter {
  /** Told of each failed call: a 429 with retry-after pauses the endpoint for every worker. */
  noteFailure?(error: unknown): Promise<void>;
  /** How long the endpoint stays paused, by any worker's 429, in ms (0: not paused). */
  pauseRemainingMs?(): Promise<number>;
  /** How long a slot's turn lasts, drawn afresh each time. */
  turnLength?(): number;
}

/**
 * How many waiting calls get their head start at an endpoint that allows `maxConcurrency` calls at once: enough
 * that the writes of the calls next in line are done when slots free up at the endpoint's full rate, few enough
 * that a worker that dies leaves few calls recorded but unsent (lib/judge/calls/lost-calls.ts).
 * - Slots free up `maxConcurrency` times per call latency, so a quarter of it gives each write a quarter of a
 *   call's latency: 75 ms for a 300 ms call, against the 50–60 ms a write waited at 256 calls in flight
 *   (`npm run bench:judge -- --concurrency 256`), where a fixed 8 gave it 9 ms and each call held its slot
 *   about 55 ms for its own write.
 * - At least 8: at concurrency 64 a slot frees up every 5 ms, and a write takes 10–40 ms.
 */
export function headStartCalls(maxConcurrency: number): number {
  return Math.max(8, Math.ceil(maxConcurrency / 4));
}

/**
 * Bounds calls to one endpoint from this process: at most `maxConcurrency` in flight and at most
 * `requestsPerMinute` started in any sliding window (a minute unless `windowMs` says otherwise). Workers
 * put the shared limiter (shared-endpoint-limiter.ts) behind it; alone it serves in-process tests.
 */
export class EndpointLimiter implements CallLimiter {
  private active = 0;
  private readonly waiting: { grant(): void; headStart?: () => void }[] = [];
  private readonly starts: number[] = [];
  private readonly headStarts: number;

  constructor(
    private readonly options: { maxConcurrency: number; requestsPerMinute: number | null; windowMs?: number },
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> } = {
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
  ) {
    this.headStarts = headStartCalls(options.maxConcurrency);
  }

  async run<T>(task: () => Promise<T>, headStart?: () => void): Promise<T> {
    await this.acquire(headStart);
    try {
      await this.waitForRate();
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(headStart?: () => void): Promise<void> {
    if (this.active < Math.max(1, this.options.maxConcurrency)) {
      this.active += 1;
      headStart?.();
      return Promise.resolve();
    }
    if (this.waiting.length < this.headStarts) headStart?.();
    return new Promise((resolve) => this.waiting.push({ grant: () => resolve(), headStart }));
  }

  private release() {
    const next = this.waiting.shift();
    if (next) {
      next.grant(); // the slot passes straight to the next waiter
      // Another waiter is now among the next few: its head start begins.
      this.waiting[this.headStarts - 1]?.headStart?.();
    } else this.active -= 1;
  }

  private async waitForRate() {
    const limit = this.options.requestsPerMinute;
    if (!limit) return;
    const windowMs = this.options.windowMs ?? 60_000;
    while (true) {
      const now = this.clock.now();
      while (this.starts.length && this.starts[0]! <= now - windowMs) this.starts.shift();
      if (this.starts.length < limit) {
        this.starts.push(now);
        return;
      }
      await this.clock.sleep(this.starts[0]! + windowMs - now);
    }
  }

  get inFlight(): number {
    return this.active;
  }
}
