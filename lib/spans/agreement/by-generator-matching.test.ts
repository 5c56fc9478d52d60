/**
 * The per-generator report sums each generator's rows of the one matching of every video: on seeded inputs with
 * several generators, people, a label set's annotator, a judge and the gold, it must equal spanAgreement over each
 * generator's videos alone (their spans, who looked at them, their frame counts), intervals included.
 */
import { describe, expect, it } from "vitest";
import { spanAgreementWithGenerators } from "./by-generator";
import { spanAgreement, spanAgreementByGenerator } from "../../../testkit/spans/span-agreement";
import type { SpanAgreementInput, SpanAgreementRow, SpanRater } from "./types";

/** mulberry32: a seeded uniform in [0, 1). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GENERATORS = ["Sora", "Kling", "Veo 2", "Veo 10", null] as const;
const raters: SpanRater[] = [
  { id: "u1", kind: "reviewer", label: "One" },
  { id: "u2", kind: "reviewer", label: "Two" },
  { id: "labelset:s1", kind: "label_set", label: "Set" },
  { id: "run:r", kind: "judge", label: "Judge" },
  { id: "gold", kind: "gold", label: "Gold" },
];

/** `videos` videos of the generators in turn (one in 20 without a frame count), each rater looking at most of them. */
function seededInput(seed: number, videos: number) {
  const next = random(seed);
  const int = (n: number) => Math.floor(next() * n);
  const coverage = new Map(raters.map((r) => [r.id, new Set<string>()]));
  const frameCounts = new Map<string, number>();
  const generators = new Map<string, string | null>();
  const spans: SpanAgreementRow[] = [];
  for (let v = 0; v < videos; v++) {
    const video = `v${String(v).padStart(5, "0")}`;
    // The generators by a draw, so each one's videos are spread through the id order.
    generators.set(video, GENERATORS[int(GENERATORS.length)]!);
    const frames = 40 + int(60);
    if (int(20) > 0) frameCounts.set(video, frames);
    const stretches = Array.from({ length: int(4) }, () => {
      const start = int(frames - 10);
      return { start, end: start + 2 + int(8), label: int(3) === 0 ? "y" : "x" };
    });
    for (const rater of raters) {
      if (int(6) === 0) continue; // did not look at this video
      coverage.get(rater.id)!.add(video);
      for (const [k, s] of stretches.entries()) {
        if (int(4) === 0) continue; // missed it
        const startFrame = Math.max(0, s.start + int(7) - 3);
        const boxed = int(3) === 0;
        spans.push({
          id: `${rater.id}-${video}-${k}`,
          videoId: video,
          authorId: rater.id,
          label: s.label,
          startFrame,
          endFrame: Math.max(startFrame, s.end + int(7) - 3),
          boxes: boxed ? [{ frame: startFrame, x: next() * 0.5, y: next() * 0.5, w: 0.4, h: 0.4, enabled: true }] : [],
        });
      }
      if (int(10) === 0) {
        const start = int(frames - 5);
        spans.push({
          id: `${rater.id}-${video}-extra`,
          videoId: video,
          authorId: rater.id,
          label: "x",
          startFrame: start,
          endFrame: start + 3,
          boxes: [],
        });
      }
    }
  }
  const input: SpanAgreementInput = {
    labels: [
      { id: "x", label: "X" },
      { id: "y", label: "Y" },
      { id: "z", label: "Z (nobody marks it)" },
    ],
    raters,
    coverage,
    frameCounts,
    spans,
  };
  return { input, generators };
}

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
