/**
 * Asks made in the same turn of the event loop, answered together: one call for every `maxBatch` of them, all sent
 * at once. When a call fails for several, each is asked again alone, so one bad ask fails only itself; `onBatchFailed`
 * hears of that call's error first (otherwise the asks' own outcomes hide it).
 */
export class TickBatcher<In, Out> {
  private asks: { input: In; resolve(output: Out): void; reject(error: unknown): void }[] = [];
  private scheduled = false;

  constructor(
    private readonly answerAll: (inputs: In[]) => Promise<Out[]>,
    private readonly maxBatch: number,
    private readonly onBatchFailed?: (error: unknown, asks: number) => void,
  ) {}

  ask(input: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.asks.push({ input, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush() {
    this.scheduled = false;
    while (this.asks.length > 0) void this.answer(this.asks.splice(0, this.maxBatch));
  }

  private async answer(asks: typeof this.asks) {
    try {
      const outputs = await this.answerAll(asks.map((a) => a.input));
      asks.forEach((a, i) => a.resolve(outputs[i]!));
    } catch (error) {
      if (asks.length === 1) asks[0]!.reject(error);
      else {
        this.onBatchFailed?.(error, asks.length);
        for (const a of asks) await this.answer([a]);
      }
    }
  }
}
