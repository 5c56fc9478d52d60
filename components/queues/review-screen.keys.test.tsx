// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GENERATED_TASK_VIEWS } from "@/lib/generated/tasks/views";
import type { TaskViews } from "@/components/tasks/task-views";
import { ReviewScreen } from "./review-screen";

/*
 * The review screen's key handling, in a DOM with the API answered here: every key goes into one queue that the item
 * on screen applies one render at a time, so digits score the focused target, j/k move the focus, Enter submits, and
 * keys typed while a submission is on its way wait for the next item instead of being lost.
 */
vi.mock("next/navigation", () => ({ usePathname: () => "/projects/p1/queues/q1/items/i1" }));

const targets = () => ["motion", "physics"].map((key) => ({ key, kind: "score" as const, label: key, required: true, min: 0, max: 3, category: null, scopeIndex: null, frameIndexes: [], mine: null }));

function itemView(id: string, position: number) {
  return {
    queue: { id: "q1", projectId: "p1", name: "Queue", scope: "scores", blind: true, reviewersPerItem: 1, itemCount: 3 },
    item: { id, position },
    assignment: { status: "claimed" },
    blind: true,
    video: { id: `v-${id}`, fileName: `${id}.mp4`, prompt: "A ball rolls", url: `/media/${id}.mp4`, frames: [] },
    targets: targets(),
    nav: { index: position, count: 3, previousItemId: null, nextItemId: null },
    progress: { items: 3, complete: 0, mine: { done: 0 } },
  };
}

interface Call {
  method: string;
  url: string;
  body: unknown;
}

let calls: Call[];
/** The first item's payload, when a test shows another than itemView("i1", 0). */
let firstItem: unknown;
/** Answers for `POST …/submit`, in order; each is settled by the test. */
let submitAnswers: { promise: Promise<Response>; resolve: (response: Response) => void }[];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  calls = [];
  submitAnswers = [];
  firstItem = null;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      calls.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : null });
      if (method === "GET" && input === "/api/v1/queues/q1/items/i1") return json(firstItem ?? itemView("i1", 0));
      if (method === "GET" && input === "/api/v1/queues/q1") return json({ progress: { items: 3, complete: 0 }, mine: { done: 0 } });
      // No item claimed ahead: Enter submits in the foreground and the server sends the next item back.
      if (method === "POST" && input.includes("/ahead")) return json({ itemId: null });
      if (method === "POST" && input.includes("/submit")) {
        let resolve!: (response: Response) => void;
        const promise = new Promise<Response>((r) => (resolve = r));
        submitAnswers.push({ promise, resolve });
        return promise;
      }
      return json({});
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewScreen projectId="p1" queueId="q1" itemId="i1" pipeline={null} userId="u1" />
    </QueryClientProvider>,
  );
  await screen.findByTestId("review-screen");
}

