// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type SpanAdjudicationData, SpanAdjudicationScreen } from "./span-adjudication-screen";

/*
 * The owner's adjudication of spans in a DOM, with the API answered here: a reviewer's span is accepted as gold, a
 * gold span is changed at the version shown (a 409 says so and the list is read again) or withdrawn, and one is drawn
 * by its frames.
 */
vi.mock("next/link", () => ({
  default: ({ href, children }: { href: string; children: unknown }) => <a href={href}>{children as string}</a>,
}));

const span = (
  id: string,
  authorKind: "reviewer" | "gold" | "judge",
  authorId: string,
  startFrame: number,
  endFrame: number,
) => ({
  id,
  videoId: "v1",
  task: "hallucination",
  label: "s1",
  itemId: "",
  startFrame,
  endFrame,
  startS: startFrame / 10,
  endS: (endFrame + 1) / 10,
  boxes: [],
  note: "",
  authorKind,
  authorId,
  runId: null,
  labelSetId: null,
  queueId: null,
  version: 1,
  updatedAt: "2026-11-27T00:00:00.000Z",
});

const data = (): SpanAdjudicationData => ({
  total: 1,
  settled: 1,
  items: [
    {
      video: { id: "v1", path: "a/v1.mp4" },
      task: "hallucination",
      itemId: "",
      disagreement: 2 / 3,
      judge: { runId: "r1", spans: [{ ...span("j1", "judge", "run:r1", 3, 12), runId: "r1" }] },
      labels: [
        {
          label: "s1",
          name: "Geometric structure irrationality",
          disagreement: 2 / 3,
          reviewers: [
            { reviewerId: "u1", email: "ann@example.test", spans: [span("sa", "reviewer", "u1", 0, 9)] },
            { reviewerId: "u2", email: "bob@example.test", spans: [span("sb", "reviewer", "u2", 5, 14)] },
          ],
          gold: [
            { ...span("g1", "gold", "gold", 0, 9), history: [{ version: 1, at: "2026-11-27T10:00:00Z", by: "o" }] },
          ],
        },
      ],
    },
  ],
});

// 20 frames at 10 fps.
const times = { timesS: Array.from({ length: 20 }, (_, i) => i / 10), endS: 2, variable: false };

let calls: { method: string; url: string; body: unknown }[];
let patchStatus: number;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  calls = [];
  patchStatus = 200;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      calls.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : null });
      if (method === "GET" && input.endsWith("/frame-times")) return json(times);
      if (method === "GET") return json(data());
      if (method === "PATCH" && patchStatus === 409)
        return json(
          {
            error: {
              code: "conflict",
              message: "This span was changed elsewhere (now version 2). Reload it, then save again.",
            },
          },
          409,
        );
      return json({});
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <SpanAdjudicationScreen projectId="p1" query="state=all" initial={data()} />
    </QueryClientProvider>,
  );
}

const writes = () => calls.filter((c) => c.method !== "GET");

const spansOn = (track: HTMLElement) =>
  within(track)
    .queryAllByTestId(/^span-(?!new)/)
    .map((e) => [e.dataset.testid, e.dataset.kind, e.dataset.start, e.dataset.end]);

describe("the adjudication of spans", () => {
  it("shows the player and a read-only timeline with a lane per reviewer, the judge run's and the gold", async () => {
    open();
    const replay = screen.getByTestId("span-replay");
    expect(within(replay).getByTestId("player").getAttribute("src")).toBe("/api/v1/videos/v1/file");
    // A page of many videos: each player reads its file only once played.
    expect(within(replay).getByTestId("player").getAttribute("preload")).toBe("metadata");
    await waitFor(() => expect(within(replay).getByTestId("span-timeline")).toBeTruthy());
    expect(spansOn(screen.getByTestId("span-track-reviewer-u1"))).toEqual([["span-sa", "other", "0", "9"]]);
    expect(spansOn(screen.getByTestId("span-track-reviewer-u2"))).toEqual([["span-sb", "other", "5", "14"]]);
    expect(spansOn(screen.getByTestId("span-track-judge"))).toEqual([["span-j1", "judge", "3", "12"]]);
    expect(spansOn(screen.getByTestId("span-track-gold"))).toEqual([["span-g1", "other", "0", "9"]]);
    // Above the text controls, and nothing on it can be dragged.
    const section = screen.getByTestId("span-adjudication-item");
    expect(section.children[1]).toBe(replay);
    expect(within(replay).queryAllByTestId("span-edge-start")).toHaveLength(0);
    expect(screen.getByTestId("span-track-reviewer-u1").firstElementChild?.getAttribute("title")).toBe(
      "ann@example.test",
    );
  });

  it("shows each reviewer's spans of a label and accepts one as gold", async () => {
    open();
    const rows = screen.getAllByTestId("reviewer-spans");
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining("ann@example.test: frames 0–9 · 0.00–1.00 s"),
      expect.stringContaining("bob@example.test: frames 5–14 · 0.50–1.50 s"),
    ]);
    fireEvent.click(within(rows[1]!).getByTestId("accept-span"));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ method: "POST", url: "/api/v1/videos/v1/gold-spans", body: { fromSpanId: "sb" } });
    await waitFor(() =>
      expect(calls.some((c) => c.url === "/api/v1/projects/p1/adjudication/spans?state=all")).toBe(true),
    );
  });

  it("changes a gold span at the version shown, says when it was changed elsewhere, and withdraws it", async () => {
    open();
    const gold = screen.getByTestId("gold-span");
    expect(screen.getByTestId("gold-history").textContent).toContain("v1 2026-11-27 10:00");
    fireEvent.change(within(gold).getByLabelText("End frame"), { target: { value: "7" } });
    fireEvent.click(within(gold).getByTestId("save-gold-span"));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: "PATCH",
      url: "/api/v1/spans/g1",
      body: { expectedVersion: 1, startFrame: 0, endFrame: 7, note: "" },
    });
    patchStatus = 409;
    fireEvent.click(within(gold).getByTestId("save-gold-span"));
    await waitFor(() => expect(screen.getByTestId("span-adjudication-status").textContent).toContain("now version 2"));
    fireEvent.click(within(screen.getByTestId("gold-span")).getByTestId("withdraw-gold-span"));
    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes()[2]).toEqual({ method: "DELETE", url: "/api/v1/spans/g1", body: { expectedVersion: 1 } });
  });

  it("draws a gold span by its frames", async () => {
    open();
    fireEvent.change(screen.getByLabelText("New start frame"), { target: { value: "3" } });
    fireEvent.change(screen.getByLabelText("New end frame"), { target: { value: "6" } });
    fireEvent.click(screen.getByTestId("add-gold-span"));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]!.body).toEqual({ task: "hallucination", label: "s1", itemId: "", startFrame: 3, endFrame: 6 });
  });
});
