// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VideoListTable, type VideoListRow } from "./video-list-table";

/*
 * The video list on load: the page is not scrolled to the first row (the navigation above stays in view); the
 * row cursor scrolls only when a key moves it. A table wider than the page scrolls in its own box, and a long
 * name takes two lines of a column at least 8rem wide (its whole text in the title), not a 60 px column 450 px tall.
 */
const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push }) }));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  push.mockReset();
  document.body.innerHTML = "";
});

const LONG_NAME = `${"a-very-long-generated-clip-name-".repeat(6)}.mp4`;
const row = (i: number, fileName = `clip-${i}.mp4`): VideoListRow => ({
  id: `v${i}`,
  href: `/projects/p/videos/v${i}`,
  fileName,
  prompt: null,
  dimensions: [],
  model: null,
  sampleIndex: null,
  status: "ready",
  keyFrameCount: 0,
  thumbnailUrl: null,
  scores: null,
  review: { reviewers: 0, byMe: false, disagreement: false },
});

function renderTable() {
  const scrolled: string[] = [];
  vi.spyOn(HTMLElement.prototype, "scrollIntoView").mockImplementation(function (this: HTMLElement) {
    scrolled.push(this.getAttribute("data-testid") ?? this.tagName);
  });
  render(
    <VideoListTable
      rows={[row(0, LONG_NAME), row(1), row(2)]}
      head={null}
      metrics={[]}
      verdictMetricId={null}
      nextHref={null}
      prevHref={null}
      searchInputId="search"
    />,
  );
  return scrolled;
}

describe("the video table", () => {
  it("does not scroll the page on load; j scrolls the moved cursor's row into view", async () => {
    const scrolled = renderTable();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(scrolled).toEqual([]);
    fireEvent.keyDown(document, { key: "j" });
    expect(scrolled).toEqual(["video-row"]);
    expect(screen.getAllByTestId("video-row")[1]!.getAttribute("data-cursor")).toBe("true");
  });

  it("scrolls sideways in its own box, and gives a long name two lines of a column at least 8rem wide", () => {
    renderTable();
    expect(screen.getByTestId("video-table-container").className).toContain("overflow-x-auto");
    const nameCell = screen.getAllByTestId("video-name-cell")[0]!;
    expect(nameCell.getAttribute("title")).toBe(LONG_NAME);
    expect(nameCell.firstElementChild!.className).toMatch(/\bmin-w-\[8rem\]/);
    expect(screen.getAllByTestId("video-link")[0]!.className).toContain("line-clamp-2");
  });

  it("leaves Enter on a focused disclosure (the navigation's More tasks) to it; Enter elsewhere opens the row", () => {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "More tasks";
    details.append(summary);
    document.body.append(details);
    renderTable();
    summary.focus();
    fireEvent.keyDown(summary, { key: "Enter" });
    expect(push).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(push).toHaveBeenCalledWith("/projects/p/videos/v0");
  });

  it("shows each video's spans in a column: their number, by whom in the title, a dash while reviewed blind", () => {
    render(
      <VideoListTable
        rows={[
          { ...row(0), spans: { people: 3, judge: 1, gold: 1 } },
          { ...row(1), spans: { people: 0, judge: 0, gold: 0 } },
          { ...row(2), spans: null, blind: true },
        ]}
        head={null}
        metrics={[]}
        verdictMetricId={null}
        nextHref={null}
        prevHref={null}
        searchInputId="search"
      />,
    );
    const cells = screen.getAllByTestId("span-count");
    expect(cells.map((c) => c.textContent)).toEqual(["5", "", "—"]);
    expect(cells[0]!.querySelector("span")!.getAttribute("title")).toBe("3 by people, 1 by judge runs, 1 gold");
  });
});
