import { mulberry32, streamSeed } from "../../stats/bootstrap";
import type { PairSample } from "./create-pair-set.types";
import { type HoneypotKind, honeypotPairKey } from "./honeypot-pairs";
import { MAX_PAIRS_PER_SET, PairSetRefusedError } from "./pair-set-errors";

/**
 * Which pairs a design makes, without the database: pure, so a seed gives the same pairs on every machine. Every draw
 * comes from its own stream (streamSeed of the seed and a label naming the prompt and generators), so one prompt's
 * pairs do not change when another prompt gains a video.
 */

/** A video that may be paired: it has a prompt and a generator (Video.model). */
export interface DesignVideo {
  id: string;
  prompt: string;
  generator: string;
  sampleIndex: number | null;
  name: string;
}

export interface DesignedPair {
  pairKey: string;
  videoA: DesignVideo;
  videoB: DesignVideo;
  honeypot: HoneypotKind | null;
}

export type GeneratorDesign = { kind: "all_pairs" } | { kind: "round_robin" } | { kind: "k_per_prompt"; k: number };

export interface DesignOptions {
  design: GeneratorDesign;
  sample: PairSample;
  seed: number;
  honeypots?: { count: number; kinds: HoneypotKind[] };
}

export interface Design {
  /** In their positions (shuffled by the seed). */
  pairs: DesignedPair[];
  promptsWithOneGenerator: number;
  generatorPairsWithoutCommonSample: number;
}

/** A prompt's videos by generator, each generator's in (sample index, id) order. */
interface PromptVideos {
  prompt: string;
  byGenerator: Map<string, DesignVideo[]>;
}

/** A prompt as pairs match it: Unicode NFC, trimmed (a prompt list's spelling and a video's then agree). */
export const promptKey = (prompt: string) => prompt.normalize("NFC").trim();

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The videos by prompt (in code-point order) and generator: the order every draw below starts from. */
export function groupByPrompt(videos: readonly DesignVideo[]): PromptVideos[] {
  const byPrompt = new Map<string, Map<string, DesignVideo[]>>();
  for (const video of videos) {
    const generators = byPrompt.get(video.prompt) ?? new Map<string, DesignVideo[]>();
    byPrompt.set(video.prompt, generators);
    const list = generators.get(video.generator) ?? [];
    generators.set(video.generator, list);
    list.push(video);
  }
  const sampleOrder = (v: DesignVideo) => v.sampleIndex ?? -1;
  return [...byPrompt.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([prompt, generators]) => {
      for (const list of generators.values())
        list.sort((a, b) => sampleOrder(a) - sampleOrder(b) || compareText(a.id, b.id));
      const byGenerator = new Map([...generators.entries()].sort(([a], [b]) => compareText(a, b)));
      return { prompt, byGenerator };
    });
}

/** Fisher–Yates with the given draws. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const choose2 = (n: number) => (n * (n - 1)) / 2;

/** How many generator pairs the design makes before videos are picked: what the cap is checked against. */
export function generatorPairCount(prompts: readonly PromptVideos[], design: GeneratorDesign): number {
  let count = 0;
  for (const { byGenerator } of prompts) {
    const g = byGenerator.size;
    if (g < 2) continue;
    switch (design.kind) {
      case "all_pairs":
        count += choose2(g);
        break;
      case "round_robin":
        count += Math.floor(g / 2);
        break;
      case "k_per_prompt":
        count += Math.min(design.k, choose2(g));
        break;
      default: {
        const never: never = design;
        throw new Error(`unknown design ${JSON.stringify(never)}`);
      }
    }
  }
  return count;
}

/** Every two of the generators, in their order. */
function allGeneratorPairs(generators: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < generators.length; i++)
    for (let j = i + 1; j < generators.length; j++) pairs.push([generators[i]!, generators[j]!]);
  return pairs;
}

const meetingKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/**
 * A round-robin schedule by the circle method: the generators (shuffled by the seed, a bye added when their number is
 * odd) give n − 1 rounds in which every generator plays once, and every two generators meet in exactly one round.
 * Prompt i takes round i mod (n − 1), so over n − 1 prompts each pair of generators meets once, over 2(n − 1) twice.
 */
