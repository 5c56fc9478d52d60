/**
 * Turning an LLM's answer into a validated value. Generic: every pipeline's steps go through here.
 *
 * What `findJsonValues` finds (objects and arrays only; a bare number or string is not "JSON found"):
 * - the whole answer, a ``` / ```json fenced block, or the first balanced `{…}` / `[…]` in prose.
 *   Fenced blocks are looked at before the surrounding prose, since a fence is the model's deliberate answer.
 *   Brace matching skips over strings, so braces and escaped quotes inside strings are safe.
 * - small, unambiguous repairs, tried only when the text is not valid JSON as it stands:
 *   trailing commas; Python-style 'single-quoted' strings and True/False/None; raw line breaks inside
 *   strings; and, last, the seeds' doubled-brace style `{{"objects": …}}` collapsed to single braces.
 * - NOT accepted: NaN/Infinity, comments, unquoted keys, or anything cut off: an unclosed `{` ends the
 *   search rather than offering the complete fragments inside it as the answer.
 *
 * `parseStructuredOutput` then validates against the step's zod schema. Nothing is defaulted or
 * clamped here: a missing score is an error, and so is 11 on a 0–10 scale. When the answer holds several
 * JSON values, the first one the schema accepts wins (chain-of-thought answers often show intermediate
 * JSON before the final one); when none is accepted, the error describes the last one that has the
 * right top-level type, which is usually the intended answer.
 */
import type { ZodError, ZodType } from "zod";
import { z } from "zod";
import { contentText } from "./answer-content";

export type JsonExtraction = { ok: true; value: unknown } | { ok: false; error: string };

export type StructuredOutputFailureKind = "refusal" | "truncated" | "no_json" | "invalid";

export type StructuredOutput<T> =
  { ok: true; value: T } | { ok: false; kind: StructuredOutputFailureKind; error: string; repairHint: string };

export interface StructuredOutputOptions {
  /** The choice's finish_reason: "length" means the answer was cut off, even if a prefix parses. */
  finishReason?: string | null;
  /** The message's refusal field (OpenAI structured output). */
  refusal?: string | null;
  /** The model's reasoning, taken out of the answer before parsing (see splitReasoning in llm-client.ts). */
  reasoning?: string | null;
}

type Issue = ZodError["issues"][number];

// Answers are bounded by max_tokens; this only guards the quadratic fallback scan against pathological input.
const MAX_SCAN_CHARS = 500_000;

interface ScanProblems {
  unclosedAt: number | null;
  invalid: string | null;
}

interface FoundValue {
  start: number;
  value: unknown;
}

/**
 * Every JSON object or array in an LLM answer, fenced blocks first, then in order of appearance; `error` says why
 * none was found.
 */
