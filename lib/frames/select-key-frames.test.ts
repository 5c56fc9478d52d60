import { describe, expect, it } from "vitest";
import {
  autoSceneChangeThreshold,
  defaultKeyFrameCount,
  densityPeaks,
  selectKeyFramesDensityPeaks,
  selectSceneChangeKeyFrames,
  selectUniformFrames,
} from "./select-key-frames";

const points = (...coordinates: (number | readonly number[])[]) =>
  coordinates.map((coordinate) => Float32Array.from(typeof coordinate === "number" ? [coordinate] : coordinate));

/** Deterministic pseudo-random numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** A centre and a hexagon of radius 0.3 around it: the centre is the group's density peak. */
function group(centreX: number, centreY: number): { centre: number[]; ring: number[][] } {
  const ring = Array.from({ length: 6 }, (_, k) => [
    centreX + 0.3 * Math.cos((k * Math.PI) / 3),
    centreY + 0.3 * Math.sin((k * Math.PI) / 3),
  ]);
  return { centre: [centreX, centreY], ring };
}

describe("densityPeaks", () => {
  it("computes ρ, δ and γ as Rodriguez & Laio define them", () => {
    // 1-D points 0, 1, 2, 10 with dc = 1.
    const peaks = densityPeaks(points(0, 1, 2, 10), 1);
    const k = (distance: number) => Math.exp(-(distance ** 2));
    const expectedRho = [k(1) + k(2) + k(10), k(1) + k(1) + k(9), k(2) + k(1) + k(8), k(10) + k(9) + k(8)];
    expectedRho.forEach((rho, index) => expect(peaks.rho[index]).toBeCloseTo(rho, 12));
    // Frame 1 is densest: δ = its largest distance (to 10). Others: distance to the nearest denser frame.
    expect(Array.from(peaks.delta)).toEqual([1, 9, 1, 8]);
    expect(Array.from(peaks.nearestHigher)).toEqual([1, -1, 1, 2]);
    expectedRho.forEach((rho, index) => expect(peaks.gamma[index]).toBeCloseTo(rho * [1, 9, 1, 8][index]!, 12));
    expect(peaks.cutoff).toBe(1);
  });

  it("breaks density ties by the lower index", () => {
    const peaks = densityPeaks(points(0, 1), 1);
    expect(peaks.rho[0]).toBe(peaks.rho[1]);
    expect(Array.from(peaks.nearestHigher)).toEqual([-1, 0]);
    expect(Array.from(peaks.delta)).toEqual([1, 1]);
  });

  it("chooses dc as the 2% nearest-rank percentile of pairwise distances", () => {
    // Distances 1, 2, 3, ..., the 2% rank of 10 distances is the smallest: 1.
    expect(densityPeaks(points(0, 1, 3, 7, 15)).cutoff).toBe(1);
    // 60 points at 0, 1, ..., 59: 1770 distances, rank ceil(35.4) = 36; there are 59 distances of 1.
    expect(densityPeaks(points(...Array.from({ length: 60 }, (_, i) => i))).cutoff).toBe(1);
    // 20 points at 0, 2, ...: rank ceil(3.8) = 4 of 190 → still among the 19 distances of 2.
    expect(densityPeaks(points(...Array.from({ length: 20 }, (_, i) => 2 * i))).cutoff).toBe(2);
  });

  it("ignores duplicate frames when choosing dc, unless every frame is the same", () => {
    expect(densityPeaks(points(0, 0, 5, 6)).cutoff).toBe(1);
    expect(densityPeaks(points(3, 3, 3)).cutoff).toBe(0);
    expect(Array.from(densityPeaks(points(3, 3, 3)).rho)).toEqual([2, 2, 2]);
  });

  it("handles no frames and one frame", () => {
    expect(densityPeaks([]).rho).toHaveLength(0);
    const single = densityPeaks(points(4));
    expect(Array.from(single.delta)).toEqual([0]);
    expect(Array.from(single.nearestHigher)).toEqual([-1]);
  });

  it("rejects a negative cutoff and mixed feature lengths", () => {
    expect(() => densityPeaks(points(0, 1), -1)).toThrow(RangeError);
    expect(() => densityPeaks([new Float32Array(2), new Float32Array(3)])).toThrow(RangeError);
  });
});

