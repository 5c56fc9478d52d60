import { describe, expect, it } from "vitest";
import { krippendorffAlpha } from "../../stats/krippendorff-alpha";
import { ratingTableFromMatrix } from "../../stats/rating-table";
import { frameAlpha, frameKappa } from "./frame-agreement";
import { type AgreementSpan, frameCounts, matchedBoxIou } from "./match";
import { greedyMatch, spanAgreement, temporalIou } from "../../../testkit/spans/span-agreement";
import type { SpanAgreementInput, SpanAgreementRow, SpanRater } from "./types";

const s = (id: string, startFrame: number, endFrame: number, boxes: AgreementSpan["boxes"] = []): AgreementSpan => ({
  id,
  startFrame,
  endFrame,
  boxes,
});
const pairs = (m: ReturnType<typeof greedyMatch>) => m.map((p) => `${p.reference.id}-${p.prediction.id}`);

describe("temporalIou", () => {
  it("counts frames inclusively", () => {
    expect(temporalIou(s("a", 0, 0), s("b", 0, 0))).toBe(1);
    expect(temporalIou(s("a", 0, 9), s("b", 9, 18))).toBe(1 / 19);
    expect(temporalIou(s("a", 0, 9), s("b", 10, 19))).toBe(0);
  });
});

describe("greedyMatch", () => {
  it("takes the highest IoU first, one to one", () => {
    // b overlaps a1 (IoU 0.5) and a2 (IoU 0.8): it goes to a2, and a1 stays unmatched.
    const m = greedyMatch([s("a1", 0, 9), s("a2", 10, 14)], [s("b", 5, 14)]);
    expect(m).toHaveLength(1);
    expect(pairs(m)).toEqual(["a2-b"]);
  });

  it("breaks an IoU tie by the earlier reference start, then the earlier predicted start", () => {
    // a1 and a2 both overlap b by 1/3.
    expect(pairs(greedyMatch([s("a2", 10, 14), s("a1", 0, 4)], [s("b", 3, 11)]))).toEqual(["a1-b"]);
    expect(pairs(greedyMatch([s("a", 10, 19)], [s("b2", 15, 24), s("b1", 5, 14)]))).toEqual(["a-b1"]);
  });

  it("then by the shorter span, then by id", () => {
    // Same start, same IoU 0.5: a (0–3) with b1 (0–1, 2 frames) is 2/4; with b2 (0–7, 8 frames) is 4/8.
    expect(pairs(greedyMatch([s("a", 0, 3)], [s("b2", 0, 7), s("b1", 0, 1)]))).toEqual(["a-b1"]);
    expect(pairs(greedyMatch([s("a", 0, 3)], [s("y", 0, 3), s("x", 0, 3)]))).toEqual(["a-x"]);
  });

  it("matches as many spans as a video holds, past 30 on a side", () => {
    // 40 spans a side: a one-frame span 2k against a two-frame span 2k–2k+1 (IoU 1/2), each overlapping only its own.
    const reference = Array.from({ length: 40 }, (_, k) => s(`a${k}`, 2 * k, 2 * k));
    const prediction = Array.from({ length: 40 }, (_, k) => s(`b${k}`, 2 * k, 2 * k + 1));
    const m = greedyMatch(reference, prediction);
    expect(m).toHaveLength(40);
    expect(m.every((p) => p.iou === 0.5 && p.reference.id.slice(1) === p.prediction.id.slice(1))).toBe(true);
  });
});

describe("frameCounts", () => {
  it("merges a rater's overlapping spans and clips them to the video", () => {
    const c = frameCounts([s("a", 0, 5), s("a2", 3, 8), s("a3", 25, 40)], [s("b", 4, 12)], 30);
    // A: 0–8 and 25–29 (14 frames); B: 4–12 (9); both 4–8 (5).
    expect(c).toEqual({ frames: 30, reference: 14, prediction: 9, both: 5 });
  });
});

describe("matchedBoxIou", () => {
  const box = (frame: number, x: number, enabled = true) => ({ frame, x, y: 0, w: 0.5, h: 1, enabled });
  it("is null unless both show a box on a shared frame", () => {
    expect(matchedBoxIou(s("a", 0, 9), s("b", 0, 9, [box(0, 0)]))).toBeNull();
    expect(matchedBoxIou(s("a", 0, 4, [box(0, 0)]), s("b", 0, 9, [box(5, 0)]))).toBeNull();
  });
  it("averages over the frames both show a box, not past a keyframe that is not enabled", () => {
    // a: a box on frame 0 only (not enabled); b: from frame 0 on. One shared frame, IoU 1.
    expect(matchedBoxIou(s("a", 0, 9, [box(0, 0, false)]), s("b", 0, 9, [box(0, 0)]))).toBe(1);
    // a at x 0 on 0–1, b at x 0.25 (IoU 1/3) on 0–1.
    expect(matchedBoxIou(s("a", 0, 1, [box(0, 0)]), s("b", 0, 1, [box(0, 0.25)]))).toBeCloseTo(1 / 3, 12);
  });
});

