// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SpanWorkbench } from "./span-workbench";

/*
 * The span editor's keys and status: Esc stops playback with the loop, the status rows sit under the timeline at a
 * fixed height whether or not anything shows in them (so the timeline never moves under the pointer), and `t` cycles
 * only the labels the host asks for (a queue's asked categories).
 */
const FPS = 25;
const FRAMES = 100;
const times = { timesS: Array.from({ length: FRAMES }, (_, i) => i / FPS), endS: FRAMES / FPS, variable: false };
const labels = [
  { id: "s1", label: "Extra limb", definition: "" },
  { id: "d2", label: "Passes through", definition: "" },
  { id: "d3", label: "Vanishes", definition: "" },
];

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

let play: ReturnType<typeof vi.fn>;
let pause: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      if (url.endsWith("/frame-times")) return json(times);
      if (url.includes("/spans?")) return json({ spans: [], blind: false });
      return json({ id: "v1", url: "/f", frameSets: [] });
    }),
  );
  play = vi.fn(() => Promise.resolve());
  pause = vi.fn();
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(play as () => Promise<void>);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(pause as () => void);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderEditor(markLabels?: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SpanWorkbench
        videoId="v1"
        projectId="p1"
        task="project"
        labels={labels}
        currentUserId="u1"
        keyScope="page"
        markLabels={markLabels}
      />
    </QueryClientProvider>,
  );
}

function present(frame: number) {
  const video = screen.getByTestId("player") as HTMLVideoElement;
  act(() => {
    Object.defineProperty(video, "currentTime", { configurable: true, writable: true, value: (frame + 0.5) / FPS });
    video.dispatchEvent(new Event("seeked"));
  });
}

function press(key: string) {
  act(() => {
    window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

const follows = (a: Element, b: Element) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

describe("the span editor's keys and status", () => {
  it("stops playback as well as the loop on Esc", async () => {
    renderEditor();
    await screen.findByTestId("span-timeline");
    present(10);
    press("[");
    present(20);
    press("]");
    press("l");
    expect(play).toHaveBeenCalled();
    pause.mockClear();
    press("Escape");
    expect(pause).toHaveBeenCalled();
    expect(screen.getByTestId("in-out").textContent).toBe("in — · out —");
  });

  it("keeps its status rows under the timeline, there before any message shows", async () => {
    renderEditor();
    const timeline = await screen.findByTestId("span-timeline");
    const status = screen.getByTestId("span-status");
    expect(follows(timeline, status)).toBe(true);
    expect(follows(screen.getByTestId("span-bar"), timeline)).toBe(true);
    const rows = [screen.getByTestId("span-status-selection"), screen.getByTestId("span-status-message")];
    expect(rows.map((row) => row.className.split(" ").find((c) => /^h-\d/.test(c)))).toEqual(["h-4", "h-8"]);
    expect(screen.queryByTestId("span-message")).toBeNull();
    present(10);
    press("[");
    expect(within(rows[1]!).getByTestId("span-message").textContent).toBe("In point at frame 10.");
    expect(within(screen.getByTestId("span-bar")).queryByTestId("span-message")).toBeNull();
  });

  it("cycles only the labels asked with t, and offers only those", async () => {
    renderEditor(["s1", "d3"]);
    await screen.findByTestId("span-timeline");
    const select = screen.getByTestId("span-label-select") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["Extra limb", "Vanishes"]);
    press("t");
    expect(screen.getByTestId("span-message").textContent).toBe("Label: Vanishes.");
    press("t");
    expect(screen.getByTestId("span-message").textContent).toBe("Label: Extra limb.");
    // Every label keeps its track: others' spans of a label not asked still show.
    expect(screen.getByTestId("span-track-d2")).toBeTruthy();
  });
});
