// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import type { VideoListRow } from "./video-list-table";
import { VideoGrid } from "./video-grid";

/*
 * The grid shows what the table's Spans column shows: each card's span count with who marked them in its title,
 * a dash while the caller reviews the video blind, and nothing for a video nobody marked.
 */
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));
afterEach(cleanup);

const row = (i: number, spans: VideoListRow["spans"]): VideoListRow => ({
  id: `v${i}`,
  href: `/projects/p/videos/v${i}`,
  fileName: `clip-${i}.mp4`,
  prompt: null,
  dimensions: [],
  model: null,
  sampleIndex: null,
  status: "ready",
  keyFrameCount: 0,
  thumbnailUrl: null,
  scores: null,
  review: { reviewers: 0, byMe: false, disagreement: false },
  spans,
});

it("shows each card's span count as the table does", () => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <VideoGrid
        rows={[row(0, { people: 2, judge: 3, gold: 1 }), row(1, null), row(2, { people: 0, judge: 0, gold: 0 })]}
        metrics={[]}
        verdictMetricId={null}
        nextHref={null}
        prevHref={null}
        searchInputId="search"
      />
    </QueryClientProvider>,
  );
  const cards = screen.getAllByTestId("video-card");
  const count = (card: HTMLElement) => card.querySelector("[data-testid=grid-span-count]");
  expect(count(cards[0]!)?.textContent).toBe("6");
  expect(count(cards[0]!)?.querySelector("span")?.getAttribute("title")).toBe("2 by people, 3 by judge runs, 1 gold");
  expect(count(cards[1]!)?.textContent).toBe("—");
  expect(count(cards[2]!)).toBeNull();
});
