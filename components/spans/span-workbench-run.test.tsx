// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SpanRecord } from "@/lib/spans/span-types";
import { SpanWorkbench } from "./span-workbench";

/*
 * The timeline beside the run shown in Judge scores: that run's judge spans only, one lane per label named by its
 * code (the full name in the tooltip), and key-frame ticks from the frame set that run judged, not the video's latest.
 */
const FPS = 25;
const FRAMES = 100;
const times = { timesS: Array.from({ length: FRAMES }, (_, i) => i / FPS), endS: FRAMES / FPS, variable: false };
const labels = [
  { id: "s8", label: "Other hallucination (static)", definition: "" },
  { id: "d9", label: "Other hallucination (dynamic)", definition: "" },
];

function span(overrides: Partial<SpanRecord>): SpanRecord {
  return {
    id: "x",
    videoId: "v1",
    task: "hallucination",
    label: "s8",
    itemId: "",
    startFrame: 0,
    endFrame: 0,
    startS: 0,
    endS: 0.04,
    boxes: [],
    note: "",
    authorKind: "judge",
    authorId: "run:r1",
    runId: "r1",
    labelSetId: null,
    queueId: null,
    version: 1,
    updatedAt: "2026-11-27T00:00:00.000Z",
    ...overrides,
  };
}

const everySpan = [
  span({ id: "r1-s8", label: "s8", startFrame: 0, endFrame: 0 }),
  span({ id: "r1-d9", label: "d9", startFrame: 25, endFrame: 31 }),
  span({ id: "r2-s8", label: "s8", startFrame: 0, endFrame: 0, authorId: "run:r2", runId: "r2" }),
  span({ id: "gold-s8", label: "s8", startFrame: 40, endFrame: 45, authorKind: "gold", authorId: "gold", runId: null }),
];

const frame = (index: number, timestampS: number) => ({
  id: `f${index}`,
  index,
  timestampS,
  isKeyFrame: true,
  cluster: null,
  url: "/f.jpg",
});
// The run judged key frames at 0, 1.00 and 1.25 s; the video's latest frame set is 16 uniform frames.
const frameSets = [
  { id: "fs-keyframes", mode: "keyframes", frames: [frame(0, 0), frame(1, 1), frame(2, 1.25)] },
  { id: "fs-uniform", mode: "uniform", frames: Array.from({ length: 16 }, (_, i) => frame(i, i * 0.25)) },
];

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

/** The routes as the server answers them: `runId` keeps that run's judge spans and names the frame set it judged. */
function stubApi() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      if (url.endsWith("/frame-times")) return json(times);
      if (url.includes("/spans?")) {
        const runId = new URL(url, "http://app").searchParams.get("runId");
        if (!runId) return json({ spans: everySpan, blind: false });
        const spans = everySpan.filter((s) => s.authorKind !== "judge" || s.runId === runId);
        return json({ spans, blind: false, frameSetId: runId === "r1" ? "fs-keyframes" : "fs-uniform" });
      }
      return json({ id: "v1", url: "/f", frameSets });
    }),
  );
}

function renderEditor(runId: string | null, runPending = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const editor = (shown: string | null, pending: boolean) => (
    <QueryClientProvider client={client}>
      <SpanWorkbench
        videoId="v1"
        projectId="p1"
        task="hallucination"
        labels={labels}
        currentUserId="u1"
        readOnly
        runId={shown}
        runPending={pending}
      />
    </QueryClientProvider>
  );
  const { rerender } = render(editor(runId, runPending));
  return { show: (shown: string) => rerender(editor(shown, false)) };
}

beforeEach(stubApi);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the timeline beside the shown run", () => {
  it("draws only that run's judge spans, a lane per label named by its code", async () => {
    renderEditor("r1");
    await waitFor(() => expect(screen.getByTestId("span-track-judge-s8")).toBeTruthy());
    const s8 = screen.getByTestId("span-track-judge-s8");
    const d9 = screen.getByTestId("span-track-judge-d9");
    expect(
      within(s8)
        .getAllByTestId(/^span-/)
        .map((e) => e.dataset.testid),
    ).toEqual(["span-r1-s8"]);
    expect(
      within(d9)
        .getAllByTestId(/^span-/)
        .map((e) => e.dataset.testid),
    ).toEqual(["span-r1-d9"]);
    expect(screen.queryByTestId("span-r2-s8")).toBeNull();
    expect(screen.queryByTestId("span-track-judge")).toBeNull();
    // Lane names are codes; the full name is the tooltip.
    expect(s8.firstElementChild?.textContent).toBe("judge · s8");
    expect(s8.firstElementChild?.getAttribute("title")).toContain("Other hallucination (static)");
    const people = screen.getByTestId("span-track-s8");
    expect(people.firstElementChild?.textContent).toBe("s8");
    expect(people.firstElementChild?.getAttribute("title")).toBe("s8: Other hallucination (static)");
    // The gold span's tooltip names its author once.
    expect(screen.getByTestId("span-gold-s8").getAttribute("title")).toBe("s8 · frames 40–45 · gold");
  });

  it("ticks the key frames of the frame set the run judged, not the video's latest", async () => {
    renderEditor("r1");
    await waitFor(() => expect(screen.getAllByTestId("key-frame-tick")).toHaveLength(3));
    expect(screen.getAllByTestId("key-frame-tick").map((t) => t.getAttribute("title"))).toEqual([
      "Key frame at frame 0",
      "Key frame at frame 25",
      "Key frame at frame 31",
    ]);
  });

  it("shows another run's spans and frames when that run is shown", async () => {
    renderEditor("r2");
    await waitFor(() => expect(screen.getAllByTestId("key-frame-tick")).toHaveLength(16));
    await waitFor(() => expect(screen.getByTestId("span-r2-s8")).toBeTruthy());
    expect(screen.queryByTestId("span-r1-s8")).toBeNull();
    expect(screen.queryByTestId("span-track-judge-d9")).toBeNull();
  });

  it("asks for no spans while the host is still learning which run it shows, so no other run's spans flash", async () => {
    const editor = renderEditor(null, true);
    const fetched = vi.mocked(fetch);
    await waitFor(() => expect(fetched.mock.calls.some(([url]) => String(url).endsWith("/frame-times"))).toBe(true));
    expect(fetched.mock.calls.some(([url]) => String(url).includes("/spans?"))).toBe(false);
    expect(screen.queryByTestId("span-r2-s8")).toBeNull();
    editor.show("r1");
    await waitFor(() => expect(screen.getByTestId("span-r1-s8")).toBeTruthy());
    expect(screen.queryByTestId("span-r2-s8")).toBeNull();
    const spanUrls = fetched.mock.calls.map(([url]) => String(url)).filter((url) => url.includes("/spans?"));
    expect(spanUrls.every((url) => url.includes("runId=r1"))).toBe(true);
  });
});
