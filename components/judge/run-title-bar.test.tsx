// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { runSetupOf } from "@/lib/judge/runs/run-overview";
import { hallucinationSummarySettingsSchema } from "@/lib/tasks/hallucination/scores";
import { RunTitleBar } from "./run-title-bar";

afterEach(cleanup);

const run = {
  id: "r1",
  pipeline: "hallucination",
  simulated: false,
  batchMode: false,
  endpoint: { name: "vLLM", model: "qwen2.5-vl" },
};

describe("the run page's header", () => {
  it("says how the run judged: its input mode, aggregation and verdict threshold", () => {
    const setup = runSetupOf(
      { inputMode: "video-frames", settings: { aggregation: "max-max", verdict: { on: "overall", threshold: 70 } } },
      hallucinationSummarySettingsSchema,
    );
    render(<RunTitleBar projectId="p1" run={run} setup={setup} title="Hallucination · run" resultsLink={null} />);
    expect(screen.getByTestId("run-setup-input-mode").textContent).toBe("Input mode:video-frames");
    expect(screen.getByTestId("run-setup-aggregation").textContent).toBe("Aggregation:max-max");
    expect(screen.getByTestId("run-setup-threshold").textContent).toBe("Verdict threshold:70 on overall");
  });

  it("names the defaults a run took without naming them, and leaves out what its task does not have", () => {
    const defaults = runSetupOf({ inputMode: null, settings: {} }, hallucinationSummarySettingsSchema);
    expect(defaults).toEqual({ inputMode: "images", aggregation: "mean-max", threshold: "5 on max category" });
    render(
      <RunTitleBar
        projectId="p1"
        run={run}
        setup={runSetupOf({ inputMode: "video-file", settings: { frames: 8 } }, undefined)}
        title="Captions · run"
        resultsLink={null}
      />,
    );
    expect(screen.getByTestId("run-setup-input-mode").textContent).toBe("Input mode:video-file");
    expect(screen.queryByTestId("run-setup-aggregation")).toBeNull();
    expect(screen.queryByTestId("run-setup-threshold")).toBeNull();
  });
});
