// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CallSawView } from "./call-saw-view";

afterEach(cleanup);

const usage = { promptTokens: 812, completionTokens: 40, usageKnown: true, answered: true };
const frame = (i: number, t: number) => ({ index: i, videoFrame: i * 6, frameId: `f${i}`, timestampS: t });

describe("what a call showed the judge, on the call inspector", () => {
  it("shows the frames as a strip with their times, in the order sent, the bytes sent and the reported usage", () => {
    render(
      <CallSawView
        saw={{ mode: "images", frames: [frame(3, 0.75), frame(4, 1), frame(5, 1.25)] }}
        bytesSent={3 * 1024 + 512}
        cached={false}
        usage={usage}
      />,
    );
    const images = screen.getAllByRole("img");
    expect(images.map((img) => img.getAttribute("src"))).toEqual([
      "/api/v1/frames/f3/image",
      "/api/v1/frames/f4/image",
      "/api/v1/frames/f5/image",
    ]);
    expect(screen.getAllByTestId("call-frame-time").map((e) => e.textContent)).toEqual(["0.75 s", "1.00 s", "1.25 s"]);
    expect(screen.getByText("frame 18")).toBeTruthy();
    expect(screen.getByTestId("call-bytes-sent").textContent).toBe("3.5 KB sent");
    expect(screen.getByTestId("call-usage").textContent).toBe("reported usage 812 prompt + 40 answer tokens");
    expect(screen.getByTestId("call-saw").getAttribute("data-mode")).toBe("images");
  });

  it("marks the frames that went as one video part, and an example frame after them as an image", () => {
    render(
      <CallSawView
        saw={{
          mode: "video-frames",
          frames: [frame(3, 0.75), frame(4, 1), { index: 0, videoFrame: null, frameId: "ex", timestampS: 0 }],
        }}
        bytesSent={100}
        cached={false}
        videoFrames={2}
        usage={usage}
      />,
    );
    expect(screen.getAllByTestId("call-frame").map((e) => e.getAttribute("data-part"))).toEqual([
      "video",
      "video",
      "image",
    ]);
    expect(screen.getByText("#0")).toBeTruthy();
  });

  it("shows a clip as its duration with the sampled instants marked on a bar", () => {
    render(
      <CallSawView
        saw={{
          mode: "video-file",
          frames: [],
          clip: { sha256: "ab".repeat(32), durationS: 4, sampling: { numFrames: 5 } },
        }}
        bytesSent={2 * 1024 * 1024}
        cached={false}
        usage={usage}
      />,
    );
    expect(screen.getByTestId("call-clip").textContent).toContain("4.00 s");
    expect(screen.getByTestId("call-clip").textContent).toContain("5 frames asked");
    const marks = screen.getAllByTestId("call-clip-instant");
    expect(marks.map((m) => m.style.left)).toEqual(["0%", "25%", "50%", "75%", "100%"]);
    expect(marks.map((m) => m.getAttribute("title"))).toEqual(["0.00 s", "1.00 s", "2.00 s", "3.00 s", "4.00 s"]);
    expect(screen.getByTestId("call-bytes-sent").textContent).toBe("2.00 MB sent");
    expect(screen.queryByTestId("call-frame-strip")).toBeNull();
  });

  it("shows a pairwise call's two clips, Video A's then Video B's", () => {
    const clipA = { sha256: "aa".repeat(32), durationS: 4, sampling: { numFrames: 3 } };
    const clipB = { sha256: "bb".repeat(32), durationS: 2, sampling: { numFrames: 3 } };
    render(
      <CallSawView
        saw={{ mode: "video-file", frames: [], clip: clipA, clips: [clipA, clipB] }}
        bytesSent={1024}
        cached={false}
        usage={usage}
      />,
    );
    const bars = screen.getAllByTestId("call-clip").map((bar) => bar.textContent);
    expect(bars).toHaveLength(2);
    expect(bars[0]).toMatch(/^Video A's clip \(4\.00 s, sha256 aaaaaaaaaaaa…\): 3 frames asked/);
    expect(bars[1]).toMatch(/^Video B's clip \(2\.00 s, sha256 bbbbbbbbbbbb…\): 3 frames asked/);
  });

  it("says a cached call sent nothing, an answer without usage reported none, and an old call recorded nothing", () => {
    const { rerender } = render(
      <CallSawView saw={{ mode: "images", frames: [frame(1, 0.25)] }} bytesSent={0} cached usage={usage} />,
    );
    expect(screen.getByTestId("call-bytes-sent").textContent).toBe("answered from the cache: nothing sent");
    expect(screen.getByTestId("call-usage").textContent).toBe("no usage (cached)");
    rerender(
      <CallSawView
        saw={{ mode: "images", frames: [frame(1, 0.25)] }}
        bytesSent={10}
        cached={false}
        usage={{ ...usage, usageKnown: false }}
      />,
    );
    expect(screen.getByTestId("call-usage").textContent).toBe("the endpoint reported no usage");
    rerender(<CallSawView saw={null} bytesSent={0} cached={false} usage={usage} />);
    expect(screen.getByTestId("call-saw-missing")).toBeTruthy();
  });
});
