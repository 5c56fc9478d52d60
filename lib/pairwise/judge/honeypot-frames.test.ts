import fs from "node:fs";
import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { mediaFixtures } from "../../../testkit/testing/media-fixtures";
import type { FrameRef } from "../../task-modules/pipeline-types";
import { corruptJpeg, honeypotFrames, honeypotKindOf } from "./honeypot-frames";

const frames: FrameRef[] = Array.from({ length: 6 }, (_, i) => ({
  id: `f${i}`,
  index: i,
  timestampS: i * 0.5,
  isKeyFrame: false,
  cluster: null,
  storageKey: `k${i}`,
  sha256: `s${i}`,
}));

describe("honeypot copies of video A", () => {
  it("frozen: A's first frame, as many times as A has frames", () => {
    const b = honeypotFrames("frozen", frames, "pair-1");
    expect(b).toHaveLength(6);
    expect(new Set(b.map((f) => f.id))).toEqual(new Set(["f0"]));
  });

  it("shuffled: A's frames, none lost, in an order other than time's, the same for the same pair", () => {
    const b = honeypotFrames("shuffled", frames, "pair-1");
    expect([...b.map((f) => f.id)].sort()).toEqual(frames.map((f) => f.id));
    expect(b.map((f) => f.id)).not.toEqual(frames.map((f) => f.id));
    expect(honeypotFrames("shuffled", frames, "pair-1")).toEqual(b);
    // Two frames are always exchanged, never kept in order.
    expect(honeypotFrames("shuffled", frames.slice(0, 2), "x").map((f) => f.id)).toEqual(["f1", "f0"]);
  });

  it("corrupted: A's frames marked damaged, sent as a decodable JPEG whose pixels differ", () => {
    const b = honeypotFrames("corrupted", frames, "pair-1");
    expect(b.every((f, i) => f.damaged && f.id === frames[i]!.id)).toBe(true);
    const original = fs.readFileSync(mediaFixtures().jpeg);
    const damaged = corruptJpeg(original);
    const [before, after] = [jpeg.decode(original, { useTArray: true }), jpeg.decode(damaged, { useTArray: true })];
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    let changed = 0;
    for (let i = 0; i < before.data.length; i += 4) if (Math.abs(before.data[i]! - after.data[i]!) > 64) changed++;
    // Noise blocks cover about a quarter of the picture (at least the block near its centre).
    expect(changed / (before.width * before.height)).toBeGreaterThan(0.01);
    expect(corruptJpeg(original)).toEqual(damaged);
  });

  it("reads the kind a pair stores, and nothing from anything else", () => {
    expect(honeypotKindOf({ kind: "frozen" })).toBe("frozen");
    expect(honeypotKindOf(null)).toBeNull();
    expect(honeypotKindOf({ kind: "melted" })).toBeNull();
  });
});
