// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { againstEstimate, RunCost, type RunCostStatus } from "./run-cost";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const estimate = {
  calls: 30,
  images: 54,
  videoFrames: 0,
  videoSeconds: 0,
  inputTokens: 20_000,
  outputTokens: 9_000,
  outputTokensRange: [1_500, 45_000] as [number, number],
  costUsd: 0.4,
  costUsdRange: [0.1, 1.2] as [number, number],
  inputMode: "images",
  rule: { source: "stub", charsPerToken: 4 },
  defaultOutputTokens: 300,
  steps: [
    {
      stepId: "static_kg",
      calls: 6,
      images: 54,
      videoFrames: 0,
      videoSeconds: 0,
      inputTokens: 20_000,
      outputTokens: 9_000,
      costUsd: 0.4,
      outputFrom: "default" as const,
    },
  ],
};

function status(overrides: Partial<RunCostStatus>): RunCostStatus {
  return {
    id: "r1",
    status: "done",
    simulated: true,
    batchMode: false,
    batch: null,
    videos: { total: 3, done: 3 },
    steps: { total: 30, pending: 0, running: 0, done: 30, failed: 0, parse_failed: 0, skipped: 0, cancelled: 0 },
    calls: { total: 30, cached: 0, errors: 0, repairs: 0, lost: 0, inFlight: 0, withoutUsage: 0 },
    tokens: { prompt: 21_000, completion: 3_000, atLeast: { prompt: 21_000, completion: 3_000 } },
    costUsd: 0.015,
    costUsdAtLeast: 0.015,
    budgetUsd: null,
    stopReason: null,
    callsInFlightAtStop: null,
    ensemble: null,
    estimate,
    ...overrides,
  };
}

function renderWith(data: RunCostStatus, canManage = true) {
  const posted: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === "POST") posted.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(data), { headers: { "content-type": "application/json" } });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RunCost runId="r1" canManage={canManage} />
    </QueryClientProvider>,
  );
  return posted;
}

describe("a run's cost on its page", () => {
  it("shows the estimate made at its start against what its calls used, and the manifest link", async () => {
    renderWith(status({}));
    const table = await screen.findByTestId("run-estimate-vs-usage");
    expect(table.textContent).toContain("30 of 30 estimated (100%)");
    expect(table.textContent).toContain("21,000 of 20,000 estimated (105%)");
    expect(screen.getByTestId("run-estimate").textContent).toContain(
      "300 tokens a call for static_kg (no history, no schema)",
    );
    expect(screen.getByTestId("run-estimate").textContent).toContain("9,000 (1,500–45,000) output tokens");
    expect(screen.getByTestId("run-estimate-cost-range").textContent).toContain("from $0.1000 to $1.2000");
    expect(screen.getByTestId("run-manifest-link").getAttribute("href")).toBe("/api/v1/runs/r1/manifest");
  });

  it("says a run its budget stopped is stopped, and resumes it only with a budget above its spend", async () => {
    const posted = renderWith(
      status({ status: "cancelled", stopReason: "budget", budgetUsd: 0.01, callsInFlightAtStop: 2 }),
    );
    const stopped = (await screen.findByTestId("run-budget-stopped")).textContent;
    expect(stopped).toContain("stopped: budget reached");
    expect(stopped).toContain("at most the 2 calls in flight then spent past it");
    const input = screen.getByTestId("run-resume-budget");
    const button = screen.getByTestId("run-resume") as HTMLButtonElement;
    fireEvent.change(input, { target: { value: "0.01" } });
    expect(button.disabled).toBe(true);
    fireEvent.change(input, { target: { value: "abc" } });
    expect(button.disabled).toBe(true);
    fireEvent.change(input, { target: { value: "0.5" } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ url: "/api/v1/runs/r1/resume", body: { budgetUsd: 0.5 } });
  });

  it("offers no resume to a member who may not manage runs, nor for a run a member cancelled", async () => {
    renderWith(status({ status: "cancelled", stopReason: "budget", budgetUsd: 0.01 }), false);
    await screen.findByTestId("run-budget-stopped");
    expect(screen.queryByTestId("run-resume")).toBeNull();
    cleanup();
    renderWith(status({ status: "cancelled", stopReason: null, budgetUsd: 0.01 }));
    await screen.findByTestId("run-cost");
    expect(screen.queryByTestId("run-budget-stopped")).toBeNull();
    expect(screen.queryByTestId("run-resume")).toBeNull();
  });

  it("says unknown usage is unknown, never a ratio of 0", () => {
    expect(againstEstimate(null, 100, String)).toBe("unknown");
    expect(againstEstimate(50, 0, String)).toBe("50");
  });
});
