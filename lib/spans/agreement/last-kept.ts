/**
 * The last values set, by key, at most `limit` of them; a value read moves to the back. Span agreement keeps its
 * reports per scope in it (load-span-agreement.ts) and the bootstrap its draws per comparison (bootstrap-rows.ts).
 */
export class LastKept<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly limit: number) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
}
