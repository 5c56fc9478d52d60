import { describe, expect, it } from "vitest";
import { type DesignVideo, designPairs, roundRobinRounds } from "./pair-design";

const video = (prompt: string, generator: string, sampleIndex: number | null = 0): DesignVideo => ({
  id: `${prompt}|${generator}|${sampleIndex}`,
  prompt,
  generator,
  sampleIndex,
  name: `${generator}.mp4`,
});

describe("round-robin rounds", () => {
  it.each([2, 3, 4, 5, 8])("with %i generators every two meet exactly once, each at most once a round", (n) => {
    const generators = Array.from({ length: n }, (_, i) => `g${i}`);
    const rounds = roundRobinRounds(generators);
    expect(rounds).toHaveLength(n % 2 === 0 ? n - 1 : n);
    const met = rounds.flat().map(([a, b]) => [a, b].sort().join("-"));
    expect(met).toHaveLength((n * (n - 1)) / 2);
    expect(new Set(met).size).toBe(met.length);
    for (const round of rounds) expect(new Set(round.flat()).size).toBe(round.length * 2);
  });

  it("balances meetings when prompts lack generators: over many prompts no pair meets far more than another", () => {
    const generators = ["a", "b", "c", "d", "e"];
    const videos: DesignVideo[] = [];
    for (let p = 0; p < 40; p++)
      for (const [g, generator] of generators.entries()) if ((p + g) % 5 !== 0) videos.push(video(`p${p}`, generator));
    const { pairs } = designPairs(videos, { design: { kind: "round_robin" }, sample: "same_index", seed: 3 });
    const meetings = new Map<string, number>();
    for (const pair of pairs) {
      const key = [pair.videoA.generator, pair.videoB.generator].sort().join("-");
      meetings.set(key, (meetings.get(key) ?? 0) + 1);
    }
    expect(meetings.size).toBe(10);
    const counts = [...meetings.values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(3);
  });
});

describe("refusals before any pair is built", () => {
  it("refuses more than 100,000 pairs, saying how many and the cap", () => {
    const videos = Array.from({ length: 450 }, (_, g) => video("one prompt", `g${g}`));
    expect(() => designPairs(videos, { design: { kind: "all_pairs" }, sample: "same_index", seed: 1 })).toThrow(
      /too many pairs: this design would make 101,025, and a set holds at most 100,000/,
    );
    const fewer = designPairs(videos, { design: { kind: "round_robin" }, sample: "same_index", seed: 1 });
    expect(fewer.pairs).toHaveLength(225);
  });

  it("refuses when the generators share no sample index, and counts such pairs otherwise", () => {
    const apart = [video("p", "a", 0), video("p", "b", 1)];
    expect(() => designPairs(apart, { design: { kind: "all_pairs" }, sample: "same_index", seed: 1 })).toThrow(
      /share no sample index; use sample "random"/,
    );
    const design = designPairs([...apart, video("p", "c", 0)], {
      design: { kind: "all_pairs" },
      sample: "same_index",
      seed: 1,
    });
    expect(design.pairs).toHaveLength(1);
    expect(design.generatorPairsWithoutCommonSample).toBe(2);
    expect(designPairs(apart, { design: { kind: "all_pairs" }, sample: "random", seed: 1 }).pairs).toHaveLength(1);
  });
});
