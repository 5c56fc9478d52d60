// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { VBENCH2_TASK } from "@/lib/tasks/vbench2/vbench2-task";
import { RunVideosTable } from "./run-videos-table";

/*
 * The VBench-2.0 run page: twelve dimension columns, mostly "—", headers in capitals with no space between them
 * ("COMPLEX LANDSCAPECOMPLEX PLOT"), and no generator column, so two generators' rows of one prompt looked the same.
 */
afterEach(cleanup);

const metrics = VBENCH2_TASK.metrics.filter((m) => m.id === "material" || m.id === "thermotics");
const row = (videoId: string, model: string | null, summary: Record<string, unknown> | null) => ({
  videoId,
  status: "done" as const,
  summary,
  blind: false,
  video: { fileName: "A paper airplane-0.mp4", prompt: "A paper airplane", model },
});

describe("the run page's table", () => {
  it("names each video's generator, and spaces and wraps the metric headers in their own case", () => {
    render(
      <RunVideosTable
        projectId="p1"
        runId="r1"
        metrics={metrics}
        videos={[
          row("v1", "GenA", { material: 1, complete: true }),
          row("v2", "GenB", { material: 0, complete: true }),
          row("v3", null, { thermotics: null, complete: true }),
        ]}
      />,
    );
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["Video", "Generator", "Status", "Material", "Thermotics", ""]);
    const table = screen.getByTestId("run-videos");
    expect(table.querySelector("thead")!.className).not.toContain("uppercase");
    for (const header of screen.getAllByTestId("run-metric-header")) expect(header.className).toMatch(/\bpx-2\b/);
    const rows = screen.getAllByTestId("run-video");
    expect(rows.map((r) => within(r).getByTestId("run-video-generator").textContent)).toEqual(["GenA", "GenB", "—"]);
    // Scores read as everywhere else (lib/format/numbers formatScore): "1", not "1.0".
    expect(within(rows[0]!).getAllByRole("cell")[3]!.textContent).toBe("1");
    expect(within(rows[1]!).getAllByRole("cell")[3]!.textContent).toBe("0");
  });
});
