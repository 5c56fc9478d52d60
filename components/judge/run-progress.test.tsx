// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunProgress, stepsProgress, type RunStatus } from "./run-progress";

/*
 * A run's step total grew under the reader (0/99, then 156/156): a video's steps are planned only when a worker
 * starts it, so the rows counted while videos wait are not the run's total.
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const steps = (done: number, total: number): RunStatus["steps"] => ({
  total,
  pending: total - done,
  running: 0,
  done,
  failed: 0,
  parse_failed: 0,
  skipped: 0,
  cancelled: 0,
});

describe("a run's step count", () => {
  it("is estimated, and says so, while some videos have not started", () => {
    // 36 videos; 22 started with 99 steps planned (4.5 a video): about 162 in all.
    const running = stepsProgress({
      status: "running",
      videos: { total: 36, running: 22, queued: 14 },
      steps: steps(0, 99),
    });
    expect(running).toMatchObject({ finished: 0, total: 162, estimated: true, label: "0/~162" });
    expect(running.note).toBe(
      "14 of 36 videos not started: their steps are planned when they start; about 162 from the 99 steps of the 22 started",
    );
    expect(stepsProgress({ status: "queued", videos: { total: 36, queued: 36 }, steps: steps(0, 0) })).toMatchObject({
      total: 0,
      estimated: true,
      label: "0/?",
    });
  });

  it("is the steps counted once every video has started, or the run ended", () => {
    expect(stepsProgress({ status: "running", videos: { total: 36, running: 36 }, steps: steps(100, 156) })).toEqual({
      finished: 100,
      total: 156,
      estimated: false,
      label: "100/156",
    });
    expect(
      stepsProgress({ status: "cancelled", videos: { total: 36, done: 10, queued: 26 }, steps: steps(40, 40) }),
    ).toMatchObject({ estimated: false, label: "40/40" });
  });

  it("of a run its budget stopped is what it did out of its steps: cancelled steps are not finished", () => {
    const stopped = { ...steps(40, 128), pending: 0, cancelled: 88 };
    expect(stepsProgress({ status: "cancelled", videos: { total: 4, done: 1, cancelled: 3 }, steps: stopped })).toEqual(
      {
        finished: 40,
        total: 128,
        estimated: false,
        label: "40/128",
        note: "88 steps cancelled: not run",
      },
    );
  });

  it("shows a stopped run's bar as far as it got, not full", async () => {
    const status: RunStatus = {
      id: "r1",
      status: "cancelled",
      simulated: true,
      batchMode: false,
      batch: null,
      videos: { total: 4, done: 1, cancelled: 3 },
      steps: { ...steps(40, 128), pending: 0, cancelled: 88 },
      calls: { total: 40, cached: 0, errors: 0, repairs: 0, lost: 0, inFlight: 0, withoutUsage: 0 },
      tokens: { prompt: 10, completion: 10, atLeast: { prompt: 10, completion: 10 } },
      costUsd: 0,
      costUsdAtLeast: 0,
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify(status), { status: 200, headers: { "content-type": "application/json" } }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RunProgress runId="r1" canManage={false} />
      </QueryClientProvider>,
    );
    const counts = await screen.findByTestId("run-counts");
    expect(counts.firstElementChild!.textContent).toBe("steps40/128");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("31");
  });

  it("shows as an estimate on the run's progress", async () => {
    const status: RunStatus = {
      id: "r1",
      status: "running",
      simulated: true,
      batchMode: false,
      batch: null,
      videos: { total: 36, running: 22, queued: 14 },
      steps: steps(9, 99),
      calls: { total: 9, cached: 0, errors: 0, repairs: 0, lost: 0, inFlight: 0, withoutUsage: 0 },
      tokens: { prompt: 10, completion: 10, atLeast: { prompt: 10, completion: 10 } },
      costUsd: 0,
      costUsdAtLeast: 0,
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify(status), { status: 200, headers: { "content-type": "application/json" } }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RunProgress runId="r1" canManage={false} />
      </QueryClientProvider>,
    );
    const counts = await screen.findByTestId("run-counts");
    expect(counts.firstElementChild!.textContent).toBe("steps (estimated)9/~162");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("6");
  });
});
