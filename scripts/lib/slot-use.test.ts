import { describe, expect, it } from "vitest";
import { slotUse } from "./slot-use";

describe("slotUse", () => {
  it("says nothing of a run without calls", () => {
    expect(slotUse([], 0, 1000, 4)).toBeNull();
  });

  it("splits the unused slot time into before the first request, the ramp and the tail", () => {
    const requests = [
      { at: 100, endedAt: 400 },
      { at: 100, endedAt: 400 },
      { at: 400, endedAt: 700 },
      { at: 500, endedAt: 800 },
    ];
    const use = slotUse(requests, 0, 850, 2)!;
    expect(use.startSeconds).toBeCloseTo(0.1);
    expect(use.endSeconds).toBeCloseTo(0.05);
    expect(use.meanInFlight).toBeCloseTo(1200 / 700);
    // Two slots idle for 100 ms; one of two idle for 100 ms; no middle (the last request came within the ramp); the
    // drain: one of two idle for 100 ms, both for the last 50 ms.
    expect(use.lost.beforeFirst).toBeCloseTo(0.1);
    expect(use.lost.ramp).toBeCloseTo(0.05);
    expect(use.lost.middle).toBe(0);
    expect(use.lost.tail).toBeCloseTo(0.1);
  });

  it("reads a run of more requests than a function takes arguments", () => {
    const requests = Array.from({ length: 200_000 }, (_, i) => ({ at: i, endedAt: i + 1 }));
    const use = slotUse(requests, 0, 200_000, 1)!;
    expect(use.meanInFlight).toBeCloseTo(1);
    expect(use.lost.middle).toBeCloseTo(0);
  });

  it("counts a gap after the ramp in the middle, and a call not yet answered as running to the run's end", () => {
    const requests = [
      { at: 1000, endedAt: 2500 },
      { at: 2500, endedAt: 3000 },
      { at: 3100, endedAt: 3600 },
      { at: 3600, endedAt: null },
    ];
    const use = slotUse(requests, 0, 4100, 1)!;
    expect(use.lost.beforeFirst).toBeCloseTo(1);
    expect(use.lost.ramp).toBe(0);
    expect(use.lost.middle).toBeCloseTo(0.1);
    expect(use.lost.tail).toBe(0);
    expect(use.endSeconds).toBe(0);
  });
});