describe("selectKeyFramesDensityPeaks", () => {
  const groups = [group(0, 0), group(10, 0), group(0, 10)];
  // Interleave the groups so position in the input says nothing about group membership.
  const labelled = groups.flatMap((g, groupIndex) => [
    { label: `centre${groupIndex}`, point: g.centre },
    ...g.ring.map((point, k) => ({ label: `ring${groupIndex}.${k}`, point })),
  ]);
  const order = [5, 12, 0, 19, 8, 3, 15, 20, 1, 10, 17, 6, 13, 2, 18, 9, 4, 14, 7, 16, 11];

  it("picks the centre of each of three tight groups", () => {
    const shuffled = order.map((index) => labelled[index]!);
    const selected = selectKeyFramesDensityPeaks(points(...shuffled.map((entry) => entry.point)), { m: 3 });
    expect(selected.map((index) => shuffled[index]!.label).sort()).toEqual(["centre0", "centre1", "centre2"]);
    expect(selected).toEqual([...selected].sort((a, b) => a - b));
  });

  it("selects the same frames whatever the input order and on every run", () => {
    const inOrder = selectKeyFramesDensityPeaks(points(...labelled.map((entry) => entry.point)), { m: 3 });
    expect(inOrder.map((index) => labelled[index]!.label)).toEqual(["centre0", "centre1", "centre2"]);
    const reversed = [...labelled].reverse();
    const selectedReversed = selectKeyFramesDensityPeaks(points(...reversed.map((entry) => entry.point)), { m: 3 });
    expect(selectedReversed.map((index) => reversed[index]!.label).sort()).toEqual(["centre0", "centre1", "centre2"]);
    const features = points(...labelled.map((entry) => entry.point));
    expect(selectKeyFramesDensityPeaks(features, { m: 5 })).toEqual(selectKeyFramesDensityPeaks(features, { m: 5 }));
  });

  it("breaks γ ties by the lower index", () => {
    // Three identical groups: the first centre is the top (δ = largest distance); the other two centres
    // both have δ = 50 and the same ρ, so with m = 2 the lower index wins.
    const ascending = [0, 1, 2, 50, 51, 52, 100, 101, 102];
    const peaks = densityPeaks(points(...ascending), 1);
    expect(peaks.gamma[4]).toBe(peaks.gamma[7]);
    expect(selectKeyFramesDensityPeaks(points(...ascending), { m: 2, cutoff: 1 })).toEqual([1, 4]);
    expect(selectKeyFramesDensityPeaks(points(...ascending), { m: 3, cutoff: 1 })).toEqual([1, 4, 7]);
    // Reversed, the same positions win although they now hold 101 and 51.
    expect(selectKeyFramesDensityPeaks(points(...[...ascending].reverse()), { m: 2, cutoff: 1 })).toEqual([1, 4]);
  });

  it("returns nothing for no frames or m = 0, and every frame when m ≥ n", () => {
    expect(selectKeyFramesDensityPeaks([], { m: 3 })).toEqual([]);
    expect(selectKeyFramesDensityPeaks(points(1, 2, 3), { m: 0 })).toEqual([]);
    expect(selectKeyFramesDensityPeaks(points(7), { m: 3 })).toEqual([0]);
    expect(selectKeyFramesDensityPeaks(points(5, 1, 3), { m: 3 })).toEqual([0, 1, 2]);
    expect(selectKeyFramesDensityPeaks(points(5, 1, 3), { m: 10 })).toEqual([0, 1, 2]);
    expect(() => selectKeyFramesDensityPeaks(points(1, 2), { m: 1.5 })).toThrow(RangeError);
  });

  it("spreads m distinct frames uniformly when all frames are identical", () => {
    const identical = points(...Array.from({ length: 10 }, () => [0.5, 0.5]));
    expect(selectKeyFramesDensityPeaks(identical, { m: 3 })).toEqual([1, 5, 8]);
    expect(selectKeyFramesDensityPeaks(identical, { m: 3, cutoff: 0.1 })).toEqual([1, 5, 8]);
  });

  it("fills in time when fewer than m frames are distinct", () => {
    // Two static shots: only the first frame of each has γ > 0; the rest are chosen farthest in time.
    const twoShots = points(...Array.from({ length: 20 }, (_, i) => (i < 10 ? 0 : 1)));
    expect(selectKeyFramesDensityPeaks(twoShots, { m: 2 })).toEqual([0, 10]);
    expect(selectKeyFramesDensityPeaks(twoShots, { m: 4 })).toEqual([0, 5, 10, 19]);
  });

  it("copes with 2,000 frames", () => {
    const random = seededRandom(7);
    const features = Array.from({ length: 2000 }, () => Float32Array.from({ length: 128 }, random));
    const selected = selectKeyFramesDensityPeaks(features, { m: 12 });
    expect(selected).toHaveLength(12);
    expect(new Set(selected).size).toBe(12);
    expect(selected).toEqual([...selected].sort((a, b) => a - b));
  });
});