describe("frame κ and α", () => {
  it("equal lib/stats' Krippendorff α on the same frames as rating rows", () => {
    const table = { both: 3, referenceOnly: 2, predictionOnly: 1, neither: 6 };
    const frames = [
      ...Array.from({ length: table.both }, () => [1, 1]),
      ...Array.from({ length: table.referenceOnly }, () => [1, 0]),
      ...Array.from({ length: table.predictionOnly }, () => [0, 1]),
      ...Array.from({ length: table.neither }, () => [0, 0]),
    ];
    const alpha = krippendorffAlpha(ratingTableFromMatrix(frames), "nominal");
    expect(alpha).not.toBeNull();
    expect(frameAlpha(table)).toBeCloseTo(alpha!, 12);
    // κ by hand: pₒ = 9/12, pₑ = (5·4 + 7·8)/144 = 76/144.
    expect(frameKappa(table)).toBeCloseTo((9 / 12 - 76 / 144) / (1 - 76 / 144), 12);
  });
  it("are undefined when every frame is one value", () => {
    expect(frameKappa({ both: 0, referenceOnly: 0, predictionOnly: 0, neither: 10 })).toBeNull();
    expect(frameAlpha({ both: 0, referenceOnly: 0, predictionOnly: 0, neither: 10 })).toBeNull();
  });
});

const row = (
  id: string,
  videoId: string,
  authorId: string,
  startFrame: number,
  endFrame: number,
  label = "x",
): SpanAgreementRow => ({
  id,
  videoId,
  authorId,
  label,
  startFrame,
  endFrame,
  boxes: [],
});
const raters: SpanRater[] = [
  { id: "u1", kind: "reviewer", label: "One" },
  { id: "u2", kind: "reviewer", label: "Two" },
  { id: "run:r", kind: "judge", label: "Judge" },
];

describe("spanAgreement", () => {
  const base: SpanAgreementInput = {
    labels: [
      { id: "x", label: "X" },
      { id: "y", label: "Y" },
    ],
    raters,
    coverage: new Map([
      ["u1", new Set(["v1", "v2", "v3"])],
      ["u2", new Set(["v1", "v3"])],
      ["run:r", new Set(["v1", "v2", "v3"])],
    ]),
    frameCounts: new Map([
      ["v1", 10],
      ["v2", 10],
    ]),
    spans: [
      row("1", "v1", "u1", 0, 4),
      row("2", "v1", "u2", 0, 4),
      row("3", "v1", "run:r", 5, 9),
      row("4", "v2", "u1", 0, 9),
      row("5", "v2", "run:r", 0, 9),
      row("6", "v2", "u2", 0, 9), // u2 did not look at v2 (no coverage): never compared
      row("7", "v1", "u1", 0, 1, "unknown"),
    ],
  };
  const result = spanAgreement(base, { iterations: 200 });
  const x = result.labels.find((l) => l.label === "x")!;

  it("compares people, each person with the judge and the people pooled with the judge; labels without spans drop out", () => {
    expect(result.labels.map((l) => l.label)).toEqual(["x"]);
    expect(x.comparisons.map((c) => c.key)).toEqual([
      "people:u1|u2",
      "judge:run:r|u1",
      "judge:run:r|u2",
      "judge:run:r|people",
    ]);
    expect(x.comparisons[1]).toMatchObject({ referenceLabel: "One", predictionLabel: "Judge" });
  });

  it("compares only the videos both looked at, and counts those without a frame count as left out", () => {
    const [people, judgeOne, judgeTwo, pooled] = x.comparisons;
    expect(people!.videos).toBe(1); // v1 (v3 has no frame count)
    expect(judgeOne!.videos).toBe(2); // v1, v2
    expect(judgeTwo!.videos).toBe(1);
    expect(pooled!.videos).toBe(2);
    expect(result.videosLeftOut).toBe(1);
    expect(people!.thresholds[3]!.f1.value).toBe(1);
    // Judge vs One: v1 no match, v2 a match: P = R = 1/2.
    expect(judgeOne!.thresholds[0]).toMatchObject({ matched: 1, precision: { value: 0.5 }, recall: { value: 0.5 } });
    // Pooled: One's (1 of 2) plus Two's (0 of 1) reference spans.
    expect(pooled).toMatchObject({ referenceSpans: 3, predictionSpans: 3 });
    expect(pooled!.thresholds[0]!.recall.value).toBeCloseTo(1 / 3, 12);
  });

  it("a label filter gives the same numbers, intervals included", () => {
    const only = spanAgreement({ ...base, labels: [{ id: "x", label: "X" }] }, { iterations: 200 });
    expect(only.labels).toEqual([x]);
  });

  it("another seed gives other intervals, the same seed the same", () => {
    const judgeOne = x.comparisons[1]!;
    expect(spanAgreement(base, { iterations: 200 }).labels[0]!.comparisons[1]).toEqual(judgeOne);
    const other = spanAgreement(base, { iterations: 200, seed: 7 }).labels[0]!.comparisons[1]!;
    expect(other.thresholds[0]!.f1.value).toBe(judgeOne.thresholds[0]!.f1.value);
  });

  it("compares the judge with the gold, and refuses unusable bootstrap options", () => {
    const withGold = spanAgreement(
      {
        ...base,
        raters: [...raters, { id: "gold", kind: "gold", label: "Gold" }],
        coverage: new Map([...base.coverage, ["gold", new Set(["v2"])]]),
        spans: [...base.spans, row("8", "v2", "gold", 0, 9)],
      },
      { iterations: 50 },
    );
    const gold = withGold.labels[0]!.comparisons.find((c) => c.kind === "judge_gold")!;
    expect(gold).toMatchObject({ key: "judge:run:r|gold", videos: 1, referenceLabel: "Gold" });
    expect(gold.thresholds[3]!.f1.value).toBe(1);
    expect(() => spanAgreement(base, { iterations: 0 })).toThrow(/iterations/);
  });
});

