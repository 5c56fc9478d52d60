// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PendingExtractionPanel, type PendingVideo } from "./pending-extraction-panel";

/*
 * The `/pending?uniform=64` page (VBench-2.0's 64 uniform frames): it showed "Loading…" forever (the list query is
 * disabled in uniform mode, and a disabled query stays pending), and an extraction ended with no summary.
 */
const extract = vi.hoisted(() => vi.fn());
vi.mock("@/lib/browser-extraction/frame-extractor", () => ({
  FrameExtractor: class {
    probe = vi.fn(async () => ({ probe: {}, decoder: "webcodecs" }));
    terminate = vi.fn();
  },
}));
vi.mock("./extract-frame-set", () => ({ extractAndUploadFrameSet: extract }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  extract.mockReset();
});

const video = (id: string): PendingVideo => ({
  id,
  fileName: `${id}.mp4`,
  relativePath: `Mechanics/${id}.mp4`,
  sizeBytes: 10,
});

function renderPanel(videos: PendingVideo[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PendingExtractionPanel projectId="p1" uniform={{ count: 64, itemsNoun: "", videos }} />
    </QueryClientProvider>,
  );
}

describe("the pending page in uniform mode", () => {
  it("lists the videos it was given without a Loading line that never ends", () => {
    vi.stubGlobal("fetch", vi.fn());
    renderPanel([video("a"), video("b")]);
    expect(screen.getAllByTestId("pending-item")).toHaveLength(2);
    expect(screen.queryByText("Loading…")).toBeNull();
    expect(screen.getByRole("button", { name: "Extract frames for 2 videos" })).toBeTruthy();
  });

  it("says when every video has the set, with no Loading line", () => {
    vi.stubGlobal("fetch", vi.fn());
    renderPanel([]);
    expect(screen.getByText("Every video has a uniform set of 64 frames.")).toBeTruthy();
    expect(screen.queryByText("Loading…")).toBeNull();
  });

  it("ends an extraction with a summary of what was extracted and what failed", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("video", { status: 200 })),
    );
    extract.mockImplementation(async ({ videoId }: { videoId: string }) => {
      if (videoId === "b") throw new Error("not a readable video");
      return { keyFrames: 64, frames: 64 };
    });
    renderPanel([video("a"), video("b"), video("c")]);
    expect(screen.queryByTestId("pending-summary")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Extract frames for 3 videos" }));
    await waitFor(() =>
      expect(screen.getByTestId("pending-summary").textContent).toBe(
        "Extraction finished: 2 of 3 videos extracted, 1 failed (see the rows below).",
      ),
    );
    expect(screen.getByText("not a readable video")).toBeTruthy();
  });
});
