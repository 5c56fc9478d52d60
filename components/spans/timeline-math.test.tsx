import { describe, expect, it } from "vitest";
import {
  clampView,
  frameToX,
  fullView,
  inOutFrames,
  MIN_VISIBLE_FRAMES,
  movedBy,
  nearerEdge,
  pixelsToFrames,
  rulerStep,
  rulerTicks,
  visibleRange,
  visibleSpans,
  withEdgeAt,
  xToFrame,
  zoomAbout,
} from "./timeline-math";

/*
 * The timeline's geometry by hand: a 1000-pixel track. Frame f is the cell [f, f + 1); a pointer is in the frame whose
 * cell it falls in; drags move by whole frames (rounded); zoom keeps its anchor where it was on screen.
 */
describe("pixels and frames", () => {
  const view = { first: 100, visible: 50 }; // 20 px per frame

  it("puts a frame's left edge at its pixel and finds the frame under a pixel (its cell)", () => {
    expect(frameToX(view, 1000, 100)).toBe(0);
    expect(frameToX(view, 1000, 110)).toBe(200);
    expect(frameToX(view, 1000, 150)).toBe(1000);
    expect(xToFrame(view, 1000, 0, 36000)).toBe(100);
    expect(xToFrame(view, 1000, 19.9, 36000)).toBe(100);
    expect(xToFrame(view, 1000, 20, 36000)).toBe(101);
    expect(xToFrame(view, 1000, 999, 36000)).toBe(149);
  });

  it("keeps the frame under a pointer inside the video", () => {
    expect(xToFrame(view, 1000, -500, 36000)).toBe(75);
    expect(xToFrame({ first: 0, visible: 10 }, 1000, -5, 36000)).toBe(0);
    expect(xToFrame({ first: 0, visible: 10 }, 1000, 5000, 8)).toBe(7);
    expect(xToFrame(view, 0, 10, 36000)).toBe(0);
  });

  it("snaps a drag to whole frames: 29 px is one frame at 20 px a frame, 31 px two, −10 px none … −11 px one back", () => {
    expect(pixelsToFrames(view, 1000, 29)).toBe(1);
    expect(pixelsToFrames(view, 1000, 31)).toBe(2);
    expect(pixelsToFrames(view, 1000, 9)).toBe(0);
    expect(pixelsToFrames(view, 1000, -11)).toBe(-1);
    // Zoomed out to 36,000 frames on 1000 px: a pixel is 36 frames.
    expect(pixelsToFrames(fullView(36000), 1000, 1)).toBe(36);
  });
});

describe("zoom and view", () => {
  it("zooms about the anchor: the anchor frame stays at the same place on screen", () => {
    const view = { first: 0, visible: 1000 };
    const zoomed = zoomAbout(view, 2, 400, 36000);
    expect(zoomed.visible).toBe(500);
    // 400 was 40% across; it still is.
    expect((400 - zoomed.first) / zoomed.visible).toBeCloseTo(0.4, 10);
    expect(zoomed.first).toBe(200);
  });

  it("stops zooming in at MIN_VISIBLE_FRAMES and out at the whole video, and never shows past either end", () => {
    expect(zoomAbout({ first: 0, visible: 12 }, 100, 5, 36000).visible).toBe(MIN_VISIBLE_FRAMES);
    expect(zoomAbout({ first: 0, visible: 30000 }, 0.01, 5, 36000)).toEqual({ first: 0, visible: 36000 });
    expect(zoomAbout({ first: 35900, visible: 100 }, 0.5, 35990, 36000)).toEqual({ first: 35800, visible: 200 });
    expect(clampView({ first: -40, visible: 100 }, 36000)).toEqual({ first: 0, visible: 100 });
    // A video shorter than the closest zoom shows all of itself.
    expect(clampView({ first: 0, visible: 2 }, 4)).toEqual({ first: 0, visible: 4 });
  });

  it("names the whole frames in view, and draws only the spans that touch them", () => {
    expect(visibleRange({ first: 100.5, visible: 50 }, 36000)).toEqual({ from: 100, to: 150 });
    expect(visibleRange({ first: 0, visible: 36000 }, 36000)).toEqual({ from: 0, to: 35999 });
    const spans = [
      { startFrame: 0, endFrame: 99 },
      { startFrame: 90, endFrame: 100 },
      { startFrame: 150, endFrame: 160 },
      { startFrame: 151, endFrame: 200 },
      { startFrame: 10, endFrame: 500 },
    ];
    expect(visibleSpans(spans, { from: 100, to: 150 })).toEqual([spans[1], spans[2], spans[4]]);
  });

  it("spaces ruler ticks at 1, 2 or 5 × 10^k frames, at least 70 px apart", () => {
    expect(rulerStep({ first: 0, visible: 36000 }, 1000)).toBe(5000);
    expect(rulerStep({ first: 0, visible: 100 }, 1000)).toBe(10);
    expect(rulerStep({ first: 0, visible: 10 }, 1000)).toBe(1);
    expect(rulerTicks({ first: 3, visible: 100 }, 1000, 36000)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });
});

describe("span edits in frames", () => {
  const span = { startFrame: 10, endFrame: 20 };

  it("picks the edge nearer the playhead (a tie: the end)", () => {
    expect(nearerEdge(span, 11)).toBe("start");
    expect(nearerEdge(span, 2)).toBe("start");
    expect(nearerEdge(span, 15)).toBe("end");
    expect(nearerEdge(span, 19)).toBe("end");
    expect(nearerEdge({ startFrame: 5, endFrame: 5 }, 5)).toBe("end");
  });

  it("moves an edge without passing the other or leaving the video", () => {
    expect(withEdgeAt(span, "start", 12, 100)).toEqual({ startFrame: 12, endFrame: 20 });
    expect(withEdgeAt(span, "start", 25, 100)).toEqual({ startFrame: 20, endFrame: 20 });
    expect(withEdgeAt(span, "start", -3, 100)).toEqual({ startFrame: 0, endFrame: 20 });
    expect(withEdgeAt(span, "end", 5, 100)).toEqual({ startFrame: 10, endFrame: 10 });
    expect(withEdgeAt(span, "end", 500, 100)).toEqual({ startFrame: 10, endFrame: 99 });
  });

  it("moves a body by whole frames, its length kept at either end of the video", () => {
    expect(movedBy(span, 5, 100)).toEqual({ startFrame: 15, endFrame: 25 });
    expect(movedBy(span, -50, 100)).toEqual({ startFrame: 0, endFrame: 10 });
    expect(movedBy(span, 500, 100)).toEqual({ startFrame: 89, endFrame: 99 });
  });

  it("orders the in and out points, and makes one point a one-frame span", () => {
    expect(inOutFrames(20, 10)).toEqual({ startFrame: 10, endFrame: 20 });
    expect(inOutFrames(7, null)).toEqual({ startFrame: 7, endFrame: 7 });
    expect(inOutFrames(null, 9)).toEqual({ startFrame: 9, endFrame: 9 });
    expect(inOutFrames(null, null)).toBeNull();
  });
});
