// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { VideoFramesViewer, type ViewerFrame } from "./video-frames-viewer";

/*
 * A uniform frame set's frames are frames at their times (evenly spaced), not key frames with clusters: the
 * strip says "frame 3 · 0.50 s", never "key frame 3 · cluster of 1". A key-frame set keeps its clusters.
 */
afterEach(cleanup);

const frame = (index: number, timestampS: number, isKeyFrame: boolean, cluster: number | null): ViewerFrame => ({
  id: `f${index}`,
  index,
  timestampS,
  isKeyFrame,
  cluster,
  url: `/f${index}.jpg`,
});

describe("the frame strip's wording", () => {
  it("names a uniform set's frames by their place and time, without key frames or clusters", () => {
    const frames = Array.from({ length: 64 }, (_, i) => frame(i * 2, i * 0.25, true, null));
    render(<VideoFramesViewer videoUrl="/v.mp4" frames={frames} uniform />);
    const header = screen.getByTestId("strip-header").textContent ?? "";
    expect(header).toContain("At frame 1 of 64");
    expect(header).toContain("uniform frames, evenly spaced in time");
    expect(header).not.toMatch(/key frame 1|cluster of/);
    const cards = screen.getAllByTestId("cluster");
    expect(cards[2]!.textContent).toContain("frame 3 · 0.50 s");
    expect(screen.getByTestId("key-frame-strip").textContent).not.toMatch(/key frame|cluster of/);
    expect(screen.getByRole("region", { name: "Frames" })).toBeTruthy();
    expect(within(cards[0]!).getByRole("img").getAttribute("alt")).toBe("frame at 0.00 s");
  });

  it("keeps key frames and their clusters for a key-frame set", () => {
    const frames = [frame(0, 0, true, null), frame(1, 0.1, false, 0), frame(2, 1, true, null)];
    render(<VideoFramesViewer videoUrl="/v.mp4" frames={frames} uniform={false} />);
    expect(screen.getByTestId("strip-header").textContent).toContain("At key frame 1 of 2");
    expect(screen.getAllByTestId("cluster")[0]!.textContent).toContain("key frame 1 · 0.00 s · cluster of 2");
    expect(screen.getByRole("region", { name: "Key frames" })).toBeTruthy();
  });
});
