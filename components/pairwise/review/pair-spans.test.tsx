// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_ASPECTS } from "@/lib/pairwise/aspects";
import type { PairForReview } from "@/lib/pairwise/review/review.types";
import type { SpanLabel } from "@/lib/spans/span-labels";
import { PairReviewScreen } from "./pair-review-screen";

/*
 * Marking where on a pair's videos, in the review screen with the API answered here: the editor opens for the video
 * chosen and follows it across a swap; its keys (`s` saves a span) never reach the pair's (`s` swaps) while focus is
 * inside it; a blind set's video record (its path names the generator) is never asked for; a honeypot's broken copy
 * cannot be marked; a project without span labels is told where they are added.
 */
const FPS = 24;
const times = { timesS: Array.from({ length: 48 }, (_, i) => i / FPS), endS: 2, variable: false };
const LABELS: SpanLabel[] = [{ id: "physics", label: "Physics breaks", definition: "" }];

function pairView(honeypot = false): PairForReview {
  const video = (id: string) => ({
    videoId: id,
    url: `/media/${id}.mp4`,
    fps: FPS,
    durationS: 2,
    width: 320,
    height: 240,
  });
  return {
    pairId: "p0",
    position: 0,
    prompt: "a ball bounces",
    blind: true,
    aShownOn: "left",
    status: "claimed",
    a: video("va"),
    b: honeypot ? { ...video("va"), rendering: "frozen" } : video("vb"),
    aspects: DEFAULT_ASPECTS.slice(0, 1),
    guidelines: "",
    verdicts: [],
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

let requests: { method: string; url: string; body: Record<string, unknown> | null }[];
let honeypot: boolean;

beforeEach(() => {
  requests = [];
  honeypot = false;
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      requests.push({
        method,
        url,
        body: init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null,
      });
      if (url.endsWith("/review/next")) return json({ pair: pairView(honeypot), progress: { done: 0, total: 1 } });
      if (url.endsWith("/frame-times")) return json(times);
      if (url.includes("/spans?")) return json({ spans: [], blind: false });
      if (method === "POST" && url.endsWith("/spans")) {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        return json({ id: "n1", videoId: "vb", version: 1, updatedAt: "2026-11-29T00:00:00.000Z", ...body }, 201);
      }
      return json({ error: { message: `unexpected ${method} ${url}` } }, 404);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openScreen(labels: SpanLabel[] = LABELS) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <PairReviewScreen projectId="p" pairSetId="s1" marking={{ currentUserId: "u1", labels }} />
    </QueryClientProvider>,
  );
  await screen.findByTestId("pair-review");
}

const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;

function press(key: string, target: Element | Window) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

describe("marking where on a pair's videos", () => {
  it("marks a span on the chosen video with the project's labels, and the pair's keys stay the pair's", async () => {
    await openScreen();
    act(() => button("Right video").click());
    const editor = await screen.findByTestId("pair-span-editor");
    expect(editor.getAttribute("data-side")).toBe("right");
    await screen.findByTestId("span-timeline");

    // Outside the editor `s` swaps the sides; the editor follows its video (B) to the left.
    press("s", window);
    await waitFor(() => expect(screen.getByTestId("pair-review").getAttribute("data-a-side")).toBe("right"));
    expect(screen.getByTestId("pair-span-editor").getAttribute("data-side")).toBe("left");

    // Inside it `s` saves a span of the frame at the playhead, on video B, and does not swap.
    const workbench = screen.getByTestId("span-workbench");
    workbench.focus();
    press("s", workbench);
    const spanPosts = () => requests.filter((r) => r.method === "POST" && r.url.endsWith("/spans"));
    await waitFor(() => expect(spanPosts()).toHaveLength(1));
    const post = spanPosts()[0]!;
    expect(post.url).toBe("/api/v1/videos/vb/spans");
    expect(post.body).toMatchObject({ task: "project", label: "physics", startFrame: 0, endFrame: 0 });
    expect(screen.getByTestId("pair-review").getAttribute("data-a-side")).toBe("right");

    // The blind set's video records were never read: only its file, frame times and spans.
    const read = requests.filter((r) => r.method === "GET").map((r) => r.url.split("?")[0]);
    expect(read.filter((url) => /^\/api\/v1\/videos\/[^/]+$/.test(url!))).toEqual([]);
    expect(read).toContain("/api/v1/videos/vb/frame-times");
  });

  it("offers no marking on a honeypot's broken copy", async () => {
    honeypot = true;
    await openScreen();
    expect(button("Left video")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Right video" })).toBeNull();
  });

  it("says where span labels are added when the project has none", async () => {
    await openScreen([]);
    act(() => button("Left video").click());
    expect((await screen.findByTestId("pair-spans-no-labels")).textContent).toContain("Span labels");
    expect(screen.queryByTestId("span-workbench")).toBeNull();
  });
});
