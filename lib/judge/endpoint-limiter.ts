/** What the judge engine sends each call to an endpoint through. */
export interface CallLimiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * Bounds calls to one endpoint from this process: at most `maxConcurrency` in flight and at most
 * `requestsPerMinute` started in any sliding window (a minute unless `windowMs` says otherwise). Workers
 * put the shared limiter (shared-endpoint-limiter.ts) behind it; alone it serves in-process tests.
 */
export class EndpointLimiter implements CallLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly starts: number[] = [];

  constructor(
    private readonly options: { maxConcurrency: number; requestsPerMinute: number | null; windowMs?: number },
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> } = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      await this.waitForRate();
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < Math.max(1, this.options.maxConcurrency)) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => resolve()));
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else this.active -= 1;
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