export function roundRobinRounds(generators: readonly string[]): [string, string][][] {
  const players: (string | null)[] = [...generators];
  if (players.length % 2 === 1) players.push(null);
  const n = players.length;
  const rounds: [string, string][][] = [];
  for (let r = 0; r < n - 1; r++) {
    const rotating = players.slice(1);
    const turned = [...rotating.slice(r), ...rotating.slice(0, r)];
    const order = [players[0]!, ...turned];
    const round: [string, string][] = [];
    for (let i = 0; i < n / 2; i++) {
      const a = order[i];
      const b = order[n - 1 - i];
      if (a && b) round.push([a, b]);
    }
    rounds.push(round);
  }
  return rounds;
}

/**
 * The round-robin generator pairs of every prompt. A prompt lacking some generators keeps its round's pairs whose
 * two generators it has; its generators left without a partner are matched among themselves, the two that have met
 * least so far first, so each generator meets each other about equally often across prompts.
 */
function roundRobinPairs(prompts: readonly PromptVideos[], seed: number): Map<string, [string, string][]> {
  const allGenerators = [...new Set(prompts.flatMap((p) => [...p.byGenerator.keys()]))].sort(compareText);
  const rounds = roundRobinRounds(shuffled(allGenerators, mulberry32(streamSeed(seed, "round_robin"))));
  const meetings = new Map<string, number>();
  const met = (a: string, b: string) => meetings.get(meetingKey(a, b)) ?? 0;
  const out = new Map<string, [string, string][]>();
  prompts.forEach(({ prompt, byGenerator }, index) => {
    if (byGenerator.size < 2 || rounds.length === 0) return;
    const round = rounds[index % rounds.length]!;
    const chosen = round.filter(([a, b]) => byGenerator.has(a) && byGenerator.has(b));
    const left = [...byGenerator.keys()].filter((g) => !chosen.some(([a, b]) => a === g || b === g));
    while (left.length >= 2) {
      const [best] = allGeneratorPairs(left).sort(([a, b], [c, d]) => met(a, b) - met(c, d));
      chosen.push(best!);
      left.splice(left.indexOf(best![0]), 1);
      left.splice(left.indexOf(best![1]), 1);
    }
    for (const [a, b] of chosen) meetings.set(meetingKey(a, b), met(a, b) + 1);
    out.set(prompt, chosen);
  });
  return out;
}

/** The generator pairs of each prompt, as the design says. */
function generatorPairsByPrompt(
  prompts: readonly PromptVideos[],
  design: GeneratorDesign,
  seed: number,
): Map<string, [string, string][]> {
  if (design.kind === "round_robin") return roundRobinPairs(prompts, seed);
  const out = new Map<string, [string, string][]>();
  for (const { prompt, byGenerator } of prompts) {
    if (byGenerator.size < 2) continue;
    const all = allGeneratorPairs([...byGenerator.keys()]);
    out.set(
      prompt,
      design.kind === "all_pairs"
        ? all
        : shuffled(all, mulberry32(streamSeed(seed, `k_per_prompt:${prompt}`))).slice(0, design.k),
    );
  }
  return out;
}

/**
 * The two videos of a generator pair on a prompt. `random`: one of each generator's videos, drawn. `same_index`: the
 * videos of one sample index both generators have, the index this prompt has used least so far (ties drawn), so a
 * prompt's samples take turns (videos without a sample index count as one index of their own); null when the two
 * share no sample index. Of several videos with one generator, prompt and index, the first by id is used.
 */
function pickVideos(
  prompt: PromptVideos,
  [a, b]: [string, string],
  sample: PairSample,
  random: () => number,
  indexUse: Map<number, number>,
): [DesignVideo, DesignVideo] | null {
  const videosA = prompt.byGenerator.get(a)!;
  const videosB = prompt.byGenerator.get(b)!;
  switch (sample) {
    case "random":
      return [videosA[Math.floor(random() * videosA.length)]!, videosB[Math.floor(random() * videosB.length)]!];
    case "same_index": {
      const indexOf = (v: DesignVideo) => v.sampleIndex ?? -1;
      const indicesB = new Set(videosB.map(indexOf));
      const common = [...new Set(videosA.map(indexOf))].filter((i) => indicesB.has(i));
      if (common.length === 0) return null;
      const least = Math.min(...common.map((i) => indexUse.get(i) ?? 0));
      const candidates = common.filter((i) => (indexUse.get(i) ?? 0) === least);
      const index = candidates[Math.floor(random() * candidates.length)]!;
      indexUse.set(index, least + 1);
      return [videosA.find((v) => indexOf(v) === index)!, videosB.find((v) => indexOf(v) === index)!];
    }
    default: {
      const never: never = sample;
      throw new Error(`unknown sample ${String(never)}`);
    }
  }
}

