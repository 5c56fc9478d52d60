import { describe, expect, it } from "vitest";
import { draggedBox, withKeyframe } from "./box-overlay";
import { dragged } from "./span-track";

/*
 * Mouse edits by hand: on a 1000-pixel track showing frames 0–99 (10 px a frame), a body drag moves the span by whole
 * frames (rounded), an edge drag puts the edge on the frame under the pointer, a drag on empty track spans the frames
 * between press and release. A box drawn, moved or resized is a keyframe on the frame shown, inside the picture.
 */
const geometry = { view: { first: 0, visible: 100 }, width: 1000, frameCount: 100 };
const from = { startFrame: 10, endFrame: 20 };

describe("dragging spans", () => {
  it("moves the body by whole frames: 14 px is one frame, 16 px two, and stops at the video's end", () => {
    expect(dragged({ mode: "body", from, frame0: 15 }, 14, 0, geometry)).toEqual({ startFrame: 11, endFrame: 21 });
    expect(dragged({ mode: "body", from, frame0: 15 }, 16, 0, geometry)).toEqual({ startFrame: 12, endFrame: 22 });
    expect(dragged({ mode: "body", from, frame0: 15 }, -4, 0, geometry)).toEqual(from);
    expect(dragged({ mode: "body", from, frame0: 15 }, 5000, 0, geometry)).toEqual({ startFrame: 89, endFrame: 99 });
  });

  it("puts a dragged edge on the frame under the pointer, never past the other edge", () => {
    expect(dragged({ mode: "start", from, frame0: 10 }, 0, 4, geometry)).toEqual({ startFrame: 4, endFrame: 20 });
    expect(dragged({ mode: "end", from, frame0: 20 }, 0, 33, geometry)).toEqual({ startFrame: 10, endFrame: 33 });
    expect(dragged({ mode: "end", from, frame0: 20 }, 0, 3, geometry)).toEqual({ startFrame: 10, endFrame: 10 });
  });

  it("gives only the frames of a span the track passes whole (its edit is saved as is: a key the API does not know is a 400)", () => {
    const span = { ...from, key: "s1", id: "s1", label: "l", boxes: [], kind: "own" as const, author: "you" };
    expect(dragged({ mode: "end", from: span, frame0: 20 }, 0, 33, geometry)).toStrictEqual({
      startFrame: 10,
      endFrame: 33,
    });
    expect(dragged({ mode: "body", from: span, frame0: 15 }, 20, 0, geometry)).toStrictEqual({
      startFrame: 12,
      endFrame: 22,
    });
  });

  it("marks the frames between press and release on empty track, either way round", () => {
    expect(dragged({ mode: "new", from: { startFrame: 40, endFrame: 40 }, frame0: 40 }, 0, 30, geometry)).toEqual({
      startFrame: 30,
      endFrame: 40,
    });
  });
});

describe("boxes", () => {
  it("keeps a moved box inside the picture and a resized one at least a sliver", () => {
    const box = { x: 0.5, y: 0.5, w: 0.2, h: 0.2 };
    expect(draggedBox(box, "move", 0.5, -0.7)).toEqual({ x: 0.8, y: 0, w: 0.2, h: 0.2 });
    const resized = draggedBox(box, "resize", 0.5, -0.5);
    expect(resized.x).toBe(0.5);
    expect(resized.w).toBeCloseTo(0.5, 10);
    expect(resized.h).toBe(0.005);
  });

  it("sets the keyframe on the frame shown, replacing one there, in frame order", () => {
    const boxes = [
      { frame: 5, x: 0, y: 0, w: 0.1, h: 0.1, enabled: true },
      { frame: 9, x: 0.2, y: 0.2, w: 0.1, h: 0.1, enabled: false },
    ];
    expect(withKeyframe(boxes, 7, { x: 0.3, y: 0.3, w: 0.2, h: 0.2 }).map((b) => b.frame)).toEqual([5, 7, 9]);
    const replaced = withKeyframe(boxes, 9, { x: 0.9, y: 0.1, w: 0.3, h: 0.2 });
    expect(replaced).toHaveLength(2);
    expect(replaced[1]).toEqual({ frame: 9, x: 0.9, y: 0.1, w: expect.closeTo(0.1, 10), h: 0.2, enabled: true });
  });
});