export function findJsonValues(text: string): { values: FoundValue[]; error: string } {
  const source = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const values: FoundValue[] = [];
  const seen = new Set<number>();
  const problems: ScanProblems = { unclosedAt: null, invalid: null };

  const fence = /```[^\n`]*\n([\s\S]*?)```/g;
  for (let match = fence.exec(source); match; match = fence.exec(source)) {
    const contentStart = match.index + match[0].indexOf("\n") + 1;
    scanRegion(source, contentStart, contentStart + match[1]!.length, values, seen, problems);
  }
  scanRegion(source, 0, source.length, values, seen, problems);

  let error: string;
  if (problems.unclosedAt !== null && values.length === 0) {
    error = `The JSON starting at character ${problems.unclosedAt + 1} is never closed; the answer seems cut off.`;
  } else if (problems.invalid) {
    error = problems.invalid;
  } else {
    error = "The answer contains no JSON object.";
  }
  return { values, error };
}

function scanRegion(
  text: string,
  from: number,
  to: number,
  values: FoundValue[],
  seen: Set<number>,
  problems: ScanProblems,
): void {
  let i = from;
  while (i < to) {
    const char = text[i];
    if (char !== "{" && char !== "[") {
      i++;
      continue;
    }
    const span = matchBrackets(text, i, to);
    if (span.kind === "unclosed") {
      problems.unclosedAt ??= i;
      return;
    }
    if (span.kind === "mismatched") {
      i++;
      continue;
    }
    if (seen.has(i)) {
      i = span.end;
      continue;
    }
    const parsed = parseJsonish(text.slice(i, span.end));
    if (parsed.ok) {
      seen.add(i);
      values.push({ start: i, value: parsed.value });
      i = span.end;
      continue;
    }
    problems.invalid ??= `The text in brackets at character ${i + 1} is not valid JSON: ${parsed.error}`;
    // Look inside: a broken wrapper may hold a valid object.
    i++;
  }
}

/** True where a quote can open a string: at the start of a value or key, not as an apostrophe in a word. */
function opensValue(previous: string | undefined): boolean {
  return previous === undefined || previous === "{" || previous === "[" || previous === "," || previous === ":";
}

function previousNonSpace(text: string, index: number, floor: number): string | undefined {
  for (let j = index - 1; j >= floor; j--) {
    const c = text[j]!;
    if (!/\s/.test(c)) return c;
  }
  return undefined;
}

type BracketSpan = { kind: "closed"; end: number } | { kind: "unclosed" } | { kind: "mismatched" };

function matchBrackets(text: string, start: number, to: number): BracketSpan {
  const stack: string[] = [];
  let i = start;
  while (i < to) {
    const char = text[i]!;
    if (char === '"' || (char === "'" && opensValue(previousNonSpace(text, i, start)))) {
      const close = skipString(text, i, to);
      if (close < 0) return { kind: "unclosed" };
      i = close + 1;
      continue;
    }
    if (char === "{" || char === "[") stack.push(char === "{" ? "}" : "]");
    else if (char === "}" || char === "]") {
      if (stack.pop() !== char) return { kind: "mismatched" };
      if (stack.length === 0) return { kind: "closed", end: i + 1 };
    }
    i++;
  }
  return { kind: "unclosed" };
}

/** Index of the quote closing the string that opens at `start`, or -1. */
function skipString(text: string, start: number, to: number): number {
  const quote = text[start];
  for (let i = start + 1; i < to; i++) {
    const char = text[i];
    if (char === "\\") i++;
    else if (char === quote) return i;
  }
  return -1;
}

function parseJsonish(candidate: string): JsonExtraction {
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (error) {
    const repaired = repairJsonish(candidate, false);
    const attempts = [repaired.text];
    if (/\{\{|\}\}/.test(candidate)) attempts.push(repairJsonish(candidate, true).text);
    for (const attempt of attempts) {
      try {
        return { ok: true, value: JSON.parse(attempt) };
      } catch {
        // try the next repair
      }
    }
    if (repaired.nonFinite) return { ok: false, error: "NaN and Infinity are not JSON numbers." };
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const CONTROL_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * One string-aware pass of the repairs listed at the top. Text inside strings is never changed except
 * to make it a valid JSON string, so a value such as "True, {{x}}" survives untouched.
 */
function repairJsonish(text: string, collapseDoubledBraces: boolean): { text: string; nonFinite: boolean } {
  let out = "";
  let nonFinite = false;
  let lastSignificant: string | undefined;
  const emit = (piece: string) => {
    out += piece;
    const trimmed = piece.trimEnd();
    if (trimmed) lastSignificant = trimmed[trimmed.length - 1];
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"' || (char === "'" && opensValue(lastSignificant))) {
      let content = "";
      let j = i + 1;
      for (; j < text.length && text[j] !== char; j++) {
        const c = text[j]!;
        if (c === "\\" && j + 1 < text.length) {
          const next = text[j + 1]!;
          // \' is Python's escape, not JSON's; the apostrophe needs none inside a JSON string.
          content += next === "'" ? "'" : `\\${next}`;
          j++;
        } else if (c === '"' && char === "'") content += '\\"';
        else content += CONTROL_ESCAPES[c] ?? c;
      }
      emit(`"${content}"`);
      i = j + 1;
      continue;
    }
    if (char === ",") {
      let k = i + 1;
      while (k < text.length && /\s/.test(text[k]!)) k++;
      if (text[k] === "}" || text[k] === "]") {
        i++;
        continue;
      }
    }
    if (collapseDoubledBraces && (char === "{" || char === "}") && text[i + 1] === char) {
      emit(char);
      i += 2;
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))![0];
      if (word === "NaN" || word === "Infinity") nonFinite = true;
      emit(word === "True" ? "true" : word === "False" ? "false" : word === "None" ? "null" : word);
      i += word.length;
      continue;
    }
    emit(char);
    i++;
  }
  return { text: out, nonFinite };
}

const REFUSAL_OPENING =
  /^\s*(?:I['’]m sorry|I am sorry|Sorry[,.!]|I can(?:not|['’]t)\b|I['’]m (?:not able|unable)|I am (?:not able|unable)|I won['’]t\b)/i;

/** A short answer without JSON that opens like an apology. Checked only once nothing valid was found. */
function looksLikeRefusal(text: string): boolean {
  return text.length <= 600 && REFUSAL_OPENING.test(text);
}

const REPLY_WITH_JSON = "Reply with only the JSON object in the required format, and no other text.";

/**
 * Validates an answer against a step's schema. Failures carry a kind, an error for the record, and a
 * short `repairHint` to send back to the model in one repair request.
 *
 * When the answer holds no JSON object at all, its trimmed text is offered to the schema as a string,
 * so a schema that accepts strings (a free-text summary) takes plain-text answers; object schemas
 * reject it and the result is `no_json`.
 */
export function parseStructuredOutput<T>(
  text: string | readonly unknown[] | null | undefined,
  schema: ZodType<T>,
  options: StructuredOutputOptions = {},
): StructuredOutput<T> {
  const refusal = options.refusal?.trim();
  if (refusal) {
    return fail(
      "refusal",
      `The model refused: ${clip(refusal, 300)}`,
      `Your previous answer declined the task. Please complete the task above. ${REPLY_WITH_JSON}`,
    );
  }
  if (options.finishReason === "content_filter") {
    return fail(
      "refusal",
      "The endpoint's content filter stopped the answer.",
      `Your previous answer was stopped by a content filter. Please complete the task above. ${REPLY_WITH_JSON}`,
    );
  }
  if (options.finishReason === "length") {
    return fail(
      "truncated",
      'The answer was cut off at the token limit (finish_reason "length").',
      "Your previous answer was cut off before it was complete. Reply again with only the JSON object in the required format, keeping any text in it short.",
    );
  }
  if (text === null || text === undefined) {
    return fail(
      "no_json",
      "The endpoint answered with no content (`content` was null).",
      `Your previous answer was empty. ${REPLY_WITH_JSON}`,
    );
  }
  // Servers may give `content` as an array of parts: its text parts are the answer.
  const answer = (typeof text === "string" ? text : (contentText(text) ?? "")).trim();
  if (!answer && options.reasoning?.trim()) {
    return fail(
      "no_json",
      "The answer held only the model's reasoning (`<think>` never closed), with no answer after it.",
      `Your previous answer stopped while thinking. ${REPLY_WITH_JSON}`,
    );
  }
  if (!answer) return fail("no_json", "The answer was empty.", `Your previous answer was empty. ${REPLY_WITH_JSON}`);

  const found = findJsonValues(answer);
  const attempts = found.values.map((candidate) => ({ candidate, result: schema.safeParse(candidate.value) }));
  for (const { result } of attempts) if (result.success) return { ok: true, value: result.data };

  const foundObject = found.values.some((candidate) => isPlainObject(candidate.value));
  if (!foundObject) {
    if (looksLikeRefusal(answer)) {
      return fail(
        "refusal",
        `The model refused: ${clip(answer, 300)}`,
        `Your previous answer declined the task. Please complete the task above. ${REPLY_WITH_JSON}`,
      );
    }
    const asText = schema.safeParse(answer);
    if (asText.success) return { ok: true, value: asText.data };
  }
  if (attempts.length === 0) {
    return fail(
      "no_json",
      found.error,
      `Your previous answer did not contain the required JSON object. ${REPLY_WITH_JSON}`,
    );
  }

  const failures = attempts.flatMap(({ result }) => (result.success ? [] : [result.error.issues]));
  const rightShape = failures.filter(
    (issues) => !issues.some((issue) => issue.path.length === 0 && issue.code === "invalid_type"),
  );
  const issues = (rightShape.length ? rightShape : failures).at(-1) ?? [];
  const described = describeIssues(issues);
  return fail(
    "invalid",
    `The answer does not match the required format: ${described}`,
    `Your previous answer did not match the required format: ${described}. ${REPLY_WITH_JSON}`,
  );
}

function fail(kind: StructuredOutputFailureKind, error: string, repairHint: string): StructuredOutput<never> {
  return { ok: false, kind, error, repairHint };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "the answer";
}

/** Zod issues as one line a model (and a person reading the run log) can act on, e.g. `scores.s3: missing`. */
export function describeIssues(issues: readonly Issue[], limit = 8): string {
  const lines = issues.slice(0, limit).map((issue) => {
    if (issue.code === "unrecognized_keys")
      return `${formatPath(issue.path)}: unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    return `${formatPath(issue.path)}: ${issue.message}`;
  });
  if (issues.length > limit) lines.push(`and ${issues.length - limit} more`);
  return lines.join("; ") || "the value was rejected";
}

