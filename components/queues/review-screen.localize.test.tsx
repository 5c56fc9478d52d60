// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReviewScreen } from "./review-screen";
import { DIGIT_ADVANCES_KEY } from "./review-options";

/*
 * A localising presence-first item on the review screen, with the API answered here: the span editor stands in the
 * player's place and marks under the queue; a category marked present without a saved span of it keeps Enter from
 * submitting (and says which); the timeline's keys act only while focus is inside the editor, Esc gives them back,
 * and Enter submits from inside it.
 */
vi.mock("next/navigation", () => ({ usePathname: () => "/projects/p1/queues/q1/items/i1" }));

const s1 = { id: "s1", label: "Geometric structure irrationality", definition: "" };
const d1 = { id: "d1", label: "Motion irrationality", definition: "" };

function itemView() {
  return {
    queue: {
      id: "q1",
      projectId: "p1",
      name: "Where",
      runId: "r1",
      scope: "scores",
      blind: true,
      reviewersPerItem: 1,
      itemCount: 2,
    },
    item: { id: "i1", position: 0 },
    assignment: { status: "claimed" },
    blind: true,
    video: { id: "v1", fileName: "v1.mp4", prompt: "A ball rolls", url: "/media/v1.mp4", frames: [] },
    targets: [
      {
        key: "score-s1",
        kind: "score",
        label: "s1 · key frame 1",
        required: true,
        min: 0,
        max: 3,
        category: "s1",
        scopeIndex: 0,
        frameIndexes: [],
        mine: null,
      },
    ],
    presence: {
      absentValue: 0,
      threshold: 5,
      categories: [
        { ...s1, key: "1", targetKeys: ["score-s1"], mine: null },
        { ...d1, key: "2", targetKeys: [], mine: null },
      ],
    },
    localize: { task: "hallucination", labels: [s1, d1], requiredWhenPresent: ["s1", "d1"] },
    nav: { index: 0, count: 1, previousItemId: null, nextItemId: null },
    progress: { items: 2, complete: 0, mine: { done: 0 } },
  };
}

let calls: { method: string; url: string; body: unknown }[];
/** The item the API answers with (the presence-first item unless a test sets another). */
let item: unknown;
/** The reviewer's own saved spans the span list answers with. */
let ownSpans: unknown[];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  calls = [];
  ownSpans = [];
  item = itemView();
  window.localStorage.clear();
  window.localStorage.setItem(DIGIT_ADVANCES_KEY, "off");
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      calls.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : null });
      if (method === "GET" && input === "/api/v1/queues/q1/items/i1") return json(item);
      if (method === "GET" && input === "/api/v1/queues/q1")
        return json({ progress: { items: 2, complete: 0 }, mine: { done: 0 } });
      if (method === "GET" && input === "/api/v1/videos/v1/frame-times")
        return json({ timesS: Array.from({ length: 20 }, (_, i) => i / 10), endS: 2, variable: false });
      if (method === "GET" && input.startsWith("/api/v1/videos/v1/spans"))
        return json({ spans: ownSpans, blind: true });
      if (method === "GET" && input === "/api/v1/videos/v1") return json({ id: "v1", url: "", frameSets: [] });
      if (method === "POST" && input === "/api/v1/videos/v1/spans") {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        return json({
          ...body,
          id: "new",
          videoId: "v1",
          startS: 0,
          endS: 0.1,
          authorKind: "reviewer",
          authorId: "u1",
        });
      }
      if (method === "POST" && input.includes("/ahead")) return json({ itemId: null });
      if (method === "POST" && input.includes("/submit")) return json({ next: null });
      return json({});
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openScreen(pipeline = "hallucination") {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewScreen projectId="p1" queueId="q1" itemId="i1" pipeline={pipeline} userId="u1" />
    </QueryClientProvider>,
  );
  await screen.findByTestId("review-screen");
}