/** The pair with A and B drawn (a coin of its own stream), so A is not always the first generator by name. */
function orientedPair(first: DesignVideo, second: DesignVideo, seed: number): DesignedPair {
  const coin = mulberry32(streamSeed(seed, `order:${first.id}:${second.id}`))();
  const [videoA, videoB] = coin < 0.5 ? [first, second] : [second, first];
  return { pairKey: `${videoA.id}:${videoB.id}`, videoA, videoB, honeypot: null };
}

/** `count` honeypots on distinct videos drawn from `videos`, their kinds taking turns. */
function honeypotPairs(
  videos: readonly DesignVideo[],
  request: { count: number; kinds: HoneypotKind[] },
  seed: number,
): DesignedPair[] {
  if (request.count > videos.length)
    throw new PairSetRefusedError(
      "too_many_honeypots",
      `${request.count} honeypots asked for, but only ${videos.length} videos can be paired: a honeypot is a video against a broken copy of itself, one per video.`,
      { asked: request.count, videos: videos.length },
    );
  const ordered = [...videos].sort((a, b) => compareText(a.id, b.id));
  return shuffled(ordered, mulberry32(streamSeed(seed, "honeypots")))
    .slice(0, request.count)
    .map((video, i) => {
      const kind = request.kinds[i % request.kinds.length]!;
      return { pairKey: honeypotPairKey(video.id, kind), videoA: video, videoB: video, honeypot: kind };
    });
}

/** Refuses a design that would make more pairs than a set holds, before any pair is built. */
export function checkPairCount(count: number, what: string): void {
  if (count > MAX_PAIRS_PER_SET)
    throw new PairSetRefusedError(
      "too_many_pairs",
      `too many pairs: ${what} would make ${count.toLocaleString("en")}, and a set holds at most ${MAX_PAIRS_PER_SET.toLocaleString("en")}. Choose fewer prompts or generators, round_robin, or k_per_prompt.`,
      { pairs: count, max: MAX_PAIRS_PER_SET },
    );
}

/** The pairs of a made set, in their (shuffled) positions. Throws PairSetRefusedError when none or too many. */
export function designPairs(videos: readonly DesignVideo[], options: DesignOptions): Design {
  const prompts = groupByPrompt(videos);
  const usable = prompts.filter((p) => p.byGenerator.size >= 2);
  const promptsWithOneGenerator = prompts.length - usable.length;
  if (usable.length === 0)
    throw new PairSetRefusedError(
      "no_pairs",
      prompts.length === 0
        ? "no pairs: no video has both a prompt and a model (generator) among the prompts and generators chosen."
        : `no pairs: none of the ${prompts.length} prompts chosen has videos of two generators.`,
      { prompts: prompts.length },
    );
  checkPairCount(generatorPairCount(usable, options.design) + (options.honeypots?.count ?? 0), "this design");
  const byPrompt = generatorPairsByPrompt(usable, options.design, options.seed);
  const pairs: DesignedPair[] = [];
  let generatorPairsWithoutCommonSample = 0;
  for (const prompt of usable) {
    const indexUse = new Map<number, number>();
    for (const generatorPair of byPrompt.get(prompt.prompt) ?? []) {
      const random = mulberry32(streamSeed(options.seed, `sample:${prompt.prompt}:${generatorPair.join("\u0000")}`));
      const picked = pickVideos(prompt, generatorPair, options.sample, random, indexUse);
      if (picked) pairs.push(orientedPair(picked[0], picked[1], options.seed));
      else generatorPairsWithoutCommonSample++;
    }
  }
  if (pairs.length === 0)
    throw new PairSetRefusedError(
      "no_pairs",
      `no pairs: the generators of the ${usable.length} prompts with two generators share no sample index; use sample "random".`,
    );
  const usableVideos = usable.flatMap((p) => [...p.byGenerator.values()].flat());
  if (options.honeypots?.count) pairs.push(...honeypotPairs(usableVideos, options.honeypots, options.seed));
  return {
    pairs: shuffled(pairs, mulberry32(streamSeed(options.seed, "positions"))),
    promptsWithOneGenerator,
    generatorPairsWithoutCommonSample,
  };
}
