import { describe, expect, it } from "vitest";
import { frameSetFitsPlan, planFrames } from "./frame-plan";

describe("planFrames", () => {
  it("halves each side for a quarter of the area, as seed 004 compresses its frames", () => {
    expect(planFrames({ width: 1920, height: 1080 }, { mode: "quarter" })).toEqual({
      ok: true,
      maxSide: 960,
      width: 960,
      height: 540,
    });
    expect(planFrames({ width: 320, height: 240 }, { mode: "quarter" })).toEqual({
      ok: true,
      maxSide: 160,
      width: 160,
      height: 120,
    });
    // Portrait: the longest side is the height.
    expect(planFrames({ width: 720, height: 1280 }, { mode: "quarter" })).toEqual({
      ok: true,
      maxSide: 640,
      width: 360,
      height: 640,
    });
  });

  it("cannot plan a quarter of an unknown size", () => {
    expect(planFrames({ width: null, height: null }, { mode: "quarter" })).toEqual({
      ok: false,
      reason: expect.stringContaining("size is unknown"),
    });
  });

  it("fits a per-run longest side, never upscaling", () => {
    expect(planFrames({ width: 1920, height: 1080 }, { mode: "longest_side", px: 512 })).toEqual({
      ok: true,
      maxSide: 512,
      width: 512,
      height: 288,
    });
    expect(planFrames({ width: 320, height: 240 }, { mode: "longest_side", px: 512 })).toEqual({
      ok: true,
      maxSide: 512,
      width: 320,
      height: 240,
    });
    expect(planFrames({ width: null, height: null }, { mode: "longest_side", px: 512 })).toEqual({
      ok: true,
      maxSide: 512,
      width: null,
      height: null,
    });
  });
});

describe("frameSetFitsPlan", () => {
  const plan = { maxSide: 160, width: 160, height: 120 };
  it("takes a set extracted with the planned longest side, or whose frames have the planned size (±2 px)", () => {
    expect(frameSetFitsPlan(plan, { maxSide: 160, width: 999, height: 999 })).toBe(true);
    expect(frameSetFitsPlan(plan, { maxSide: 768, width: 161, height: 119 })).toBe(true);
    expect(frameSetFitsPlan(plan, { maxSide: 768, width: 320, height: 240 })).toBe(false);
    expect(
      frameSetFitsPlan({ maxSide: 512, width: null, height: null }, { maxSide: 768, width: 512, height: 288 }),
    ).toBe(false);
  });
});
