// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { videoSlice, type StripFrame } from "@/lib/tasks/vbench2/page-data";
import type { VisibleVideoResult } from "@/lib/tasks/vbench2/visible-results";
import { DimensionVideos } from "./dimension-videos";
import { QuestionList } from "./results-cells";

/*
 * The VBench-2.0 results page printed every video's every question as one wall of text (5,400 px for 36 videos), and
 * a question's frames only as "(64 frames, 0.00–8.63 s)" while the judge's prompt said 8.62s.
 */
afterEach(cleanup);

// 70 frames at 8 fps: VBench's 64 uniform frames end at index 69, 8.625 s, which Python's "%.2f" writes "8.62".
const times = Array.from({ length: 64 }, (_, i) => (i === 63 ? 69 : Math.trunc((i * 69) / 63)) / 8);
const strip: StripFrame[] = times.map((seconds, i) => ({ id: `f${i}`, seconds }));

const video = (id: string, patch: Partial<VisibleVideoResult> = {}): VisibleVideoResult => ({
  videoId: id,
  videoPath: `GenA/Material/${id}-0.mp4`,
  model: "GenA",
  prompt: id,
  value: 1,
  excludedReason: null,
  humanValue: null,
  humanExcludedReason: null,
  vbenchValue: null,
  deviation: null,
  questions: [
    { question: "Is there paint?", answer: "Yes", yes: true, notAsked: null, frames: times, human: null },
    { question: "Is it green?", answer: "No", yes: false, notAsked: null, frames: times, human: null },
  ],
  blind: false,
  ...patch,
});

describe("a question's frames", () => {
  it("show as thumbnails beside the question, with every time as the prompt wrote it", () => {
    render(<QuestionList questions={video("a").questions} blind={false} strip={strip} />);
    const [first] = screen.getAllByTestId("vbench2-question");
    const frames = within(first!).getByTestId("vbench2-question-frames");
    expect(frames.querySelector("figcaption")!.textContent).toBe("64 frames, 0.00s–8.62s");
    const images = within(frames).getAllByRole("img");
    expect(images).toHaveLength(64);
    expect(images[63]!.getAttribute("src")).toBe("/api/v1/frames/f63/image");
    expect(images[63]!.getAttribute("title")).toBe("8.62s");
    expect(images[0]!.getAttribute("loading")).toBe("lazy");
    expect(frames.querySelector("figcaption")!.getAttribute("title")).toContain("8.38s, 8.62s");
  });
});

describe("a dimension's videos", () => {
  const videos = [
    ...Array.from({ length: 12 }, (_, i) =>
      video(`v${String(i).padStart(2, "0")}`, { model: i % 2 ? "GenB" : "GenA" }),
    ),
    video("x", { value: null, excludedReason: "the answer to question 1 is no" }),
    video("y", { vbenchValue: 0 }),
  ];
  const href = ({ show, page }: { show: string; page: number }) => `?show=${show}&page=${page}`;

  it("start collapsed, ten videos to a page, each video collapsed with its generator, and link to the filters and the next page", () => {
    render(
      <DimensionVideos
        projectId="p1"
        dimension="Material"
        slice={videoSlice(videos, "all", 1)}
        show="all"
        open={false}
        strips={new Map([["v00", strip]])}
        href={href}
      />,
    );
    const list = screen.getByTestId("vbench2-videos-Material");
    expect(list.hasAttribute("open")).toBe(false);
    expect(list.querySelector("summary")!.textContent).toBe("Material: 14 videos (1 excluded, 1 disagreeing)");
    const rows = screen.getAllByTestId("vbench2-video");
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => !row.hasAttribute("open"))).toBe(true);
    expect(rows[1]!.querySelector("summary")!.textContent).toContain("GenB");
    expect(screen.getByTestId("vbench2-videos-range").textContent).toBe("videos 1–10 of 14");
    expect(screen.getByRole("link", { name: "next" }).getAttribute("href")).toBe("?show=all&page=2");
    expect(screen.queryByRole("link", { name: "previous" })).toBeNull();
    expect(screen.getByRole("link", { name: "excluded (1)" }).getAttribute("href")).toBe("?show=excluded&page=1");
    expect(within(rows[0]!).getAllByRole("img")).toHaveLength(128);
  });

  it("show only the excluded ones when filtered, open", () => {
    render(
      <DimensionVideos
        projectId="p1"
        dimension="Material"
        slice={videoSlice(videos, "excluded", 1)}
        show="excluded"
        open
        strips={new Map()}
        href={href}
      />,
    );
    expect(screen.getByTestId("vbench2-videos-Material").hasAttribute("open")).toBe(true);
    const rows = screen.getAllByTestId("vbench2-video");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.querySelector("summary")!.textContent).toContain("excluded: the answer to question 1 is no");
    expect(screen.getByTestId("vbench2-videos-range").textContent).toBe("videos 1–1 of 1");
    expect(screen.queryByRole("link", { name: "next" })).toBeNull();
  });
});
