/**
 * Bounds calls to one endpoint from this process: at most `maxConcurrency` in flight and at most
 * `requestsPerMinute` started in any sliding minute.
 */
export class EndpointLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly starts: number[] = [];

  constructor(
    private readonly options: { maxConcurrency: number; requestsPerMinute: number | null },
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
    while (true) {
      const now = this.clock.now();
      while (this.starts.length && this.starts[0]! <= now - 60_000) this.starts.shift();
      if (this.starts.length < limit) {
        this.starts.push(now);
        return;
      }
      await this.clock.sleep(this.starts[0]! + 60_000 - now);
    }
  }

  get inFlight(): number {
    return this.active;
  }
}