describe("spanAgreement over more videos than the bootstrap resamples one by one (1,000)", () => {
  it("resamples blocks of videos: an interval around the value, as wide as the videos' spread makes it", () => {
    // 2,500 videos: on every third the two reviewers agree exactly (IoU 1), elsewhere they miss (IoU 0). Blocks of
    // neighbours in id order would each hold about one agreeing video and show almost no spread; shuffled blocks do.
    const videos = Array.from({ length: 2500 }, (_, v) => `v${String(v).padStart(4, "0")}`);
    const spans = videos.flatMap((v, i) => [
      row(`a${v}`, v, "u1", 0, 4),
      row(`b${v}`, v, "u2", i % 3 === 0 ? 0 : 6, i % 3 === 0 ? 4 : 9),
    ]);
    const result = spanAgreement(
      {
        labels: [{ id: "x", label: "X" }],
        raters: raters.slice(0, 2),
        coverage: new Map([
          ["u1", new Set(videos)],
          ["u2", new Set(videos)],
        ]),
        frameCounts: new Map(videos.map((v) => [v, 10])),
        spans,
      },
      { iterations: 300 },
    );
    const f1 = result.labels[0]!.comparisons[0]!.thresholds[0]!.f1;
    expect(f1.value).toBeCloseTo(834 / 2500, 12);
    // The binomial standard error of 834 in 2,500 is about 0.0094: a 95% interval some 0.037 wide.
    const [lower, upper] = f1.ci!;
    expect(lower).toBeLessThan(f1.value!);
    expect(upper).toBeGreaterThan(f1.value!);
    expect(upper - lower).toBeGreaterThan(0.025);
    expect(upper - lower).toBeLessThan(0.05);
  });
});

describe("who counts as a person", () => {
  it("a label set's annotator named as a judge run or the gold (a span file's round trip) is never pooled with people", () => {
    const row = (id: string, authorId: string, startFrame: number, endFrame: number): SpanAgreementRow => ({
      id,
      videoId: "v",
      authorId,
      label: "s1",
      startFrame,
      endFrame,
      boxes: [],
    });
    const raters: SpanRater[] = [
      { id: "ann", kind: "reviewer", label: "Ann" },
      { id: "labelset:L:bob", kind: "label_set", label: "bob" },
      { id: "labelset:L:run:r1", kind: "label_set", label: "run:r1" },
      { id: "labelset:L:gold", kind: "label_set", label: "gold" },
      { id: "run:r1", kind: "judge", label: "Judge" },
    ];
    const input: SpanAgreementInput = {
      labels: [{ id: "s1", label: "s1" }],
      raters,
      coverage: new Map(raters.map((r) => [r.id, new Set(["v"])])),
      frameCounts: new Map([["v", 30]]),
      spans: [
        row("a", "ann", 0, 9),
        row("b", "labelset:L:bob", 0, 9),
        row("c", "labelset:L:run:r1", 20, 29),
        row("d", "labelset:L:gold", 20, 29),
        row("e", "run:r1", 0, 9),
      ],
    };
    const comparisons = spanAgreement(input, { iterations: 20 }).labels[0]!.comparisons;
    expect(comparisons.map((c) => c.key)).toEqual([
      "people:ann|labelset:L:bob",
      "judge:run:r1|ann",
      "judge:run:r1|labelset:L:bob",
      "judge:run:r1|people",
    ]);
    const pooled = comparisons.find((c) => c.key === "judge:run:r1|people")!;
    expect(pooled.referenceSpans).toBe(2);
  });
});
