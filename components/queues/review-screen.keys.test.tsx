// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import type { TaskViews } from "@/components/tasks/task-views";
import { ReviewScreen } from "./review-screen";
import { DIGIT_ADVANCES_KEY } from "./review-options";

/*
 * The review screen's key handling, in a DOM with the API answered here: every key goes into one queue that the item
 * on screen applies one render at a time, so digits score the focused target, j/k move the focus, Enter submits, and
 * keys typed while a submission is on its way wait for the next item instead of being lost.
 */
vi.mock("next/navigation", () => ({ usePathname: () => "/projects/p1/queues/q1/items/i1" }));

const targets = () =>
  ["motion", "physics"].map((key) => ({
    key,
    kind: "score" as const,
    label: key,
    required: true,
    min: 0,
    max: 3,
    category: null,
    scopeIndex: null,
    frameIndexes: [],
    mine: null,
  }));

function itemView(id: string, position: number) {
  return {
    queue: {
      id: "q1",
      projectId: "p1",
      name: "Queue",
      scope: "scores",
      blind: true,
      reviewersPerItem: 1,
      itemCount: 3,
    },
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
/** The first item's payload once its submission has been answered (the server reveals a blind item's judge values then). */
let firstItemSubmitted: unknown;
let submittedFirst: boolean;
/** Answers for `POST …/submit`, in order; each is settled by the test. */
let submitAnswers: { promise: Promise<Response>; resolve: (response: Response) => void }[];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  calls = [];
  submitAnswers = [];
  firstItem = null;
  firstItemSubmitted = null;
  submittedFirst = false;
  window.localStorage.clear();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      calls.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : null });
      if (method === "GET" && input === "/api/v1/queues/q1/items/i1")
        return json((submittedFirst && firstItemSubmitted) || firstItem || itemView("i1", 0));
      if (method === "GET" && input === "/api/v1/queues/q1/items/i2") return json(itemView("i2", 1));
      if (method === "GET" && input === "/api/v1/queues/q1")
        return json({ progress: { items: 3, complete: 0 }, mine: { done: 0 } });
      // No item claimed ahead: Enter submits in the foreground and the server sends the next item back.
      if (method === "POST" && input.includes("/ahead")) return json({ itemId: null });
      if (method === "POST" && input.includes("/submit")) {
        let resolve!: (response: Response) => void;
        const promise = new Promise<Response>((r) => (resolve = r));
        submitAnswers.push({ promise, resolve });
        if (input.includes("/items/i1/")) void promise.then(() => (submittedFirst = true));
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
    for (const key of keys)
      window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

const values = () => screen.getAllByTestId("my-value").map((element) => element.textContent?.trim() ?? "");
const focusedIndex = () =>
  screen.getAllByTestId("target").findIndex((element) => element.getAttribute("data-focused") === "true");

describe("the review screen's keys", () => {
  it('a digit scores the focused target; j and k move the focus (with "a score moves on" off)', async () => {
    window.localStorage.setItem(DIGIT_ADVANCES_KEY, "off");
    await openScreen();
    expect((screen.getByTestId("digit-advances") as HTMLInputElement).checked).toBe(false);
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
    expect(submit.body).toMatchObject({
      judgments: [
        expect.objectContaining({ target: "motion", value: 1 }),
        expect.objectContaining({ target: "physics", value: 2 }),
      ],
    });
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
      subjectValueKeys: {
        toyThing: { one: "u", zero: "d", category: "physics", help: ["u / d", "toy thing: up / down (also 1 / 0)"] },
      },
    };
    (GENERATED_TASK_VIEWS as TaskViews[]).push(toyViews);
    try {
      const item = itemView("i1", 0);
      firstItem = {
        ...item,
        queue: { ...item.queue, scope: "toy_things" },
        toyThing: { id: "t1" },
        targets: item.targets.map((t) => ({ ...t, category: t.key })),
      };
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
    (GENERATED_TASK_VIEWS as TaskViews[]).push({
      id: "toy-keys",
      subjectValueKeys: { toyThing: { one: "u", zero: "d", category: "physics", help: ["u / d", "toy"] } },
    });
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

/** An item of `count` score targets on 0–`max` (named t1, t2, …), unsubmitted. */
function itemOf(count: number, max: number, blind = true) {
  const item = itemView("i1", 0);
  return {
    ...item,
    blind,
    queue: { ...item.queue, blind },
    targets: Array.from({ length: count }, (_, i) => ({
      key: `t${i + 1}`,
      kind: "score" as const,
      label: `t${i + 1}`,
      required: true,
      min: 0,
      max,
      category: null,
      scopeIndex: null,
      frameIndexes: [],
      mine: null,
    })),
  };
}

const scoreButton = (target: number, value: number) =>
  screen
    .getAllByTestId("target")
    .at(target)!
    .querySelector<HTMLButtonElement>(`[data-testid="score-button"][data-value="${value}"]`)!;

describe("scoring with the mouse, and a score that moves on", () => {
  it("every target has a button per value; a click scores it like the digit and moves the focus on", async () => {
    firstItem = itemOf(3, 10);
    await openScreen();
    for (const target of screen.getAllByTestId("target"))
      expect(target.querySelectorAll('[data-testid="score-button"]')).toHaveLength(11);
    act(() => scoreButton(0, 10).click());
    await waitFor(() => expect(values()).toEqual(["10", "—", "—"]));
    expect(scoreButton(0, 10).getAttribute("aria-pressed")).toBe("true");
    expect(focusedIndex()).toBe(1);
    // A click on another target's value scores that one, wherever the focus is.
    act(() => scoreButton(2, 0).click());
    await waitFor(() => expect(values()).toEqual(["10", "—", "0"]));
    expect(focusedIndex()).toBe(2);
    // Keys go on working after clicks: the screen keeps the keyboard.
    press("k", "4");
    await waitFor(() => expect(values()).toEqual(["10", "4", "0"]));
  });

  it("a yes/no target offers its named values", async () => {
    const item = itemView("i1", 0);
    firstItem = {
      ...item,
      targets: [
        {
          key: "verdict",
          kind: "verdict",
          label: "Hallucination verdict",
          required: true,
          min: 0,
          max: 1,
          category: null,
          scopeIndex: null,
          frameIndexes: [],
          mine: null,
        },
      ],
    };
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <ReviewScreen projectId="p1" queueId="q1" itemId="i1" pipeline="hallucination" userId="u1" />
      </QueryClientProvider>,
    );
    await screen.findByTestId("review-screen");
    expect(screen.getAllByTestId("score-button").map((b) => b.textContent)).toEqual(["yes", "no"]);
    act(() => screen.getAllByTestId("score-button")[0]!.click());
    await waitFor(() => expect(values()).toEqual(["yes"]));
  });

  it("by default a digit moves on to the next target; 1 on 0–10 waits for a 0; j right after a move does not skip a target", async () => {
    firstItem = itemOf(4, 10);
    await openScreen();
    expect((screen.getByTestId("digit-advances") as HTMLInputElement).checked).toBe(true);
    press("3");
    await waitFor(() => expect(focusedIndex()).toBe(1));
    // 1 then 0 within the chain window is 10 on the second target, then the focus moves on.
    press("1", "0");
    await waitFor(() => expect(values()).toEqual(["3", "10", "—", "—"]));
    expect(focusedIndex()).toBe(2);
    // The habit of j between scores lands where it did: j after a move is taken as that move.
    press("j", "5");
    await waitFor(() => expect(values()).toEqual(["3", "10", "5", "—"]));
    expect(focusedIndex()).toBe(3);
    // On the last target the focus stays there.
    press("1");
    await waitFor(() => expect(values()).toEqual(["3", "10", "5", "1"]));
    expect(focusedIndex()).toBe(3);
    // A lone 1 moves on once the chain window is over.
    press("k", "k", "1");
    await waitFor(() => expect(values()).toEqual(["3", "1", "5", "1"]));
    expect(focusedIndex()).toBe(1);
    await waitFor(() => expect(focusedIndex()).toBe(2), { timeout: 2000 });
  });

  it("the option is a checkbox, remembered in the browser", async () => {
    firstItem = itemOf(3, 10);
    await openScreen();
    const box = screen.getByTestId("digit-advances") as HTMLInputElement;
    act(() => box.click());
    expect(box.checked).toBe(false);
    expect(window.localStorage.getItem(DIGIT_ADVANCES_KEY)).toBe("off");
    press("4");
    await waitFor(() => expect(values()).toEqual(["4", "—", "—"]));
    expect(focusedIndex()).toBe(0);
    act(() => scoreButton(1, 2).click());
    await waitFor(() => expect(values()).toEqual(["4", "2", "—"]));
    expect(focusedIndex()).toBe(1);
    cleanup();
    await openScreen();
    expect((screen.getByTestId("digit-advances") as HTMLInputElement).checked).toBe(false);
  });
});

describe("submitting with targets left without a value", () => {
  it("says how many are missing, without listing them, and a button goes to the first", async () => {
    firstItem = itemOf(96, 10);
    await openScreen();
    act(() => scoreButton(0, 3).click());
    act(() => scoreButton(1, 3).click());
    act(() => scoreButton(3, 3).click());
    act(() => screen.getByTestId("submit-item").click());
    const status = screen.getByTestId("status-message");
    await waitFor(() => expect(status.textContent).toContain("93 of 96 still need a value"));
    expect(status.textContent).not.toContain("t5,");
    expect(calls.filter((call) => call.url.includes("/submit"))).toEqual([]);
    act(() => screen.getByTestId("jump-to-missing").click());
    await waitFor(() => expect(focusedIndex()).toBe(2));
    // Scored, the next missing one is named by the next attempt.
    press("7", "Enter");
    await waitFor(() => expect(screen.getByTestId("jump-to-missing").textContent).toContain("t5"));
  });
});

describe("after submitting a blind item", () => {
  it("shows the judge's values with agreement until the reviewer moves on", async () => {
    firstItem = itemOf(2, 10);
    const revealed = itemOf(2, 10, false);
    firstItemSubmitted = {
      ...revealed,
      queue: { ...revealed.queue, blind: true },
      assignment: { status: "done" },
      nav: { index: 0, count: 1, previousItemId: null, nextItemId: "i2" },
      targets: revealed.targets.map((t, i) => ({
        ...t,
        judge: 7,
        mine: { value: [7, 2][i], note: null, reason: null, version: 1 },
      })),
    };
    await openScreen();
    act(() => scoreButton(0, 7).click());
    act(() => scoreButton(1, 2).click());
    act(() => screen.getByTestId("submit-item").click());
    await waitFor(() => expect(submitAnswers).toHaveLength(1));
    await act(async () => {
      submitAnswers[0]!.resolve(json({ next: itemView("i2", 1) }));
    });
    // Still the submitted item, now with the judge's values and where they agree.
    await waitFor(() => expect(screen.getAllByTestId("judge-value").map((e) => e.textContent)).toEqual(["7", "7"]));
    expect(screen.getByTestId("review-screen").getAttribute("data-item-id")).toBe("i1");
    expect(screen.getAllByTestId("agreement").map((e) => e.getAttribute("data-agrees"))).toEqual(["true", "false"]);
    expect(screen.getByTestId("reveal-summary").textContent).toContain("you agree on 1 of 2 targets");
    expect(screen.getByTestId("item-position").textContent).toBe("your item 1 of 1 · submitted");
    // j looks around; the next item comes with the button (or Enter).
    press("j");
    await waitFor(() => expect(focusedIndex()).toBe(1));
    expect(screen.getByTestId("review-screen").getAttribute("data-item-id")).toBe("i1");
    act(() => screen.getByTestId("reveal-next").click());
    await waitFor(() => expect(screen.getByTestId("review-screen").getAttribute("data-item-id")).toBe("i2"));
    expect(screen.getByTestId("item-position").textContent).toBe("your item 2 of 3 · not submitted yet");
  });

  it("a score typed on the revealed item goes on and applies to the next item", async () => {
    firstItem = itemOf(2, 3);
    const revealed = itemOf(2, 3, false);
    firstItemSubmitted = {
      ...revealed,
      assignment: { status: "done" },
      nav: { index: 0, count: 1, previousItemId: null, nextItemId: "i2" },
      targets: revealed.targets.map((t) => ({ ...t, judge: 1 })),
    };
    await openScreen();
    press("1", "2", "Enter");
    await waitFor(() => expect(submitAnswers).toHaveLength(1));
    await act(async () => {
      submitAnswers[0]!.resolve(json({ next: itemView("i2", 1) }));
    });
    await screen.findByTestId("reveal-summary");
    press("3");
    await waitFor(() => expect(screen.getByTestId("review-screen").getAttribute("data-item-id")).toBe("i2"));
    await waitFor(() => expect(values()).toEqual(["3", "—"]));
  });
});

describe("after submitting a blind item whose video stays blind", () => {
  it("goes on to the next item, as there is nothing to reveal (another item of the video waits)", async () => {
    firstItem = itemOf(1, 3);
    firstItemSubmitted = {
      ...itemOf(1, 3),
      assignment: { status: "done" },
      nav: { index: 0, count: 1, previousItemId: null, nextItemId: "i2" },
    };
    await openScreen();
    press("2", "Enter");
    await waitFor(() => expect(submitAnswers).toHaveLength(1));
    await act(async () => {
      submitAnswers[0]!.resolve(json({ next: itemView("i2", 1) }));
    });
    await waitFor(() => expect(screen.getByTestId("review-screen").getAttribute("data-item-id")).toBe("i2"));
    expect(screen.queryByTestId("reveal-summary")).toBeNull();
  });
});