const NUMERIC_STRING = /^\s*[+-]?\d+(?:\.\d+)?\s*$/;

function describeInput(input: unknown): string {
  if (input === undefined) return "nothing";
  if (typeof input === "string") return JSON.stringify(clip(input, 40));
  if (typeof input === "number" && !Number.isFinite(input)) return String(input);
  return JSON.stringify(input) ?? typeof input;
}

/**
 * A score on a closed scale. Accepts JSON numbers (7, 7.0, 7.5 unless `integer`) and plain numeric
 * strings ("7", "7.0"), because some models quote every value; rejects "7/10", "seven", null, NaN and
 * anything outside [min, max]: out-of-range values are errors, never clamped.
 */
export function boundedScore(min: number, max: number, options: { integer?: boolean } = {}) {
  const scale = `${options.integer ? "a whole number" : "a number"} from ${min} to ${max}`;
  let number = z.number({
    error: (issue) => {
      if (issue.code === "invalid_type") {
        if (issue.input === undefined) return `missing (${scale} is required)`;
        if (typeof issue.input === "number" && Number.isFinite(issue.input)) return `${issue.input} is not ${scale}`;
        return `must be ${scale}, not ${describeInput(issue.input)}`;
      }
      if (issue.code === "too_big" || issue.code === "too_small")
        return `${describeInput(issue.input)} is outside ${min}–${max}`;
      return undefined;
    },
  });
  number = number.min(min).max(max);
  if (options.integer) number = number.int();
  return z.preprocess(
    (value) => (typeof value === "string" && NUMERIC_STRING.test(value) ? Number(value) : value),
    number,
  );
}