function press(...keys: string[]) {
  act(() => {
    for (const key of keys)
      window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

const submits = () => calls.filter((c) => c.url.includes("/submit"));
const status = () => screen.getByTestId("status-message").textContent ?? "";

/** s1 present, d1 absent, then s1's score: the item is ready but for where. */
async function answerPresenceAndScore() {
  press("1", "Enter");
  await waitFor(() => expect(screen.getAllByTestId("target")).toHaveLength(1));
  press("2");
  await waitFor(() => expect(screen.getAllByTestId("my-value").map((e) => e.textContent?.trim())).toEqual(["2"]));
}

describe("a localising item on the review screen", () => {
  it("puts the span editor in the player's place, marking under the queue, with its keys in the help", async () => {
    await openScreen();
    const workbench = await screen.findByTestId("span-workbench");
    expect(workbench.getAttribute("data-key-scope")).toBe("focus");
    expect(screen.getByTestId("pinned-video").contains(workbench)).toBe(true);
    // Only the reviewed run's judge spans: another run's never stack on the timeline.
    await waitFor(() =>
      expect(calls.some((c) => c.url === "/api/v1/videos/v1/spans?task=hallucination&runId=r1")).toBe(true),
    );
    press("?");
    const help = await screen.findByTestId("shortcut-help-overlay");
    expect(help.textContent).toContain("In point at the playhead (in the timeline");
  });

  it("puts the timeline directly under the player, the prompt in the other column and the frame strip after both", async () => {
    const frame = (index: number) => ({
      id: `f${index}`,
      index,
      timestampS: index / 10,
      isKeyFrame: true,
      cluster: null,
      url: `/media/f${index}.jpg`,
    });
    item = { ...itemView(), video: { ...itemView().video, frames: [frame(0), frame(5)] } };
    await openScreen();
    const timeline = await screen.findByTestId("span-timeline");
    const pinned = screen.getByTestId("pinned-video");
    const workbench = screen.getByTestId("span-workbench");
    // The pinned column opens with the span editor: the player, its one-line bar, then the timeline.
    const firstShown = pinned.querySelector("[data-testid]");
    expect(firstShown === workbench || workbench.contains(firstShown)).toBe(true);
    const follows = (a: Element, b: Element) =>
      Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(screen.getByTestId("player"), timeline)).toBe(true);
    expect(follows(timeline, screen.getByTestId("key-frame-strip"))).toBe(true);
    // The prompt is read beside the targets, not above the player.
    const prompt = screen.getByTestId("review-prompt");
    expect(screen.getAllByTestId("review-prompt")).toHaveLength(1);
    expect(pinned.contains(prompt)).toBe(false);
    expect(follows(timeline, prompt)).toBe(true);
    expect(prompt.textContent).toContain("A ball rolls");
  });

  it("refuses Enter while a label marked present has no span, naming it, and submits nothing", async () => {
    await openScreen();
    await answerPresenceAndScore();
    expect(screen.getByTestId("localize-status").textContent).toContain("s1 (Geometric structure irrationality)");
    press("Enter");
    await waitFor(() => expect(status()).toContain("no span of s1 (Geometric structure irrationality)"));
    expect(status()).not.toContain("d1");
    expect(submits()).toEqual([]);
  });

  it("submits once the reviewer has a saved span of each present label", async () => {
    ownSpans = [
      {
        id: "sp1",
        videoId: "v1",
        task: "hallucination",
        label: "s1",
        itemId: "",
        startFrame: 2,
        endFrame: 4,
        startS: 0.2,
        endS: 0.5,
        boxes: [],
        note: "",
        authorKind: "reviewer",
        authorId: "u1",
        runId: null,
        labelSetId: null,
        queueId: "q1",
        version: 1,
        updatedAt: "2026-11-27T00:00:00.000Z",
      },
    ];
    await openScreen();
    await answerPresenceAndScore();
    // Once the editor has read the saved span, s1 no longer waits for one.
    await waitFor(() => expect(screen.getByTestId("localize-status").textContent).not.toContain("Mark where:"));
    press("Enter");
    await waitFor(() => expect(submits()).toHaveLength(1));
    expect(submits()[0]!.body).toMatchObject({
      presence: [
        expect.objectContaining({ category: "s1", value: 1 }),
        expect.objectContaining({ category: "d1", value: 0 }),
      ],
    });
  });

  it("routes the timeline's keys to it only while it has focus; Esc gives them back and Enter submits from inside", async () => {
    ownSpans = [];
    await openScreen();
    const workbench = await screen.findByTestId("span-workbench");
    await answerPresenceAndScore();
    act(() => workbench.focus());
    // `[` is the timeline's in point here, not the screen's previous item.
    press("[");
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(screen.queryByTestId("status-message")?.textContent ?? "").not.toContain("first item");
    press("Enter");
    await waitFor(() => expect(status()).toContain("no span of s1"));
    press("Escape");
    expect(workbench.contains(document.activeElement)).toBe(false);
    press("[");
    await waitFor(() => expect(status()).toContain("This is your first item in this queue."));
  });
  it("cycles with t only the labels the queue asks, not every label of the task", async () => {
    const s8 = { id: "s8", label: "Other hallucination", definition: "" };
    item = {
      ...itemView(),
      localize: { task: "hallucination", labels: [s1, s8, d1], requiredWhenPresent: ["s1", "d1"] },
    };
    await openScreen();
    const workbench = await screen.findByTestId("span-workbench");
    await screen.findByTestId("span-timeline");
    const select = screen.getByTestId("span-label-select") as HTMLSelectElement;
    expect([...select.options].map((o) => o.value && o.textContent)).toEqual([s1.label, d1.label]);
    act(() => workbench.focus());
    press("t");
    expect(screen.getByTestId("span-message").textContent).toBe(`Label: ${d1.label}.`);
    press("t");
    expect(screen.getByTestId("span-message").textContent).toBe(`Label: ${s1.label}.`);
  });

  it("on a VBench-2.0 question, marks spans about that question: the one in focus", async () => {
    const question = (k: number) => ({
      key: `q${k}`,
      kind: "score",
      label: `Dynamic Attribute question ${k}`,
      required: true,
      min: 0,
      max: 1,
      category: `dynamic_attribute:q${k}`,
      stepId: `dynamic_attribute_q${k}`,
      scopeIndex: 0,
      frameIndexes: [],
      question: { text: `Question ${k}?`, framesNote: null },
      mine: null,
    });
    const answer = { id: "dynamic_attribute_answer", label: "Dynamic Attribute", definition: "" };
    item = {
      ...itemView(),
      presence: null,
      targets: [question(1), question(2)],
      localize: { task: "vbench2", labels: [answer], requiredWhenPresent: [] },
    };
    await openScreen("vbench2");
    await waitFor(() =>
      expect(screen.getByTestId("localize-status").textContent).toContain("Spans now are about dynamic_attribute:q1."),
    );
    expect(screen.getByTestId("localize-status").textContent).toContain("spans are optional here");
    press("j");
    await waitFor(() =>
      expect(screen.getByTestId("localize-status").textContent).toContain("Spans now are about dynamic_attribute:q2."),
    );
    // `s` in the timeline saves the frame at the playhead: about the question in focus, in the queue.
    await waitFor(() => expect(calls.some((c) => c.url === "/api/v1/videos/v1/frame-times")).toBe(true));
    const workbench = screen.getByTestId("span-workbench");
    act(() => workbench.focus());
    press("s");
    await waitFor(() =>
      expect(calls.find((c) => c.method === "POST" && c.url === "/api/v1/videos/v1/spans")?.body).toMatchObject({
        task: "vbench2",
        label: "dynamic_attribute_answer",
        itemId: "dynamic_attribute:q2",
        queueId: "q1",
      }),
    );
  });
});
