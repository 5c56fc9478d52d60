import { createHash } from "node:crypto";

/**
 * TEST TOOL. The stub's `logprobs.content` for an answer, when a request asks for logprobs.
 *
 * Any model: the answer is cut into tokens (JSON punctuation, whitespace, words and numbers each one
 * token), every token certain (logprob 0) with itself as its only alternative.
 *
 * The simulated uncertain judge, model `sim-logprobs?noise=<σ>&seed=<n>`: the prompt carries the known
 * truth of each value as `sim-truth <key>=<t> in <min>..<max>` (the test writes it in the video's
 * prompt). The judge's belief about the value of `"<key>"` is a discrete normal centred on t with
 * standard deviation σ over the whole numbers min..max (plus, with `jitter`, seeded noise in its
 * logits); it answers the most likely value (t rounded: the argmax) and returns the belief as the top
 * alternatives at that value's token.
 */
export interface SimulatedLogprobJudge {
  noise: number;
  seed: string;
  jitter: number;
}

export function simulatedLogprobJudge(model: string): SimulatedLogprobJudge | null {
  if (!model.startsWith("sim-logprobs")) return null;
  const params = new URLSearchParams(model.split("?")[1] ?? "");
  const number = (name: string, fallback: number) => {
    const value = Number(params.get(name));
    return params.has(name) && Number.isFinite(value) ? value : fallback;
  };
  return {
    noise: Math.max(0.05, number("noise", 0.7)),
    seed: params.get("seed") ?? "0",
    jitter: Math.max(0, number("jitter", 0)),
  };
}

const TRUTH = /sim-truth ([\w-]+)=(-?\d+(?:\.\d+)?) in (-?\d+)\.\.(-?\d+)/g;

interface Belief {
  key: string;
  /** Probabilities by value, most likely first. */
  alternatives: { value: number; probability: number }[];
}

function beliefsOf(prompt: string, judge: SimulatedLogprobJudge): Belief[] {
  return [...prompt.matchAll(TRUTH)].map((match) => {
    const [, key, truthText, minText, maxText] = match;
    const truth = Number(truthText);
    const min = Number(minText);
    const max = Number(maxText);
    const logits: { value: number; logit: number }[] = [];
    for (let value = min; value <= max; value++) {
      const jitter = judge.jitter > 0 ? judge.jitter * gaussian(`${judge.seed}|${prompt}|${key}|${value}`) : 0;
      logits.push({ value, logit: -((value - truth) ** 2) / (2 * judge.noise ** 2) + jitter });
    }
    const top = Math.max(...logits.map((l) => l.logit));
    const weights = logits.map((l) => ({ value: l.value, weight: Math.exp(l.logit - top) }));
    const total = weights.reduce((sum, w) => sum + w.weight, 0);
    const alternatives = weights
      .map((w) => ({ value: w.value, probability: w.weight / total }))
      .sort((a, b) => b.probability - a.probability || a.value - b.value);
    return { key: key!, alternatives };
  });
}

/** The simulated judge's answer: each `"<key>": <number>` the prompt has a truth for set to the belief's argmax. */
export function simulatedAnswer(content: string, prompt: string, judge: SimulatedLogprobJudge): string {
  let answer = content;
  for (const belief of beliefsOf(prompt, judge)) {
    const pattern = new RegExp(`("${belief.key}"\\s*:\\s*)-?\\d+(?:\\.\\d+)?`);
    answer = answer.replace(pattern, (_, head: string) => `${head}${belief.alternatives[0]!.value}`);
  }
  return answer;
}

export function stubContentLogprobs(
  content: string,
  topLogprobs: number,
  prompt: string,
  judge: SimulatedLogprobJudge | null,
) {
  const beliefs = judge ? beliefsOf(prompt, judge) : [];
  const tokens = content.match(/\s+|[{}[\]:,"]|[^\s{}[\]:,"]+/g) ?? [];
  const k = Math.max(0, Math.min(20, topLogprobs));
  let text = "";
  return tokens.map((token) => {
    // The value after `"<key>":` with a simulated belief gets the belief as its alternatives.
    const belief = beliefs.find((b) => new RegExp(`"${b.key}"\\s*:\\s*$`).test(text));
    text += token;
    if (belief && /^-?\d+$/.test(token)) {
      const top = belief.alternatives
        .slice(0, k)
        .map((alt) => ({ token: String(alt.value), logprob: Math.log(alt.probability), bytes: null }));
      const chosen = belief.alternatives.find((alt) => String(alt.value) === token);
      return { token, logprob: chosen ? Math.log(chosen.probability) : -100, bytes: null, top_logprobs: top };
    }
    return { token, logprob: 0, bytes: null, top_logprobs: k > 0 ? [{ token, logprob: 0, bytes: null }] : [] };
  });
}

/** A standard normal draw from a seed (Box–Muller over two hashed uniforms). */
function gaussian(seed: string): number {
  const digest = createHash("sha256").update(seed).digest();
  const u1 = (digest.readUInt32BE(0) + 1) / 4294967297;
  const u2 = digest.readUInt32BE(4) / 4294967296;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
