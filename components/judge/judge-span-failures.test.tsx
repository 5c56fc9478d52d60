// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { JudgeSpanFailures } from "./judge-span-failures";

afterEach(cleanup);

describe("the run page's judge span failures", () => {
  it("counts the videos that kept no judge spans and says why for each shown", () => {
    render(
      <JudgeSpanFailures
        projectId="p1"
        failures={{
          count: 3,
          videos: [
            { videoId: "v1", relativePath: "a/one.mp4", reason: "The video's frames cannot be read from its file." },
            { videoId: "v2", relativePath: "b/two.mp4", reason: "its spans could not be kept: deadlock" },
          ],
        }}
      />,
    );
    const section = screen.getByTestId("judge-span-failures");
    expect(section.textContent).toContain("3 videos kept no judge spans");
    expect(section.textContent).toContain("a/one.mp4: The video's frames cannot be read from its file.");
    expect(section.textContent).toContain("b/two.mp4: its spans could not be kept: deadlock");
    expect(section.textContent).toContain("and 1 more.");
    expect(screen.getByRole("link", { name: "a/one.mp4" }).getAttribute("href")).toBe("/projects/p1/videos/v1");
  });

  it("shows nothing when every video kept its spans", () => {
    render(<JudgeSpanFailures projectId="p1" failures={{ count: 0, videos: [] }} />);
    expect(screen.queryByTestId("judge-span-failures")).toBeNull();
  });
});
