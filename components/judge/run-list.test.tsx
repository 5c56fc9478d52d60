// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RunList, type RunRow } from "./run-list";

/* Runs side by side was reachable only from the link shown once after a sweep started. */
beforeEach(() => {
  // Each run's live progress asks for its status; an empty answer keeps it loading.
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response("{}", { status: 404 })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const row = (id: string, over: Partial<RunRow> = {}): RunRow => ({
  id,
  status: "done",
  pipeline: "hallucination",
  simulated: false,
  batchMode: false,
  createdAt: "2026-11-28T07:12:05Z",
  endpoint: { name: "vLLM", model: "qwen2.5-vl" },
  _count: { videos: 4 },
  ...over,
});

function renderList(runs: RunRow[]) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RunList projectId="p1" canManage={false} runs={runs} />
    </QueryClientProvider>,
  );
}

describe("the runs list", () => {
  it("links to runs side by side, and each sweep run to its sweep's runs in the order they started", () => {
    // Newest first, as the API lists them.
    renderList([
      row("b", { sweepId: "s1", label: "Hallucination · qwen2.5-vl @ vLLM · input mode video-frames" }),
      row("a", { sweepId: "s1", label: "Hallucination · qwen2.5-vl @ vLLM · input mode images" }),
      row("alone"),
    ]);
    expect(screen.getByTestId("runs-side-by-side-link").getAttribute("href")).toBe("/projects/p1/runs/compare");
    const sweepLinks = screen.getAllByTestId("run-sweep-compare");
    expect(sweepLinks.map((a) => a.getAttribute("href"))).toEqual([
      "/projects/p1/runs/compare?runs=a,b",
      "/projects/p1/runs/compare?runs=a,b",
    ]);
    const names = screen.getAllByTestId("run").map((li) => li.querySelector("a")!.textContent);
    expect(names[0]).toBe("Hallucination · qwen2.5-vl @ vLLM · input mode video-frames");
  });

  it("offers no comparison with fewer than two runs", () => {
    renderList([row("alone")]);
    expect(screen.queryByTestId("runs-side-by-side-link")).toBeNull();
    expect(screen.queryByTestId("run-sweep-compare")).toBeNull();
  });
});
