import { scaleViolation, type TargetDeclaration } from "../../task-modules/task-declaration";
import type { TokenLogprob } from "./llm-client";

/**
 * The logprob-weighted ("expected") score of one value in a JSON answer, after G-Eval (Liu et al. 2023):
 * Σ s·P(s) over the alternatives the endpoint returned at the value's token (`top_logprobs`) that are
 * values on the target's scale, with their probabilities renormalised to sum to 1.
 *
 * How a score is found in the answer (the same rule for every task): its value is the number (or
 * `true`/`false`, read as 1/0) right after the JSON key `"<key>":` whose literal equals the stored
 * value; the key is the score's category unless the step maps it (StepDefinition.scoreKeys). The
 * tokens' character offsets in the joined token text say which token holds that literal.
 *
 * Null (the argmax stays the only score) when the answer has no logprobs, the key or value is not
 * found, the value is not one whole token (a tokenizer that splits "10" into "1" and "0": the first
 * token's alternatives would mix 1 and 10–19), or no alternative is on the scale.
 */
export function expectedScore(
  tokens: readonly TokenLogprob[] | null | undefined,
  key: string,
  value: number,
  target: Pick<TargetDeclaration, "label" | "scale"> | null,
): number | null {
  if (!tokens?.length || !target) return null;
  const starts: number[] = [];
  let text = "";
  for (const t of tokens) {
    starts.push(text.length);
    text += t.token;
  }
  const pattern = new RegExp(
    `"${escapeRegExp(key)}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?|true|false)(?![\\w.])`,
    "g",
  );
  for (const match of text.matchAll(pattern)) {
    const literal = match[1]!;
    if (literalValue(literal) !== value) continue;
    const from = match.index + match[0].length - literal.length;
    const to = from + literal.length;
    const index = tokenAt(starts, from);
    const token = tokens[index]!;
    const tokenEnd = starts[index]! + token.token.length;
    // The value must be one token: its first token's alternatives say nothing about the digits after it.
    if (tokenEnd < to) return null;
    return weighted(token, target);
  }
  return null;
}

function weighted(token: TokenLogprob, target: Pick<TargetDeclaration, "label" | "scale">): number | null {
  const alternatives = token.top.some((alt) => alt.token === token.token)
    ? token.top
    : [{ token: token.token, logprob: token.logprob }, ...token.top];
  // Tokens that read as the same value (" 4" and "4") add up.
  const probability = new Map<number, number>();
  for (const alt of alternatives) {
    const value = literalValue(alt.token.trim().replace(/[,}\]]+$/, ""));
    if (value === null || scaleViolation(target, value) !== null || !Number.isFinite(alt.logprob)) continue;
    probability.set(value, (probability.get(value) ?? 0) + Math.exp(alt.logprob));
  }
  let mass = 0;
  let sum = 0;
  for (const [value, p] of probability) {
    mass += p;
    sum += value * p;
  }
  return mass > 0 ? sum / mass : null;
}

function literalValue(literal: string): number | null {
  if (literal === "true") return 1;
  if (literal === "false") return 0;
  if (!/^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(literal)) return null;
  const value = Number(literal);
  return Number.isFinite(value) ? value : null;
}

/** The index of the token whose text holds character `offset` of the joined text. */
function tokenAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
