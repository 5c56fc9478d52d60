// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ComparedRun, RunComparison } from "@/lib/run-comparison/run-comparison";
import { RunComparisonView } from "./run-comparison-view";

afterEach(cleanup);

const run = (id: string, inputMode: ComparedRun["inputMode"], over: Partial<ComparedRun> = {}): ComparedRun => ({
  id,
  name: `Hallucination · stub · ${id}`,
  status: "done",
  inputMode,
  frameCounts: [6],
  model: "stub-vision",
  endpointName: "stub",
  videos: 3,
  agreement: {
    n: 4,
    kappa: 0.5,
    accuracy: 0.75,
    native: [{ targetType: "overall", n: 4, kappaQuadratic: 0.8, alpha: 0.71234 }],
    labelSets: [],
  },
  spans: [],
  ranking: ["GenA", ["GenB", "GenC"]],
  rankingNote: null,
  cost: {
    calls: 20,
    cached: 2,
    costUsd: 0.0123,
    promptTokens: 12000,
    completionTokens: 900,
    bytesSent: 45678,
    meanLatencyMs: 120.4,
    startedAt: "2026-11-27T10:00:00Z",
    finishedAt: "2026-11-27T10:02:30Z",
    durationS: 150,
  },
  ...over,
});

const comparison: RunComparison = {
  task: { id: "hallucination", label: "Hallucination" },
  runs: [
    run("r1", "images"),
    run("r2", "video-frames", {
      ranking: null,
      rankingNote: "No video of the run has a value with a generator model.",
    }),
  ],
  differences: [{ field: "inputMode", label: "Input mode", values: ["images", "video-frames"] }],
  rankingMetric: { id: "overall", label: "Overall" },
  tau: [{ a: "r1", b: "r2", generators: 3, tau: 0.33333 }],
};

describe("runs side by side", () => {
  it("names what differs, a column per run with its numbers, each ranking (ties grouped) or why there is none, and τ", () => {
    render(<RunComparisonView projectId="p1" comparison={comparison} />);
    expect(screen.getByTestId("run-differences").textContent).toBe("Input mode: #1 images · #2 video-frames");
    const table = screen.getByTestId("run-comparison-table").textContent ?? "";
    expect(table).toContain("overall: Krippendorff's α0.710.71");
    expect(table).toContain("Cost$0.0123$0.0123");
    expect(table).toContain("Start to finish2 min 30 s");
    expect(screen.getAllByTestId("compared-run").map((c) => c.querySelector("a")!.getAttribute("href"))).toEqual([
      "/projects/p1/runs/r1",
      "/projects/p1/runs/r2",
    ]);
    expect(screen.getAllByTestId("compared-run-differs").map((c) => c.textContent)).toEqual([
      "Input mode: images",
      "Input mode: video-frames",
    ]);
    expect(document.body.textContent).toContain("#1 GenA > (GenB = GenC)");
    expect(document.body.textContent).toContain("#2 No video of the run has a value with a generator model.");
    expect(screen.getByTestId("run-comparison-tau").textContent).toContain("#1 and #230.33");
  });

  it("shows the agreement with each imported label set beside the reviewers' (none yet: 0 targets, κ —)", () => {
    const authors = { reviewerId: "labelset:ls1", label: "Authors' labels", n: 6, kappa: 0.4, accuracy: 0.8 };
    const noReviewers = { n: 0, kappa: null, accuracy: null, native: [] };
    render(
      <RunComparisonView
        projectId="p1"
        comparison={{
          ...comparison,
          runs: [
            run("r1", "images", { agreement: { ...noReviewers, labelSets: [authors] } }),
            run("r2", "video-frames", { agreement: { ...noReviewers, labelSets: [] } }),
          ],
        }}
      />,
    );
    const rows = [...screen.getByTestId("run-comparison-table").querySelectorAll("tbody tr")].map((tr) =>
      [...tr.children].map((c) => c.textContent),
    );
    expect(rows).toContainEqual(["Agreement with reviewers: targets", "0", "0"]);
    expect(rows).toContainEqual(["Agreement with Authors' labels: targets", "6", "0"]);
    expect(rows).toContainEqual(["Agreement with Authors' labels: κ (binarised)", "0.40", "—"]);
  });

  it("says so when nothing differs", () => {
    render(<RunComparisonView projectId="p1" comparison={{ ...comparison, differences: [] }} />);
    expect(screen.getByTestId("run-differences").textContent).toMatch(/^Nothing: the runs share/);
  });
});
