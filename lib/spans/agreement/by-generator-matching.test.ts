/**
 * The per-generator report sums each generator's rows of the one matching of every video: on seeded inputs with
 * several generators, people, a label set's annotator, a judge and the gold, it must equal spanAgreement over each
 * generator's videos alone (their spans, who looked at them, their frame counts), intervals included.
 */
import { describe, expect, it } from "vitest";
import {
  spanAgreement,
  spanAgreementByGenerator,
  spanAgreementWithGenerators,
} from "../../../testkit/spans/span-agreement";
import type { SpanAgreementInput } from "./types";
import { seededSpanInput as seededInput } from "../../../testkit/spans/seeded-span-input";

/** The input narrowed to one generator's videos: what a report of that generator alone reads. */
function inputOf(input: SpanAgreementInput, generators: ReadonlyMap<string, string | null>, generator: string | null) {
  const mine = (video: string) => (generators.get(video) ?? null) === generator;
  return {
    ...input,
    coverage: new Map([...input.coverage].map(([rater, seen]) => [rater, new Set([...seen].filter(mine))])),
    frameCounts: new Map([...input.frameCounts].filter(([video]) => mine(video))),
    spans: input.spans.filter((s) => mine(s.videoId)),
  };
}

function expectEachGeneratorAlone(seed: number, videos: number, iterations: number) {
  const { input, generators } = seededInput(seed, videos);
  const options = { iterations, seed: 7 };
  const { whole, byGenerator } = spanAgreementWithGenerators(input, generators, options);
  expect(whole).toEqual(spanAgreement(input, options));
  expect(byGenerator.map((g) => g.generator)).toEqual(["Kling", "Sora", "Veo 2", "Veo 10", null]);
  for (const g of byGenerator) {
    const alone = spanAgreement(inputOf(input, generators, g.generator), options);
    const looked = new Set([...input.coverage.values()].flatMap((seen) => [...seen]));
    expect(g.videos).toBe([...looked].filter((v) => generators.get(v) === g.generator).length);
    expect(g.videosLeftOut).toBe(alone.videosLeftOut);
    expect(g.labels).toEqual(alone.labels);
  }
  expect(spanAgreementByGenerator(input, generators, options)).toEqual(byGenerator);
  // The seeded example has what the comparison needs: every kind of comparison, left-out videos, matched boxes.
  const kinds = new Set(byGenerator.flatMap((g) => g.labels.flatMap((l) => l.comparisons.map((c) => c.kind))));
  expect([...kinds].sort()).toEqual(["judge_gold", "judge_people", "judge_person", "people", "people_pooled"]);
  expect(byGenerator.some((g) => g.videosLeftOut > 0)).toBe(true);
  expect(whole.labels.map((l) => l.label)).toEqual(["x", "y"]);
  expect(whole.labels[0]!.comparisons.some((c) => c.boxIou.pairs > 0)).toBe(true);
  return byGenerator;
}

describe("span agreement per generator from one matching", () => {
  it("equals each generator's videos computed alone, on a seeded example of five generators", () => {
    expectEachGeneratorAlone(11, 120, 200);
  });

  it("equals each generator's videos computed alone past 1,000 videos a generator (block resampling)", () => {
    const byGenerator = expectEachGeneratorAlone(23, 5600, 20);
    expect(byGenerator.filter((g) => g.videos > 1000).length).toBeGreaterThanOrEqual(3);
  });
});
