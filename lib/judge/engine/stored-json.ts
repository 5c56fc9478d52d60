/**
 * A value as PostgreSQL's jsonb gives it back: objects' keys in jsonb's order (shorter keys first by
 * their UTF-8 bytes, then byte by byte), undefined members dropped. A finished step's output is kept in
 * this form, so a later step renders the same prompt whether its input was finished in this pass or
 * read back from the database (a video judged again after a crash, or after a batch answered): the
 * prompt text, and so the cache key and the answer, do not depend on where the output came from.
 */
export function asStoredJson<T>(value: T): T {
  if (value === undefined) return value;
  return order(JSON.parse(JSON.stringify(value))) as T;
}

function order(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(order);
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value).map((key) => ({ key, bytes: Buffer.from(key, "utf8") }));
  keys.sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
  const ordered: Record<string, unknown> = {};
  for (const { key } of keys) ordered[key] = order((value as Record<string, unknown>)[key]);
  return ordered;
}
