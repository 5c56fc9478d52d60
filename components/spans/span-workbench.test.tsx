// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SpanRecord } from "@/lib/spans/span-types";
import { SpanWorkbench } from "./span-workbench";
import { TIMELINE_KEYS } from "./timeline-keys";

/*
 * The span editor in a page: its keys act in order on the player's frame, saves go to the span routes (a key typed
 * while a save is on its way is kept), a 409 shows the current version and keeps the edit to save over it, and
 * embedded with keyScope "focus" its keys never reach the host screen's key listener (nor do the screen's keys get
 * taken) unless focus is inside the editor.
 */
const FPS = 25;
const FRAMES = 100;
const times = { timesS: Array.from({ length: FRAMES }, (_, i) => i / FPS), endS: FRAMES / FPS, variable: false };
const labels = [
  { id: "s1", label: "Extra limb", definition: "" },
  { id: "d2", label: "Passes through", definition: "" },
];

function span(overrides: Partial<SpanRecord>): SpanRecord {
  return {
    id: "mine",
    videoId: "v1",
    task: "project",
    label: "s1",
    itemId: "",
    startFrame: 10,
    endFrame: 20,
    startS: 0.4,
    endS: 0.84,
    boxes: [],
    note: "",
    authorKind: "reviewer",
    authorId: "u1",
    runId: null,
    labelSetId: null,
    queueId: null,
    version: 1,
    updatedAt: "2026-11-27T00:00:00.000Z",
    ...overrides,
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

interface Call {
  method: string;
  url: string;
  body: Record<string, unknown> | null;
}

/** A fetch stub: reads answered from `spans`; writes recorded and answered by `write` (a promise the test may hold). */
function stubApi(spans: SpanRecord[], write: (call: Call) => Promise<Response>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      if (method === "GET") {
        if (url.endsWith("/frame-times")) return json(times);
        if (url.includes("/spans?")) {
          return json({ spans, blind: false });
        }
        return json({ id: "v1", url: "/f", frameSets: [] });
      }
      const call = { method, url, body: init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null };
      calls.push(call);
      return write(call);
    }),
  );
  return calls;
}

function renderEditor(keyScope: "page" | "focus" = "page") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <button type="button" data-testid="outside">
        outside
      </button>
      <SpanWorkbench
        videoId="v1"
        projectId="p1"
        task="project"
        labels={labels}
        currentUserId="u1"
        keyScope={keyScope}
      />
    </QueryClientProvider>,
  );
}

/** Shows frame `frame` in the player as the browser would report it (no requestVideoFrameCallback here). */
function present(frame: number) {
  const video = screen.getByTestId("player") as HTMLVideoElement;
  act(() => {
    Object.defineProperty(video, "currentTime", { configurable: true, writable: true, value: (frame + 0.5) / FPS });
    video.dispatchEvent(new Event("seeked"));
  });
}

function press(key: string, options: KeyboardEventInit = {}, target: Element | Window = window) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...options }));
  });
}

beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("SpanWorkbench keys", () => {
  it("marks the in–out stretch under the chosen label; keys typed while that save is on its way are all kept", async () => {
    const pending: ((response: Response) => void)[] = [];
    const calls = stubApi([], () => new Promise((resolve) => pending.push(resolve)));
    renderEditor();
    await screen.findByTestId("span-timeline");
    expect(screen.getByTestId("span-timeline").dataset.frameCount).toBe(String(FRAMES));

    present(12);
    press("[");
    present(30);
    press("]");
    press("s");
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: "POST",
      url: "/api/v1/videos/v1/spans",
      body: { task: "project", label: "s1", itemId: "", startFrame: 12, endFrame: 30, boxes: [] },
    });
    expect(screen.getByTestId("span-new:1").dataset.status).toBe("saving");

    // While the first save is on its way: another label, in, out, save.
    press("t");
    present(50);
    press("[");
    present(55);
    press("]");
    press("s");
    expect(screen.getByTestId("span-new:2").dataset.status).toBe("dirty");
    expect(calls).toHaveLength(1);

    await act(async () => pending[0]!(json(span({ id: "A", startFrame: 12, endFrame: 30 }), 201)));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.body).toMatchObject({ label: "d2", startFrame: 50, endFrame: 55 });
    await act(async () => pending[1]!(json(span({ id: "B", label: "d2", startFrame: 50, endFrame: 55 }), 201)));
    await waitFor(() => expect(screen.getByTestId("span-B").dataset.status).toBe("saved"));
    expect(screen.getByTestId("span-A").dataset.end).toBe("30");
    expect(screen.getByTestId("span-track-d2").contains(screen.getByTestId("span-B"))).toBe(true);
  });

  it("steps frames with , and . from the frame on screen (presses add up before the seek lands)", async () => {
    stubApi([], async () => json({}));
    renderEditor();
    await screen.findByTestId("span-timeline");
    present(40);
    await waitFor(() => expect(screen.getByTestId("frame-index").textContent).toBe("40"));
    expect(screen.getByTestId("frame-time").textContent).toBe("1.600 s · frame 40");
    const video = screen.getByTestId("player") as HTMLVideoElement;
    press(".");
    press(".");
    // Frame 42's middle: (42 + 0.5) / 25.
    expect(video.currentTime).toBeCloseTo(1.7, 9);
    press(",");
    expect(video.currentTime).toBeCloseTo(1.66, 9);
  });

  it("moves the nearer edge with Shift+→, and a 409 shows the current version and keeps the edit to save over it", async () => {
    const answers = [
      json(
        { error: { code: "conflict", message: "changed", details: { current: span({ endFrame: 25, version: 3 }) } } },
        409,
      ),
      json(span({ endFrame: 21, version: 4 })),
    ];
    const calls = stubApi([span({})], async () => answers.shift()!);
    renderEditor();
    const mine = await screen.findByTestId("span-mine");
    fireEvent.pointerDown(mine, { button: 0, clientX: 0, pointerId: 1 });
    fireEvent.pointerUp(mine, { button: 0, clientX: 0, pointerId: 1 });
    await waitFor(() => expect(screen.getByTestId("span-mine").dataset.selected).toBe("true"));
    present(19);
    press("ArrowRight", { shiftKey: true });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: "PATCH",
      url: "/api/v1/spans/mine",
      body: { endFrame: 21, expectedVersion: 1 },
    });
    const conflicts = await screen.findByTestId("span-conflicts");
    expect(conflicts.textContent).toContain("now version 3");
    expect(screen.getByTestId("span-mine").dataset.end).toBe("21");
    expect(screen.getByTestId("span-mine").dataset.status).toBe("conflict");

    fireEvent.click(screen.getByTestId("span-conflict-retry"));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.body).toMatchObject({ endFrame: 21, expectedVersion: 3 });
    await waitFor(() => expect(screen.getByTestId("span-mine").dataset.status).toBe("saved"));
    expect(screen.queryByTestId("span-conflicts")).toBeNull();
  });

  it("withdraws the selected span with Delete at its version, and plays a selected span in a loop with l", async () => {
    const calls = stubApi([span({ version: 2 })], async (call) => json(span({ version: 3, ...(call.body ?? {}) })));
    renderEditor();
    const mine = await screen.findByTestId("span-mine");
    fireEvent.pointerDown(mine, { button: 0, clientX: 0, pointerId: 1 });
    fireEvent.pointerUp(mine, { button: 0, clientX: 0, pointerId: 1 });
    await waitFor(() => expect(screen.getByTestId("span-mine").dataset.selected).toBe("true"));

    const video = screen.getByTestId("player") as HTMLVideoElement;
    press("l");
    await waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());
    expect(video.currentTime).toBeCloseTo(10.5 / FPS, 9);

    press("Delete");
    expect(screen.queryByTestId("span-mine")).toBeNull();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({ method: "DELETE", url: "/api/v1/spans/mine", body: { expectedVersion: 2 } });
  });

  it("draws a box on the paused frame of the selected span: a keyframe on that frame, saved with the span", async () => {
    const calls = stubApi([span({})], async (call) => json(span({ version: 2, ...(call.body ?? {}) })));
    renderEditor();
    const mine = await screen.findByTestId("span-mine");
    fireEvent.pointerDown(mine, { button: 0, clientX: 0, pointerId: 1 });
    fireEvent.pointerUp(mine, { button: 0, clientX: 0, pointerId: 1 });
    const video = screen.getByTestId("player") as HTMLVideoElement;
    for (const [name, value] of Object.entries({
      clientWidth: 320,
      clientHeight: 180,
      videoWidth: 320,
      videoHeight: 180,
    }))
      Object.defineProperty(video, name, { configurable: true, value });
    video.getBoundingClientRect = () => ({ left: 0, top: 0, width: 320, height: 180 }) as DOMRect;
    present(12);
    const overlay = screen.getByTestId("box-overlay");
    await waitFor(() => expect(overlay.dataset.active).toBe("true"));
    fireEvent.pointerDown(overlay, { clientX: 32, clientY: 18, pointerId: 2 });
    fireEvent.pointerMove(overlay, { clientX: 160, clientY: 90, pointerId: 2 });
    fireEvent.pointerUp(overlay, { clientX: 160, clientY: 90, pointerId: 2 });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ expectedVersion: 1 });
    const [box] = (calls[0]!.body as { boxes: Record<string, number | boolean>[] }).boxes;
    expect(box).toEqual({
      frame: 12,
      x: 0.1,
      y: 0.1,
      w: expect.closeTo(0.4, 9),
      h: expect.closeTo(0.4, 9),
      enabled: true,
    });
    await waitFor(() => expect(screen.getAllByTestId("box-keyframe")).toHaveLength(1));
    // Outside the span the overlay takes no drags.
    present(40);
    await waitFor(() => expect(overlay.dataset.active).toBe("false"));
  });

  it("marks a span by dragging on an empty stretch of a label's track; a click there marks nothing", async () => {
    const calls = stubApi([], async (call) => json(span({ id: "N", ...(call.body ?? {}) }), 201));
    renderEditor();
    const lane = (await screen.findByTestId("span-track-d2")).lastElementChild!;
    fireEvent.pointerDown(lane, { button: 0, clientX: 10, pointerId: 1 });
    fireEvent.pointerUp(lane, { button: 0, clientX: 10, pointerId: 1 });
    expect(screen.queryByTestId("span-new:1")).toBeNull();
    fireEvent.pointerDown(lane, { button: 0, clientX: 10, pointerId: 1 });
    fireEvent.pointerMove(lane, { button: 0, clientX: 40, pointerId: 1 });
    fireEvent.pointerUp(lane, { button: 0, clientX: 40, pointerId: 1 });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ label: "d2" });
  });

  it("lists every timeline key in the help overlay (? toggles it)", async () => {
    stubApi([], async () => json({}));
    renderEditor();
    await screen.findByTestId("span-timeline");
    press("?");
    const help = await screen.findByTestId("timeline-keys-help");
    for (const [keyName] of TIMELINE_KEYS) expect(help.textContent).toContain(keyName);
    press("?");
    expect(screen.queryByTestId("timeline-keys-help")).toBeNull();
  });
});

