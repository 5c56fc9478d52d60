// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_ASPECTS } from "@/lib/pairwise/aspects";
import type { PairForReview } from "@/lib/pairwise/review/review.types";
import { PairReviewScreen } from "./pair-review-screen";

/*
 * The pair review screen's keys, in a DOM with the API answered here: verdict keys speak of the sides as shown and
 * are saved in the pair's A/B terms, Enter submits and claims the next pair, and keys typed while a submission is on
 * its way are applied to the next pair, so a burst of keys loses no verdict.
 */
const PAIRS = 10;

function pairView(index: number): PairForReview {
  const video = (id: string) => ({
    videoId: id,
    url: `/media/${id}.mp4`,
    fps: 24,
    durationS: 2,
    width: 320,
    height: 240,
  });
  return {
    pairId: `p${index}`,
    position: index,
    prompt: `prompt ${index}`,
    blind: true,
    // Even pairs show A on the left, odd ones on the right.
    aShownOn: index % 2 === 0 ? "left" : "right",
    status: "claimed",
    a: video(`a${index}`),
    b: video(`b${index}`),
    aspects: DEFAULT_ASPECTS.slice(0, 2),
    guidelines: "",
    verdicts: [],
  };
}

interface Saved {
  pairId: string;
  verdicts: { aspect: string; verdict: string }[];
  submit: boolean;
}
let saved: Saved[];
let nextIndex: number;
/** Answers for the verdict saves, settled by the test when it wants a submission held in flight. */
let holdSaves: boolean;
let heldSaves: (() => void)[];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  saved = [];
  nextIndex = 0;
  holdSaves = false;
  heldSaves = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      if (input.endsWith("/review/next")) {
        const pair = nextIndex < PAIRS ? pairView(nextIndex) : null;
        return json({ pair, progress: { done: nextIndex, total: PAIRS } });
      }
      if (input.endsWith("/review/verdicts")) {
        const body = JSON.parse(String(init.body)) as Saved;
        const answer = () => {
          saved.push(body);
          nextIndex++;
          return json({ verdicts: [], status: "done", progress: { done: nextIndex, total: PAIRS } });
        };
        if (!holdSaves) return answer();
        return new Promise<Response>((resolve) => heldSaves.push(() => resolve(answer())));
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
      <PairReviewScreen projectId="p" pairSetId="s1" marking={{ currentUserId: "u1", labels: [] }} />
    </QueryClientProvider>,
  );
  await screen.findByTestId("pair-review");
}

/** Presses keys on the page, one keydown each, all before React renders again. */
function press(...keys: string[]) {
  act(() => {
    for (const key of keys) {
      const digit = /^\d$/.test(key) ? { code: `Digit${key}` } : {};
      window.dispatchEvent(new KeyboardEvent("keydown", { key, ...digit, bubbles: true, cancelable: true }));
    }
  });
}

describe("the pair review screen's keys", () => {
  it("saves left/right as A/B through the side drawn for the reviewer, and swapping keeps the meaning", async () => {
    await openScreen();
    // Pair 0 shows A on the left: 1 (left better) is A; after a swap A is on the right, so 1 is B.
    press("1", "s", "1", "Enter");
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      pairId: "p0",
      submit: true,
      verdicts: [
        { aspect: "overall", verdict: "A" },
        { aspect: "text_alignment", verdict: "B" },
      ],
    });
  });

  it("loses no verdict in a burst of keys over ten pairs (keys during a submission wait for the next pair)", async () => {
    holdSaves = true;
    await openScreen();
    // 30 keys at once: per pair "left better" on overall, "both bad" on text alignment, Enter.
    const burst = Array.from({ length: PAIRS }, () => ["1", "4", "Enter"]).flat();
    press(...burst);
    for (let i = 0; i < PAIRS; i++) {
      await waitFor(() => expect(heldSaves.length).toBeGreaterThan(0));
      act(() => heldSaves.shift()!());
      await waitFor(() => expect(saved).toHaveLength(i + 1));
    }
    await screen.findByTestId("review-done");
    expect(saved.map((s) => s.pairId)).toEqual(Array.from({ length: PAIRS }, (_, i) => `p${i}`));
    saved.forEach((save, i) =>
      expect(save.verdicts).toEqual([
        { aspect: "overall", verdict: i % 2 === 0 ? "A" : "B", strength: 1 },
        { aspect: "text_alignment", verdict: "tie_bad", strength: 1 },
      ]),
    );
    expect(screen.getByTestId("pair-progress").textContent).toContain(`${PAIRS} of ${PAIRS} pairs`);
  });

  it("refuses Enter until every aspect has a verdict, and Tab moves between aspects", async () => {
    await openScreen();
    press("Tab", "3", "Enter");
    await waitFor(() => expect(screen.getByTestId("review-message").textContent).toContain("Overall"));
    expect(saved).toHaveLength(0);
    const focused = () => screen.getAllByTestId("aspect").map((row) => row.getAttribute("data-focused"));
    expect(focused()).toEqual(["true", "false"]);
    press("2", "Enter");
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.verdicts).toEqual([
      { aspect: "text_alignment", verdict: "tie_good", strength: 1 },
      { aspect: "overall", verdict: "B", strength: 1 },
    ]);
  });

  it("takes verdicts by mouse and opens the key list with ?", async () => {
    await openScreen();
    const rows = screen.getAllByTestId("aspect");
    act(() => (rows[0]!.querySelector('[data-testid="choose-right"]') as HTMLButtonElement).click());
    act(() => (rows[1]!.querySelector('[data-testid="choose-tie_good"]') as HTMLButtonElement).click());
    press("?");
    expect(await screen.findByTestId("key-list-overlay")).toBeTruthy();
    act(() => screen.getByTestId("submit-pair").click());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.verdicts.map((v) => v.verdict)).toEqual(["B", "tie_good"]);
  });
});
