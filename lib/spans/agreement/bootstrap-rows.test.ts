/**
 * The row bootstrap: the order blocks are cut from (the videos sorted by a hash of their ids, ties by index), and its
 * intervals against a plain resampling written out here (each resample's rows summed one drawn video at a time), with
 * the draws kept between calls or drawn afresh.
 */
import { describe, expect, it } from "vitest";
import { percentileInterval, resampler, streamSeed } from "../../stats/bootstrap";
import { bootstrapRows, shuffledOrder } from "./bootstrap-rows";
import { ROW, STAT_COUNT, STRIDE, statsOfSums } from "./video-stats";

describe("shuffledOrder", () => {
  it("sorts the indices by the ids' hashes, ties (the same id twice) by index", () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `video-${(i * 7919) % 2000}`);
    const hashes = ids.map((id) => streamSeed(5, id));
    const expected = Array.from(ids.keys()).sort((a, b) => hashes[a]! - hashes[b]! || a - b);
    const order = shuffledOrder(ids, 5);
    expect([...order]).toEqual(expected);
    // Some ids come twice, and their indices stay in order.
    const twice = order.findIndex((v, i) => i > 0 && ids[order[i - 1]!] === ids[v]);
    expect(twice).toBeGreaterThan(0);
    expect(order[twice - 1]!).toBeLessThan(order[twice]!);
  });
});

/** 300 videos of one label with whole counts (so any order of additions gives the same sums). */
function rows() {
  const videos = 300;
  const out = new Float64Array(videos * STRIDE);
  for (let v = 0; v < videos; v++) {
    const at = v * STRIDE;
    const spans = (v * 7) % 4;
    out[at + ROW.referenceSpans] = spans;
    out[at + ROW.predictionSpans] = (v * 5) % 3;
    for (let t = 0; t < 4; t++) out[at + ROW.matched + t] = Math.max(0, Math.min(spans, (v * 5) % 3) - t);
    out[at + ROW.iouSum] = (v % 3) * 0.5;
    out[at + ROW.both] = (v * 11) % 40;
    out[at + ROW.referenceFrames] = out[at + ROW.both]! + (v % 9);
    out[at + ROW.predictionFrames] = out[at + ROW.both]! + (v % 5);
    out[at + ROW.frames] = 120;
  }
  return { rows: out, videoIds: Array.from({ length: videos }, (_, v) => `video-${v}`) };
}

/** The bootstrap done plainly: per resample, the drawn videos' rows added one by one, then each statistic. */
function plainBootstrap(data: ReturnType<typeof rows>, key: string, seed: number, iterations: number) {
  const videos = data.videoIds.length;
  const draw = resampler(streamSeed(seed, key));
  const sample = new Int32Array(videos);
  const replicates = Array.from({ length: STAT_COUNT }, () => new Float64Array(iterations));
  const stats = new Float64Array(STAT_COUNT);
  for (let b = 0; b < iterations; b++) {
    draw(sample, videos);
    const sums = new Float64Array(STRIDE);
    for (const v of sample) for (let j = 0; j < STRIDE; j++) sums[j]! += data.rows[v * STRIDE + j]!;
    statsOfSums(sums, 0, stats, 0);
    for (let s = 0; s < STAT_COUNT; s++) replicates[s]![b] = stats[s]!;
  }
  return replicates.map((r) => percentileInterval(r, 0.95));
}

describe("bootstrapRows", () => {
  it("gives the plain resampling's intervals, with its draws kept or drawn afresh", () => {
    const data = rows();
    const intervals = (seed: number, key = "people:a|b", iterations = 200) => {
      const stats = bootstrapRows(data.rows, data.videoIds, 1, key, { iterations, confidence: 0.95, seed });
      return Array.from({ length: STAT_COUNT }, (_, s) =>
        Number.isNaN(stats.lower[s]!) ? null : [stats.lower[s], stats.upper[s]],
      );
    };
    const plain = (seed: number) =>
      plainBootstrap(data, "people:a|b", seed, 200).map((i) => (i ? [i.lower, i.upper] : null));
    const first = intervals(3);
    expect(first).toEqual(plain(3));
    expect(first.some((i) => i !== null && i[0] !== i[1])).toBe(true);
    // Kept: the same again. Another seed draws otherwise.
    expect(intervals(3)).toEqual(first);
    expect(intervals(4)).toEqual(plain(4));
    expect(intervals(4)).not.toEqual(first);
    // Past the kept draws (other keys and iterations in between): drawn afresh, the same.
    for (let k = 0; k < 20; k++) intervals(3, `other-${k}`, 50 + k);
    expect(intervals(3)).toEqual(first);
  });
});