describe("SpanWorkbench authors", () => {
  it("names another reviewer in the span's tooltip when the API sent the name (owners), else 'another reviewer'", async () => {
    stubApi(
      [
        span({ id: "named", authorId: "u2", authorName: "Rita Reviewer" }),
        span({ id: "unnamed", authorId: "u3", startFrame: 40, endFrame: 50 }),
      ],
      async () => json({}),
    );
    renderEditor();
    const named = await screen.findByTestId("span-named");
    expect(named.dataset.kind).toBe("other");
    expect(named.getAttribute("title")).toBe("s1 · frames 10–20 · Rita Reviewer");
    expect(screen.getByTestId("span-unnamed").getAttribute("title")).toBe("s1 · frames 40–50 · another reviewer");
  });
});

describe("SpanWorkbench items", () => {
  it("a span marked about one item is saved about it after the screen moves to another, and is drawn only there", async () => {
    const pending: ((response: Response) => void)[] = [];
    const calls = stubApi([], () => new Promise((resolve) => pending.push(resolve)));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const editor = (itemId: string) => (
      <QueryClientProvider client={client}>
        <SpanWorkbench
          videoId="v1"
          projectId="p1"
          task="project"
          labels={labels}
          currentUserId="u1"
          itemId={itemId}
          keyScope="page"
        />
      </QueryClientProvider>
    );
    const { rerender } = render(editor("material:q1"));
    await screen.findByTestId("span-timeline");
    present(3);
    press("s");
    present(8);
    press("s");
    await waitFor(() => expect(calls).toHaveLength(1));
    rerender(editor("material:q2"));
    expect(screen.queryByTestId("span-new:1")).toBeNull();
    await act(async () => pending[0]!(json(span({ id: "A", itemId: "material:q1", startFrame: 3, endFrame: 3 }), 201)));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((c) => [c.body!.itemId, c.body!.startFrame])).toEqual([
      ["material:q1", 3],
      ["material:q1", 8],
    ]);
    rerender(editor("material:q1"));
    expect(screen.getByTestId("span-A").dataset.start).toBe("3");
  });
});

describe("SpanWorkbench embedded (keyScope focus)", () => {
  it("leaves the host screen's keys alone, and takes its own only while focus is inside the editor", async () => {
    const calls = stubApi([], async () => json(span({ id: "N" }), 201));
    const host: string[] = [];
    const hostListener = (event: KeyboardEvent) => host.push(event.key);
    window.addEventListener("keydown", hostListener);
    try {
      renderEditor("focus");
      await screen.findByTestId("span-timeline");
      present(5);
      // Focus outside: the screen gets `[` (its previous item) and `s` (a presence letter); nothing is marked.
      screen.getByTestId("outside").focus();
      press("[", {}, screen.getByTestId("outside"));
      press("s", {}, screen.getByTestId("outside"));
      expect(host).toEqual(["[", "s"]);
      expect(screen.queryByTestId("span-new:1")).toBeNull();

      // Focus inside: the editor takes `[` and `s`; the screen's own keys (digits, j, Enter, m, ?) still reach it.
      const editor = screen.getByTestId("span-workbench");
      editor.focus();
      for (const name of ["[", "s", "1", "j", "Enter", "m", "?"]) press(name, {}, editor);
      expect(host).toEqual(["[", "s", "1", "j", "Enter", "m", "?"]);
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(calls[0]!.body).toMatchObject({ startFrame: 5, endFrame: 5 });
    } finally {
      window.removeEventListener("keydown", hostListener);
    }
  });
});
