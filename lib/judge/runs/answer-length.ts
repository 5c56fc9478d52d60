/**
 * How many tokens an answer comes to, read from the JSON schema the step asks its answers in (`responseFormat`):
 * the fewest a valid answer may have, a typical one and a long one. It stands in for the endpoint's history of the
 * step before there is any (lib/judge/runs/cost-estimate.ts), so a run's first estimate is neither a flat guess per call
 * nor silent about how far off it may be.
 *
 * The counts are JSON text at about four characters a token (keys, quotes, braces and commas counted); free text
 * without a `maxLength` is taken as a sentence typically (25 tokens) and a short paragraph at most (120); a list
 * without bounds, or a map of free keys (`additionalProperties`), as 5 entries typically and 20 at most, none at
 * the least. Reasoning a model does before it answers is not foreseen.
 */
export interface TokenRange {
  low: number;
  typical: number;
  high: number;
}

type Schema = Record<string, unknown>;

const CHARS_PER_TOKEN = 4;
const FREE_TEXT: TokenRange = { low: 2, typical: 25, high: 120 };
const SCALAR: TokenRange = { low: 1, typical: 2, high: 3 };
/** A part of the schema this reading does not follow ($ref, a type it does not know): a short phrase's worth. */
const UNKNOWN: TokenRange = { low: 2, typical: 20, high: 120 };
const LIST_TYPICAL = 5;
const LIST_MOST = 20;
const MAX_DEPTH = 12;

const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));
const add = (a: TokenRange, b: TokenRange): TokenRange => ({
  low: a.low + b.low,
  typical: a.typical + b.typical,
  high: a.high + b.high,
});
const times = (r: TokenRange, n: { low: number; typical: number; high: number }): TokenRange => ({
  low: r.low * n.low,
  typical: r.typical * n.typical,
  high: r.high * n.high,
});

/** The answer's token range for a structured-output schema (OpenAI's `response_format` wrapper or a bare schema). */
export function answerTokenRange(responseFormat: Schema): TokenRange {
  const wrapped = responseFormat.json_schema as Schema | undefined;
  const schema = (wrapped?.schema as Schema | undefined) ?? (responseFormat.schema as Schema | undefined);
  return rounded(rangeOf(schema ?? responseFormat, 0));
}

function rounded(r: TokenRange): TokenRange {
  return { low: Math.round(r.low), typical: Math.round(r.typical), high: Math.round(r.high) };
}

function rangeOf(schema: unknown, depth: number): TokenRange {
  if (!schema || typeof schema !== "object" || depth > MAX_DEPTH) return UNKNOWN;
  const s = schema as Schema;
  const choices = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) return choiceRange(choices, depth);
  if (Array.isArray(s.enum)) return enumRange(s.enum);
  if (s.const !== undefined) return { low: 1, typical: 1, high: tokensOf(JSON.stringify(s.const)) };
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object":
      return objectRange(s, depth);
    case "array":
      return arrayRange(s, depth);
    case "string":
      return stringRange(s);
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return SCALAR;
    default:
      return UNKNOWN;
  }
}

function choiceRange(choices: unknown[], depth: number): TokenRange {
  const ranges = choices.map((choice) => rangeOf(choice, depth + 1));
  return {
    low: Math.min(...ranges.map((r) => r.low)),
    typical: Math.max(...ranges.map((r) => r.typical)),
    high: Math.max(...ranges.map((r) => r.high)),
  };
}

function enumRange(values: unknown[]): TokenRange {
  const lengths = values.map((v) => tokensOf(JSON.stringify(v)));
  const longest = Math.max(1, ...lengths);
  return { low: Math.min(longest, ...lengths), typical: longest, high: longest };
}

function stringRange(s: Schema): TokenRange {
  if (typeof s.maxLength !== "number") return FREE_TEXT;
  const most = tokensOf("x".repeat(Math.max(1, s.maxLength)));
  return { low: 1, typical: Math.min(most, FREE_TEXT.typical), high: most };
}

function objectRange(s: Schema, depth: number): TokenRange {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : Object.keys(properties));
  let range: TokenRange = { low: 2, typical: 2, high: 2 };
  const extra = s.additionalProperties;
  if (extra && typeof extra === "object") {
    // A map of free keys (an object's name to what it is): a list of key-value pairs, with a short key each.
    const entry = add(rangeOf(extra, depth + 1), { low: 5, typical: 5, high: 5 });
    range = add(range, times(entry, { low: 0, typical: LIST_TYPICAL, high: LIST_MOST }));
  }
  for (const [key, value] of Object.entries(properties)) {
    // "key": value, — the key's tokens, its quotes, the colon and the comma (which a tokenizer may merge: the least
    // counts one token for them).
    const keyTokens = tokensOf(key);
    const withKey = add(rangeOf(value, depth + 1), { low: keyTokens + 1, typical: keyTokens + 2, high: keyTokens + 2 });
    range = add(range, required.has(key) ? withKey : { low: 0, typical: withKey.typical, high: withKey.high });
  }
  return range;
}

function arrayRange(s: Schema, depth: number): TokenRange {
  const least = typeof s.minItems === "number" ? s.minItems : 0;
  const most = typeof s.maxItems === "number" ? s.maxItems : Math.max(least, LIST_MOST);
  const typical = Math.min(most, Math.max(least, LIST_TYPICAL));
  const item = add(rangeOf(s.items, depth + 1), { low: 1, typical: 1, high: 1 });
  return add({ low: 2, typical: 2, high: 2 }, times(item, { low: least, typical, high: most }));
}
