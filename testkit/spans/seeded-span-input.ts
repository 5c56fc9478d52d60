// A seeded span agreement input for tests of the matching: several generators, people, a label set's annotator, a
// judge and the gold, videos without a frame count, boxes, a label nobody marks.
import type { SpanAgreementInput, SpanAgreementRow, SpanRater } from "../../lib/spans/agreement/types";

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
export function seededSpanInput(seed: number, videos: number) {
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