/** Presses keys on the page, one keydown each, all before React renders again. */
function press(...keys: string[]) {
  act(() => {
    for (const key of keys) window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

const values = () => screen.getAllByTestId("my-value").map((element) => element.textContent?.trim() ?? "");
const focusedIndex = () => screen.getAllByTestId("target").findIndex((element) => element.getAttribute("data-focused") === "true");

describe("the review screen's keys", () => {
  it("a digit scores the focused target; j and k move the focus", async () => {
    await openScreen();
    expect(focusedIndex()).toBe(0);
    press("j", "2");
    await waitFor(() => expect(values()).toEqual(["—", "2"]));
    expect(focusedIndex()).toBe(1);
    press("k", "3");
    await waitFor(() => expect(values()).toEqual(["3", "2"]));
    expect(focusedIndex()).toBe(0);
    // Past the last target the focus stays there; a digit outside the scale changes nothing and says why.
    press("j", "j", "7");
    await waitFor(() => expect(screen.getByTestId("status-message").textContent).toContain("takes 0–3"));
    expect(values()).toEqual(["3", "2"]);
    expect(focusedIndex()).toBe(1);
  });

  it("Enter submits what was typed", async () => {
    await openScreen();
    press("1", "j", "2", "Enter");
    await waitFor(() => expect(submitAnswers).toHaveLength(1));
    const submit = calls.find((call) => call.url.includes("/submit"))!;
    expect(submit.url).toBe("/api/v1/queues/q1/items/i1/submit?next=1");
    expect(submit.body).toMatchObject({ judgments: [expect.objectContaining({ target: "motion", value: 1 }), expect.objectContaining({ target: "physics", value: 2 })] });
  });

  it("Enter with a target left unscored submits nothing and names it", async () => {
    await openScreen();
    press("1", "Enter");
    await waitFor(() => expect(screen.getByTestId("status-message").textContent).toContain("missing: physics"));
    expect(calls.filter((call) => call.url.includes("/submit"))).toEqual([]);
  });

  it("keys typed while the submission is on its way apply to the next item, not to the one submitted", async () => {
    await openScreen();
    press("1", "j", "2", "Enter");
    await waitFor(() => expect(submitAnswers).toHaveLength(1));
    // Typed before the server answers: held for the next item.
    press("3", "j", "1");
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(screen.getByTestId("review-screen").getAttribute("data-item-id")).toBe("i1");
    expect(values()).toEqual(["1", "2"]);
    expect(calls.filter((call) => call.url.includes("/submit"))).toHaveLength(1);

    await act(async () => {
      submitAnswers[0]!.resolve(json({ next: itemView("i2", 1) }));
    });
    await waitFor(() => expect(screen.getByTestId("review-screen").getAttribute("data-item-id")).toBe("i2"));
    await waitFor(() => expect(values()).toEqual(["3", "1"]));
    expect(focusedIndex()).toBe(1);
  });

  it("a key pair a task's views declare for its queue subject sets that target (a registered toy task's too)", async () => {
    const toyViews: TaskViews = {
      id: "toy-keys",
      subjectViews: { toyThing: () => <p data-testid="toy-thing">toy thing</p> },
      subjectValueKeys: { toyThing: { one: "u", zero: "d", category: "physics", help: ["u / d", "toy thing: up / down (also 1 / 0)"] } },
    };
    (GENERATED_TASK_VIEWS as TaskViews[]).push(toyViews);
    try {
      const item = itemView("i1", 0);
      firstItem = { ...item, queue: { ...item.queue, scope: "toy_things" }, toyThing: { id: "t1" }, targets: item.targets.map((t) => ({ ...t, category: t.key })) };
      await openScreen();
      expect(screen.getByTestId("toy-thing")).toBeTruthy();
      expect(screen.getByTestId("shortcut-help").textContent).toContain("u / d toy thing: up / down");
      press("u");
      await waitFor(() => expect(values()).toEqual(["—", "1"]));
      expect(focusedIndex()).toBe(1);
      press("k", "d");
      await waitFor(() => expect(values()).toEqual(["—", "0"]));
      expect(focusedIndex()).toBe(1);
    } finally {
      (GENERATED_TASK_VIEWS as TaskViews[]).splice(GENERATED_TASK_VIEWS.indexOf(toyViews), 1);
    }
  });

  it("a subject's key pair does nothing on an item without that subject", async () => {
    (GENERATED_TASK_VIEWS as TaskViews[]).push({ id: "toy-keys", subjectValueKeys: { toyThing: { one: "u", zero: "d", category: "physics", help: ["u / d", "toy"] } } });
    try {
      const item = itemView("i1", 0);
      firstItem = { ...item, targets: item.targets.map((t) => ({ ...t, category: t.key })) };
      await openScreen();
      press("u", "1");
      await waitFor(() => expect(values()).toEqual(["1", "—"]));
    } finally {
      (GENERATED_TASK_VIEWS as TaskViews[]).pop();
    }
  });
});
