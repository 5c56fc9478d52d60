// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import { RunMetricsLegend } from "./run-metrics-legend";

/* Issue 38 §5.6: the run page's I / S / D / OVERALL columns had no legend. */
afterEach(cleanup);

describe("the run page's legend", () => {
  it("names and defines every column the run's task declares, with how it is computed and its scale", () => {
    const task = BUILT_IN_DECLARATIONS.findTask("hallucination")!;
    render(<RunMetricsLegend metrics={task.metrics} />);
    const entries = screen.getAllByTestId("run-metrics-legend-entry");
    expect(entries.map((e) => e.getAttribute("data-metric"))).toEqual(task.metrics.map((m) => m.id));
    for (const metric of task.metrics) {
      const entry = entries.find((e) => e.getAttribute("data-metric") === metric.id)!;
      expect(entry.querySelector("dt")!.textContent).toBe(metric.label);
      expect(entry.querySelector("dd")!.textContent).toContain(metric.definition);
      expect(entry.querySelector("dd")!.textContent).toContain(metric.aggregation);
    }
    expect(screen.getByTestId("run-metrics-legend").hasAttribute("open")).toBe(true);
  });

  it("is left out for a task without metrics", () => {
    render(<RunMetricsLegend metrics={[]} />);
    expect(screen.queryByTestId("run-metrics-legend")).toBeNull();
  });
});
