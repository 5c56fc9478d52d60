// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReviewScreen } from "./review-screen";
import { DIGIT_ADVANCES_KEY } from "./review-options";

/*
 * A VBench-2.0 item on the review screen: each target is a question the judge was asked, shown in its words with
 * yes / no controls and keys and the frames it was asked with; the Judge line lists the item's own questions and
 * the judge's answers; the early-submit message names the questions. The API is answered here.
 */
vi.mock("next/navigation", () => ({ usePathname: () => "/projects/p1/queues/q1/items/i1" }));

const frames = Array.from({ length: 6 }, (_, i) => ({
  id: `f${i}`,
  index: i * 10,
  timestampS: i * 0.4,
  isKeyFrame: true,
  cluster: null,
  url: `/frames/f${i}.jpg`,
}));
const QUESTIONS = [
  "Initially, is the color of the river mostly blue?",
  "Finally, is the color of the river mostly green?",
];

function questionItem(blind: boolean) {
  return {
    queue: { id: "q1", projectId: "p1", name: "Rivers", scope: "scores", blind, reviewersPerItem: 1, itemCount: 1 },
    item: { id: "i1", position: 0 },
    assignment: { status: "claimed" },
    blind,
    video: {
      id: "v1",
      fileName: "river-0.mp4",
      prompt: "A river turns from blue to green",
      url: "/media/v1.mp4",
      frames,
    },
    ...(blind ? {} : { judgeSummary: { dynamic_attribute: 1, complex_landscape: null, complete: true } }),
    targets: QUESTIONS.map((text, k) => ({
      key: `s${k + 1}`,
      kind: "score" as const,
      label: `Dynamic Attribute question ${k + 1}: ${text}`,
      required: true,
      min: 0,
      max: 1,
      category: `dynamic_attribute:q${k + 1}`,
      stepId: `dynamic_attribute_q${k + 1}`,
      scopeIndex: 0,
      // Question 1 was asked with the first three frames, question 2 with the last.
      frameIndexes: k === 0 ? [0, 10, 20] : [50],
      question: { text, framesNote: null },
      mine: null,
      ...(blind ? {} : { judge: k === 0 ? 1 : 0 }),
    })),
    nav: { index: 0, count: 1, previousItemId: null, nextItemId: null },
    progress: { items: 1, complete: 0, mine: { done: 0 } },
  };
}

let item: unknown;
let submits: unknown[];
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

beforeEach(() => {
  submits = [];
  window.localStorage.clear();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      if (method === "GET" && input === "/api/v1/queues/q1/items/i1") return json(item);
      if (method === "GET" && input === "/api/v1/queues/q1")
        return json({ progress: { items: 1, complete: 0 }, mine: { done: 0 } });
      if (method === "POST" && input.includes("/ahead")) return json({ itemId: null });
      if (method === "POST" && input.includes("/submit")) {
        submits.push(JSON.parse(String(init.body)));
        return json({ next: null });
      }
      return json({});
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openScreen(blind = true, video?: Record<string, unknown>) {
  const base = questionItem(blind);
  item = video ? { ...base, video: { ...base.video, ...video } } : base;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewScreen projectId="p1" queueId="q1" itemId="i1" pipeline="vbench2" userId="u1" />
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

const values = () => screen.getAllByTestId("my-value").map((element) => element.textContent?.trim() ?? "");

describe("a VBench-2.0 item on the review screen", () => {
  it("names a uniform set's frames by place and time, not as key frames with clusters of one", async () => {
    // As stored: each uniform frame is its own cluster.
    await openScreen(true, { frames: frames.map((frame, i) => ({ ...frame, cluster: i })), uniformFrames: true });
    expect(screen.getAllByText(/^frame 1 · 0\.00 s$/).length).toBeGreaterThan(0);
    expect(screen.queryByText(/cluster of 1/)).toBeNull();
    expect(screen.queryByText(/^key frame 1/)).toBeNull();
  });

  it("shows each question in the judge's words, with yes / no buttons named by the question", async () => {
    await openScreen();
    const rows = screen.getAllByTestId("target");
    expect(rows.map((row) => within(row).getByTestId("question-text").textContent)).toEqual(QUESTIONS);
    expect(screen.queryByText(/^Dynamic Attribute question$/)).toBeNull();
    const buttons = within(rows[0]!).getAllByTestId("score-button");
    expect(buttons.map((b) => b.textContent)).toEqual(["yes", "no"]);
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual([
      `Dynamic Attribute question 1: ${QUESTIONS[0]}: yes`,
      `Dynamic Attribute question 1: ${QUESTIONS[0]}: no`,
    ]);
  });

  it("y and n answer the focused question and move on; 1 and 0 do the same", async () => {
    await openScreen();
    press("n");
    await waitFor(() => expect(values()).toEqual(["no", "—"]));
    press("y");
    await waitFor(() => expect(values()).toEqual(["no", "yes"]));
    press("k", "1");
    await waitFor(() => expect(values()).toEqual(["yes", "yes"]));
    press("Enter");
    await waitFor(() => expect(submits).toHaveLength(1));
    expect(submits[0]).toMatchObject({
      judgments: [
        expect.objectContaining({ target: "s1", value: 1 }),
        expect.objectContaining({ target: "s2", value: 1 }),
      ],
    });
  });

  it('y and n leave the focus where it is with "a score moves on" off', async () => {
    window.localStorage.setItem(DIGIT_ADVANCES_KEY, "off");
    await openScreen();
    press("j", "n");
    await waitFor(() => expect(values()).toEqual(["—", "no"]));
    expect(screen.getAllByTestId("target")[1]!.getAttribute("data-focused")).toBe("true");
  });

  it("the early-submit message names the questions left unanswered", async () => {
    await openScreen();
    press("j", "y", "Enter");
    await waitFor(() => expect(screen.getByTestId("status-message").textContent).toContain(QUESTIONS[0]));
    expect(screen.getByTestId("status-message").textContent).not.toContain(QUESTIONS[1]);
    expect(submits).toEqual([]);
  });

  it("shows the focused question's own frames and lights them in the strip", async () => {
    await openScreen();
    const shown = () =>
      within(screen.getByTestId("question-frames"))
        .getAllByRole("img")
        .map((img) => img.getAttribute("src"));
    expect(shown()).toEqual(["/frames/f0.jpg", "/frames/f1.jpg", "/frames/f2.jpg"]);
    expect(screen.getByTestId("question-frames").textContent).toContain("Asked with 3 frames (0.00–0.80 s)");
    const lit = () =>
      [...document.querySelectorAll('[data-highlighted="true"]')].map((element) =>
        element.querySelector("img")?.getAttribute("src"),
      );
    expect(lit()).toEqual(["/frames/f0.jpg", "/frames/f1.jpg", "/frames/f2.jpg"]);
    press("j");
    await waitFor(() => expect(shown()).toEqual(["/frames/f5.jpg"]));
    expect(screen.getByTestId("question-frames").textContent).toContain("Asked with 1 frame (2.00 s)");
    expect(lit()).toEqual(["/frames/f5.jpg"]);
  });

  it("the Judge line lists only the item's questions with the judge's answers", async () => {
    await openScreen(false);
    const line = screen.getByTestId("judge-summary");
    expect(
      within(line)
        .getAllByTestId("judge-answer")
        .map((a) => a.textContent),
    ).toEqual(["Dynamic Attribute question 1 yes", " · Dynamic Attribute question 2 no"]);
    expect(line.textContent).not.toMatch(/landscape|Landscape|Mechanics/);
  });
});