describe("defaultKeyFrameCount", () => {
  it("is one per two seconds, between 3 and 12", () => {
    expect(defaultKeyFrameCount(2)).toBe(3);
    expect(defaultKeyFrameCount(5)).toBe(3);
    expect(defaultKeyFrameCount(7)).toBe(4);
    expect(defaultKeyFrameCount(10)).toBe(5);
    expect(defaultKeyFrameCount(24)).toBe(12);
    expect(defaultKeyFrameCount(600)).toBe(12);
    expect(defaultKeyFrameCount(0)).toBe(3);
    expect(defaultKeyFrameCount(Number.NaN)).toBe(3);
  });
});

describe("selectSceneChangeKeyFrames", () => {
  // Three shots with slow drift inside each; the cut at 20 is bigger than the cut at 10.
  const random = seededRandom(3);
  const shotLevels = [0, 1, 3];
  const threeShots = points(
    ...Array.from({ length: 30 }, (_, i) => [shotLevels[Math.floor(i / 10)]! + 0.01 * i + 0.005 * random(), 0.2]),
  );

  it("keeps frame 0 and the first frame after each cut", () => {
    expect(selectSceneChangeKeyFrames(threeShots)).toEqual([0, 10, 20]);
  });

  it("respects the minimum gap, keeping the bigger change", () => {
    expect(selectSceneChangeKeyFrames(threeShots, { minGap: 11 })).toEqual([0, 20]);
    // A gap of 21 also rules out 20 (too close to frame 0).
    expect(selectSceneChangeKeyFrames(threeShots, { minGap: 21 })).toEqual([0]);
  });

  it("caps the count, keeping the biggest changes", () => {
    expect(selectSceneChangeKeyFrames(threeShots, { max: 2 })).toEqual([0, 20]);
    expect(selectSceneChangeKeyFrames(threeShots, { max: 1 })).toEqual([0]);
  });

  it("uses an explicit threshold", () => {
    expect(selectSceneChangeKeyFrames(threeShots, { threshold: 1.5 })).toEqual([0, 20]);
    expect(selectSceneChangeKeyFrames(threeShots, { threshold: 5 })).toEqual([0]);
  });

  it("finds no cut in a static or empty video", () => {
    expect(selectSceneChangeKeyFrames(points(...Array.from({ length: 8 }, () => 0.4)))).toEqual([0]);
    expect(selectSceneChangeKeyFrames(points(0.4))).toEqual([0]);
    expect(selectSceneChangeKeyFrames([])).toEqual([]);
  });

  it("computes the automatic threshold as mean + 2·std", () => {
    expect(autoSceneChangeThreshold([1, 1, 1, 1])).toBe(1);
    expect(autoSceneChangeThreshold([0, 2])).toBe(3);
  });
});

describe("selectUniformFrames", () => {
  it("takes the centre of each of n equal segments", () => {
    expect(selectUniformFrames(100, 8)).toEqual([6, 18, 31, 43, 56, 68, 81, 93]);
    expect(selectUniformFrames(10, 3)).toEqual([1, 5, 8]);
    expect(selectUniformFrames(16, 16)).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });

  it("returns each frame once for short videos", () => {
    expect(selectUniformFrames(5, 8)).toEqual([0, 1, 2, 3, 4]);
    expect(selectUniformFrames(0, 8)).toEqual([]);
    expect(selectUniformFrames(9, 0)).toEqual([]);
  });
});
